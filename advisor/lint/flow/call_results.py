"""What a call's result holds when its kind alone does not say: each element of a tuple a user's function returns
(``x, y, idx = train_feed(...)`` with ``return var_x, var_y, end``: without it every name of the unpacking got every
element's kind, idx a CUDA tensor because x is), what Hugging Face Accelerate's ``accelerator.prepare(model, optimizer,
loader)`` hands back (each object placed on the accelerator), and a tensor handed to an unknown call and bound back."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.flow.kinds import (
    CPU_DEVICE,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_MODEL,
    CUDA_TENSOR,
    DEVICE_BITS,
    F64,
    INSTANCE_BITS,
    LOADER,
    MODEL,
    MODEL_BITS,
    NUMPY,
)
from advisor.lint.flow.literals import is_cpu_device, name_hint
from advisor.lint.flow.scopes import FunctionInfo, call_sites, passed_at
from advisor.lint.index import parameter_defaults
from advisor.lint.names import dotted, last_identifier
from advisor.lint.torch_api import DEVICE_NAME_HINT, FREE_MODEL_NAME, MODEL_NAME_HINT


def returned_shape(analyzer, target: ast.AST, value: ast.AST) -> Optional[tuple[int, ...]]:
    """The per-element kinds for unpacking ``value`` (a call of the user's function, or a name bound once to one) into
    ``target``, when every return of that function is a tuple of as many elements; None otherwise."""
    if isinstance(value, ast.Name):  # result = step(...); if result is None: ...; loss, acc = result
        held = [v for v in analyzer.index.assigned_values.get(value.id, ())
                if analyzer.index.scope_of(v) is analyzer.index.scope_of(value)]
        value = held[0] if len(held) == 1 else value
    if not (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, ast.Call)):
        return None
    if _accelerator_prepare(analyzer, value):
        return _prepared_shape(analyzer, target.elts, value.args)
    split = _functional_split(analyzer, value, len(target.elts))
    if split is not None:
        return split
    info = _function_called(analyzer, value.func)
    if info is None:
        return _handed_back(analyzer, target.elts, value)
    size = len(target.elts)
    returns = [node.value for node in ast.walk(info.node) if isinstance(node, ast.Return)
               and analyzer.index.scope_of(node) is info.node and not _returns_none(node)]
    if not returns or not all(isinstance(v, ast.Tuple) and len(v.elts) == size
                              and not any(isinstance(e, ast.Starred) for e in v.elts) for v in returns):
        return None
    shape = [0] * size
    for value_tuple in returns:
        for position, element in enumerate(value_tuple.elts):  # type: ignore[union-attr]
            shape[position] |= analyzer.values.get(element, 0)
    return tuple(shape)


def _function_called(analyzer, func: ast.AST) -> Optional[FunctionInfo]:
    """The user's function a call runs: ``train_feed(...)``, ``self.step(...)`` from a method of its class,
    ``env.step(action)`` of an instance of one of the file's classes (``next_state, reward, done = env.step(a)``: the
    state may be a CUDA tensor, the flag is not)."""
    if isinstance(func, ast.Name):
        info = analyzer.scopes.resolve(func.id, analyzer.scope)
        return info if isinstance(info, FunctionInfo) else None
    if not isinstance(func, ast.Attribute):
        return None
    if isinstance(func.value, ast.Name) and func.value.id == "self":
        method = analyzer.scopes.method_of(analyzer.scope, func.attr)
        if method is not None:
            return method
    receiver = analyzer.values.get(func.value, 0)
    if not receiver & INSTANCE_BITS:
        return None
    methods = {c.methods[func.attr] for c in analyzer.scopes.classes_of(receiver) if func.attr in c.methods}
    return methods.pop() if len(methods) == 1 else None


def _returns_none(node: ast.Return) -> bool:
    """``return`` / ``return None``: an early exit (``if len(memory) < batch: return``), no values to unpack."""
    return node.value is None or isinstance(node.value, ast.Constant) and node.value.value is None


#: functorch's split of a module into a stateless function and its tensors (``fnet, params, buffers =
#: make_functional_with_buffers(net)``): how many parts each hands back.
_FUNCTIONAL_SPLITS = {"make_functional": 2, "make_functional_with_buffers": 3}


def _functional_split(analyzer, call: ast.Call, size: int) -> Optional[tuple[int, ...]]:
    """The parts of ``make_functional(net)``: the function runs the module's forward where the module lives (a MAML
    loop's ``fnet(new_params, buffers, x)`` is a CUDA forward), the parameters and buffers are its tensors."""
    qualified = analyzer.names.qual(call.func) or ""
    parts = _FUNCTIONAL_SPLITS.get(qualified.rsplit(".", 1)[-1])
    if parts != size or not qualified.startswith(("functorch.", "torch.func.")) or len(call.args) != 1:
        return None
    module = analyzer.ev(call.args[0]) & (MODEL | CUDA_MODEL | F64)
    tensors = (CUDA_TENSOR if module & CUDA_MODEL else 0) | (module & F64 if module & CUDA_MODEL else 0)
    return (module | MODEL,) + (tensors,) * (size - 1)


