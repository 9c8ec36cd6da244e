"""Which call runs a model's forward pass on CUDA (GA107 asks): ``model(x)``, ``model.forward(x)``, a method of a
model that returns CUDA tensors (``net.act(state)``), an unknown callable named like a model fed CUDA tensors --
not a model's set-up or bookkeeping methods, not a method handed a record or only text (a library's text API,
which runs its own forward under no_grad), and a model handed in only where the file's work is on CUDA.
"""
from __future__ import annotations

import ast
import re
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.target_nets import refreshed_targets
from advisor.lint.flow import CPU_TENSOR, CUDA_MODEL, CUDA_TENSOR, EVAL, MODEL
from advisor.lint.flow.literals import alias_names, is_text_data
from advisor.lint.flow.steps import handed_a_loader, is_step_function
from advisor.lint.names import dotted, last_identifier

_NOT_A_FORWARD = api.MODEL_QUIET_METHODS | api.MODEL_SELF_METHODS | {"parameters", "named_parameters", "apply"} | {
    # a list or dict of models (an ensemble): `models.append(model)` keeps it, runs nothing
    "append", "extend", "insert", "pop", "remove", "clear", "index", "count", "copy", "keys", "values", "items",
    "get", "update", "setdefault"}

# model.load_param_from_tensor(t), net.set_weights(w), model.update_buffers(x): methods that write a model's state;
# model.export(path=...), net.to_onnx(f): methods that write it out; gan.discriminator.add_layer(size),
# net.freeze(n): methods that change its structure (a progressive GAN grows a layer)
_SETS_STATE = re.compile(r"^_*(load|set|copy|assign|register|reset|init|update|fill|save|export|dump|to_onnx"
                         r"|add|grow|freeze|unfreeze|prune)(_|$)")
# actor.training_step(batch), agent.train_on_batch(x, y): a training step, which runs backward() and step() itself
_TRAINS = re.compile(r"^_*(training_step|train_step|train_on_batch|train_batch|learn(_\w+)?|optimi[sz]e_step"
                     r"|train_(one_|an_)?epoch)$")  # (framework.train_epoch(epoch): a whole epoch of steps)


def trains(method: str) -> bool:
    return bool(_TRAINS.match(method))


def _of_children(container: ast.Call) -> bool:
    """``nn.Sequential(*list(net.children())[:-1])``: a container of a model's own layers."""
    return any(isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute)
               and part.func.attr in ("children", "modules") for arg in container.args for part in ast.walk(arg))


def model_of(ctx, call: ast.Call) -> Optional[ast.AST]:
    """The model a call runs on CUDA: ``model(x)``, ``model.forward(x)`` / ``net.act(state)`` (a method that
    returns CUDA tensors), or an unknown callable named like a model and fed CUDA tensors."""
    func = call.func
    if isinstance(func, ast.Call) and (ctx.qual(func.func) or "").startswith("torch.nn.") \
            and not _of_children(func):
        return None  # nn.Softmax(dim=1)(logits): a layer built on the spot to apply a function, not a model run
        # (nn.Sequential(*list(net.children())[:-1])(x) runs net's own layers: its features)
    callee = ctx.kind(func)
    arguments = 0
    for argument in call.args:
        arguments |= ctx.kind(argument)
    for keyword in call.keywords:  # model(input_ids=ids, attention_mask=mask): the inputs by name
        arguments |= ctx.kind(keyword.value)
    if callee & (MODEL | CUDA_MODEL) and not callee & (CUDA_TENSOR | CPU_TENSOR):
        if callee & CUDA_MODEL or arguments & CUDA_TENSOR or _places_its_parts(ctx, callee):
            return func
        return func if _unknown_eval_model(ctx, func, callee, arguments) else None
    if isinstance(func, ast.Attribute) and func.attr not in _NOT_A_FORWARD and not _SETS_STATE.match(func.attr) \
            and not trains(func.attr) and not _library_generate(ctx, func) and not _an_environment(func.value, func.attr) \
            and not handed_a_loader(call) \
            and (call.args or call.keywords):  # (model.required_data(): an accessor, handed no input; framework.test(
        # data, loader): a whole pass the object runs itself, its forwards unseen here)
        receiver = ctx.kind(func.value)
        if receiver & (MODEL | CUDA_MODEL) and not receiver & (CUDA_TENSOR | CPU_TENSOR) \
                and ctx.kind(call) & CUDA_TENSOR and not any(is_step_function(f.node) for f in ctx.callees(call)) \
                and not (arguments & (CUDA_TENSOR | CPU_TENSOR) == 0 and (
                    any(_record_literal(a) for a in call.args) or _text_only(ctx, call)
                    or api.RAW_INPUT_METHOD.search(func.attr))):
            # model.checkpoint({...}, f"epoch{n}"): a method handed a dict or a path, no tensor, is not a forward;
            # model.translate(sentences) / model.encode(["a", "b"]): a library's text API, which tokenizes and
            # runs its own forward under no_grad (fairseq's translate, sentence-transformers' encode); the file's
            # own net.training_step(batch), which runs backward() and step() itself, is a training step
            return func.value
    if callee & CUDA_TENSOR and not callee & (MODEL | CUDA_MODEL) and _named_like_a_model(ctx, func):
        return func  # model = torch.load(path).cuda(); model(x): a whole model unpickled, read as data by the pass
    if not callee and not arguments & CPU_TENSOR and _handed_model(ctx, func):
        return func  # def time_inference(model, inputs): model(inputs) -- in a file that profiles CUDA work
    if not callee and ctx.uses_cuda and (dotted(func) or "") in refreshed_targets(ctx.index):
        return func  # self.target_net(next_states) of a target handed in, refreshed by load_state_dict(policy's) or
        # a soft update
    if not callee and ctx.kind(call) & CUDA_TENSOR and arguments & CUDA_TENSOR \
            and isinstance(func, (ast.Name, ast.Attribute)) and _named_like_a_model(ctx, func) \
            and not ctx.callees(call) and ctx.qual(func) is None \
            and not (isinstance(func, ast.Attribute) and trains(func.attr)):  # (agent.learn_critic(...): an update)
        return func
    return None