def _handed_back(analyzer, targets: list[ast.AST], call: ast.Call) -> Optional[tuple[int, ...]]:
    """``model, secs, losses = training_loop(model, train_loader, ...)`` of a function the file does not show: the model
    handed in and bound back to its own name is that model (trained, on its device); the other parts are unknown."""
    handed = {a.id: analyzer.values.get(a, 0) for a in list(call.args) + [k.value for k in call.keywords]
              if isinstance(a, ast.Name)}
    shape = tuple(handed.get(t.id, 0) & (MODEL_BITS | CUDA_TENSOR | CPU_TENSOR | F64) if isinstance(t, ast.Name) else 0
                  for t in targets)
    return shape if any(kind & MODEL_BITS for kind in shape) else None


def _accelerator_prepare(analyzer, call: ast.Call) -> bool:
    """``accelerator.prepare(...)`` (or ``self.accelerator.prepare(...)``) with ``accelerator = Accelerator(...)`` of
    the accelerate package."""
    func = call.func
    holder = dotted(func.value) if isinstance(func, ast.Attribute) and func.attr == "prepare" else None
    return holder is not None and _made_by_accelerate(analyzer, holder)


def _prepared_shape(analyzer, targets: list[ast.AST], arguments: list[ast.AST]) -> Optional[tuple[int, ...]]:
    """What each target of ``a, b, *rest = accelerator.prepare(...)`` gets: the arguments pair up with the targets
    from the front up to a starred argument (``*self.create_optimizer(n)``: how many it spreads into is unknown)
    and from the back after it; the targets the star covers get nothing known."""
    if any(isinstance(t, ast.Starred) for t in targets):
        return None
    stars = [i for i, argument in enumerate(arguments) if isinstance(argument, ast.Starred)]
    if len(stars) > 1 or not stars and len(arguments) != len(targets):
        return None
    front = arguments[:stars[0]] if stars else arguments
    back = arguments[stars[0] + 1:] if stars else []
    if len(front) + len(back) > len(targets):
        return None
    shape = [0] * len(targets)
    for position, argument in enumerate(front):
        shape[position] = _prepared(analyzer, argument, targets[position])
    for offset, argument in enumerate(reversed(back), start=1):
        shape[-offset] = _prepared(analyzer, argument, targets[-offset])
    return tuple(shape)


def _unwrapped_model(analyzer, call: ast.Call) -> bool:
    """``accelerator.unwrap_model(model)`` of an accelerator the accelerate package made."""
    func = call.func
    holder = dotted(func.value) if isinstance(func, ast.Attribute) and func.attr == "unwrap_model" else None
    return holder is not None and len(call.args) == 1 and _made_by_accelerate(analyzer, holder)


def _made_by_accelerate(analyzer, name: str) -> bool:
    """``accelerator = Accelerator(...)``; also when the file makes it in a helper and passes it on
    (``accelerator = self._prepare_accelerator()`` returning ``Accelerator(...)``, ``accelerator = self.accelerator``):
    every binding of the name is an Accelerator, the file's own call, or an attribute holding one. ``name`` may be
    dotted (``self.accelerator``)."""
    index = analyzer.index
    made = index.assigned_by_dotted.get(name, []) if "." in name else index.assigned_values.get(name, [])
    def accelerate(value: ast.AST) -> bool:
        return isinstance(value, ast.Call) and (analyzer.names.qual(value.func) or "").startswith("accelerate.")
    def relayed(value: ast.AST) -> bool:  # (or None: a field's default, `accelerator: Optional[Accelerator] = None`)
        return isinstance(value, ast.Attribute) or isinstance(value, ast.Constant) and value.value is None \
            or isinstance(value, ast.Call) \
            and analyzer.names.qual(value.func) is None and isinstance(value.func, (ast.Attribute, ast.Name))
    return any(accelerate(v) for v in made) and all(accelerate(v) or relayed(v) for v in made)


def _prepared(analyzer, argument: ast.AST, target: ast.AST) -> int:
    """A model comes back on the device; a DataLoader comes back yielding batches already there (LOADER with
    CUDA_TENSOR: what its iteration hands out); anything else as it was. Names tell what an argument is when the
    pass does not know (the argument's, else the target's: ``self.val_loader, ... = prepare(self.load(...), ...)``)."""
    kind = analyzer.values.get(argument, 0)
    name = dotted(argument) or dotted(target) or ""
    if kind & LOADER or "loader" in name.lower():
        return LOADER | CUDA_TENSOR
    if kind & MODEL or not kind and MODEL_NAME_HINT.search(name):
        return MODEL | CUDA_MODEL
    return kind


def kept_through_call(analyzer, targets: list[ast.AST], value: ast.AST) -> int:
    """``inputs = fgsm.generate(model, inputs, labels)``, ``x = augment(x)``: a call the pass knows nothing of,
    handed a tensor and bound back to that tensor's name, returns that kind of tensor (an attack, an augmentation,
    a transform hands back its input's like, on its device). ``accelerator.unwrap_model(model)`` hands back the
    model itself, on the device prepare() put it on, whatever name it is bound to."""
    if len(targets) != 1 or not isinstance(targets[0], ast.Name) or not isinstance(value, ast.Call):
        return 0
    if _unwrapped_model(analyzer, value):
        return analyzer.values.get(value.args[0], 0)
    name = targets[0].id
    for argument in list(value.args) + [k.value for k in value.keywords]:
        if isinstance(argument, ast.Name) and argument.id == name:
            return analyzer.values.get(argument, 0) & (CUDA_TENSOR | CPU_TENSOR | F64 | NUMPY)  # X = scaler.transform(X)
    return 0


def defaulted_device(index, info: Optional[FunctionInfo], name: str, kind: int) -> int:
    """``def train(..., device="cpu")`` that no call in the file makes: "cpu" is only the default, and a caller
    elsewhere may hand it a GPU -- the parameter may be either. (Called here with the default, it is the CPU.)"""
    if kind & DEVICE_BITS and name in DEVICE_NAME_HINT and info is not None and not call_sites(index, info):
        return kind | CUDA_DEVICE
    return kind


def initial_parameter_kind(index, info: FunctionInfo, name: str) -> int:
    """What a parameter holds before the pass has seen what the file's calls hand it: nothing known when every call
    passes None; a CPU device when every call passes "cpu" (``device = torch.device("cpu"); make_data(64, device)``
    in a test module that never uses CUDA); else what its name suggests (``device``: a device that may be CUDA)."""
    if _every_call_passes(index, info, name, lambda passed: isinstance(passed, ast.Constant) and passed.value is None):
        return 0  # (def __init__(self, ..., device=None), every call passing None or leaving it: the CPU default)
    hint = name_hint(name, index)
    cpu = hint & DEVICE_BITS and _every_call_passes(index, info, name, lambda passed: is_cpu_device(index, passed, 0))
    if cpu:
        return CPU_DEVICE
    if not hint and FREE_MODEL_NAME.match(name) and not call_sites(index, info) and _moves_data_only(info, name):
        return CUDA_MODEL | MODEL  # def __init__(self, args, model) of a trainer another file builds, whose methods
        # move the batches to a device: the model is handed in from where it was placed, beside that data
    return hint or (MODEL if _annotated_module(info, name) else 0)


def _moves_data_only(info: FunctionInfo, model: str) -> bool:
    """Does the function (a method: any method of its class) copy data to a device that can be CUDA, as the pass has
    seen so far (``x.to(self.args.device)``), but never move the model it is handed (``net.cuda()`` says where the
    model goes, and that it was elsewhere before)?"""
    functions = list(info.class_info.methods.values()) if info.class_info is not None else [info]
    if not any(function.moves_data_to_cuda for function in functions):
        return False
    scope = info.class_info.node if info.class_info is not None else info.node
    return not any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                   and node.func.attr in ("to", "cuda") and isinstance(node.func.value, ast.Name)
                   and node.func.value.id == model for node in ast.walk(scope))


def _annotated_module(info: FunctionInfo, name: str) -> bool:
    """``attn: nn.Module``: the parameter is a module, whatever its name says."""
    arguments = info.node.args
    annotation = next((a.annotation for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs
                       if a.arg == name), None)
    return annotation is not None and last_identifier(annotation) == "Module"


def _every_call_passes(index, info: FunctionInfo, name: str, test) -> bool:
    """Does the file call ``info``, and does every call pass for ``name`` (or leave as its default) a value ``test``
    accepts?"""
    default = parameter_defaults(info.node.args).get(name)
    sites = call_sites(index, info)
    return bool(sites) and all(test(passed_at(site, info, name) or default) for site in sites)