_ENVIRONMENT = re.compile(r"(^|_)envs?($|_)|environment|action_spec|observation_spec", re.IGNORECASE)


def _an_environment(receiver: ast.AST, method: str = "") -> bool:
    """``env.step(action)``, ``env.action_spec.sample()`` of an environment moved with ``env.to(device)``: a
    simulator stepping on the GPU, not a network's forward; so is ``ns2d.step(vort_hat, dt)`` of a PDE solver or
    ``scheduler.step(residual, t, x)`` of a diffusion scheduler moved there (``model.step(feat)``, a decoder's step
    of a receiver named like a model, is a forward)."""
    if method == "step" and not api.MODEL_NAME_HINT.search(last_identifier(receiver)):
        return True
    return any(_ENVIRONMENT.search(part) for part in (dotted(receiver) or last_identifier(receiver)).split("."))


def _library_generate(ctx, func: ast.Attribute) -> bool:
    """``model.generate(inputs, max_length=100)`` of a model class the file does not write: Hugging Face's generate
    runs under torch.no_grad() itself, and so do the decoding loops built like it (EAGLE's ``eagenerate``)."""
    return func.attr.endswith("generate") and not any(f.name == func.attr for f in ctx.index.functions)


def _named_like_a_model(ctx, func: ast.AST) -> bool:
    """``model(x)``, ``self.net(x)``, ``generators[i](x)`` (one of a list of models), or an alias bound only to such
    names (``f = model; f(x)``)."""
    if isinstance(func, ast.Subscript):
        func = func.value
    if api.MODEL_NAME_HINT.search(last_identifier(func)):
        return True
    return isinstance(func, ast.Name) and any(
        api.MODEL_NAME_HINT.search(name) for name in alias_names(ctx.index.assigned_values, func.id))


def _handed_model(ctx, func: ast.AST) -> bool:
    """A parameter named ``model`` / ``net`` called in a file whose work is on CUDA: the model its caller hands in,
    on the GPU like the rest of the file's work."""
    if not isinstance(func, ast.Name) or not _HANDED_MODEL.match(func.id) or not ctx.shows_cuda:
        return False
    info = ctx.function_of(func)
    return info is not None and func.id in info.positional + info.keyword_only


_HANDED_MODEL = re.compile(r"^(model|net|network)$")


def _places_its_parts(ctx, callee: int) -> bool:
    """``model = SummModel(t5)`` whose ``__init__`` keeps ``self.transformer_model = t5.to(args.device)``: the
    file's own model class puts its parts on CUDA itself, whatever device the inputs handed to it are on (its
    forward moves them)."""
    return any(cls.is_model and any(kind & CUDA_MODEL for kind in cls.attrs.values())
               for cls in ctx.classes_of(callee))


def _unknown_eval_model(ctx, func: ast.AST, callee: int, arguments: int) -> bool:
    """``def evaluate(model, x): model.eval(); return model(x)`` in a file that puts its work on CUDA: a model
    handed in, switched to eval mode, fed inputs of unknown device. Where it runs is unknown; the file's other
    functions move their models to the GPU, so this one is read the same way (never when the inputs are
    known to be on the CPU)."""
    if not callee & EVAL or arguments & CPU_TENSOR or not ctx.uses_cuda or not isinstance(func, ast.Name):
        return False
    info = ctx.function_of(func)
    return info is not None and func.id in info.positional + info.keyword_only


def _text_only(ctx, call: ast.Call) -> bool:
    """Every positional argument is text: a string, a list of strings (``["a b", "c"] * 8``), or a name the
    file binds only to such values."""
    return bool(call.args) and all(is_text_data(argument, ctx.index.assigned_values) for argument in call.args)


def _record_literal(node: ast.AST) -> bool:
    return isinstance(node, (ast.Dict, ast.JoinedStr)) or (isinstance(node, ast.Constant) and isinstance(node.value, str))
