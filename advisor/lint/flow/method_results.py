"""Method half of the CUDA data-flow pass: what a method call on a value the pass holds returns -- a tensor's method
(tensor_methods.py), a model's (a forward, .eval(), .parameters()), a cast, an optimizer's, a NumPy array's -- and
what calling a held value (a model, a lambda) returns. CallEvaluator (calls.py) builds on it."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.exprs import ExprEvaluator
from advisor.lint.flow.kinds import (
    CONTAINER,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_FN,
    CUDA_MODEL,
    CUDA_TENSOR,
    CUDA_WORKER,
    DEVICE_BITS,
    DTYPE_F64,
    EVAL,
    F64,
    FRESH,
    MODEL,
    MODEL_BITS,
    NP_RNG,
    NUMPY,
    TENSOR_BITS,
)
from advisor.lint.flow.literals import dtype_kind, is_device_key, looks_like_model, type_cast
from advisor.lint.flow.metrics import fed_cuda, loss_object
from advisor.lint.flow.moves import is_module, moved
from advisor.lint.flow.tensor_envs import STEPPING_METHODS, tensor_environments
from advisor.lint.flow.tensor_methods import tensor_method_result
from advisor.lint.names import dotted

Kw = dict[Optional[str], int]
_MODEL_DTYPE_METHODS = frozenset({"double", "float", "half", "bfloat16"})
_SAME_DATA_METHODS = api.VIEW_METHODS | {"reshape", "contiguous", "clone", "flatten", "repeat", "permute", "squeeze_",
                                         "unsqueeze_"}


def every_kind(pos: list[int], kw: Kw) -> int:
    """The union of the kinds of a call's arguments."""
    out = 0
    for kind in list(pos) + list(kw.values()):
        out |= kind
    return out


def _is_false(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _distribution_of_numbers(qual, node: ast.AST) -> bool:
    """``torch.distributions.Normal(0, 1)`` (loc and scale Python numbers): its samples are made on the CPU."""
    if not (isinstance(node, ast.Call) and (qual(node.func) or "").startswith("torch.distributions.")):
        return False
    values = list(node.args) + [k.value for k in node.keywords]
    return bool(values) and all(isinstance(v, ast.Constant) and isinstance(v.value, (int, float))
                                or isinstance(v, ast.UnaryOp) and isinstance(v.operand, ast.Constant) for v in values)


class MethodResults(ExprEvaluator):
    def method_result(self, receiver: int, attr: str, node: ast.Call, pos: list[int], kw: Kw) -> int:
        receiver_node = node.func.value if isinstance(node.func, ast.Attribute) else node.func
        if attr in ("to", "cuda", "cpu"):
            return moved(self, receiver, attr, node, pos, kw)
        if attr in ("sample", "rsample") and _distribution_of_numbers(self.names.qual, receiver_node):
            return CPU_TENSOR | FRESH  # td.Normal(loc=0, scale=1).sample(shape): drawn on the CPU, as torch.randn(shape)
        if attr in ("item", "tolist", "format"):  # a number, list or text ('cuda:{}'.format(i): a device)
            return receiver & DEVICE_BITS if attr == "format" else 0
        if attr in api.HOST_TABLE_METHODS:
            return 0  # results.pandas() of a detector: host tables, read back by the library
        if attr in ("aggregate", "compute") and not receiver and fed_cuda(self.index, self.values, receiver_node):
            return CUDA_TENSOR  # dice_metric(y_pred=out, y=y) ... dice_metric.aggregate(): where its inputs were
        if not receiver and every_kind(pos, kw) & CUDA_TENSOR and loss_object(self.index, receiver_node):
            return CUDA_TENSOR  # loss_function.calc(q_vectors, ctx_vectors, ...) of a BiEncoderNllLoss(): on their device
        if attr == "type" and node.args and receiver & (CUDA_TENSOR | CPU_TENSOR):
            cast = type_cast(node.args[0], receiver, self.names.qual, self.index.assigned_values)
            if cast:
                return cast
        if attr == "type_as" and pos and receiver & (CUDA_TENSOR | CPU_TENSOR) and not receiver & CONTAINER \
                and pos[0] & (CUDA_TENSOR | CPU_TENSOR) and not pos[0] & CONTAINER:
            return pos[0] & (CUDA_TENSOR | CPU_TENSOR | F64)  # eq.type_as(torch.FloatTensor()): the other's type --
            # its device too (a CUDA tensor made like a CPU one is copied back)
        if receiver == 0 and attr in _MODEL_DTYPE_METHODS and looks_like_model(receiver_node):
            # GenLSTM(stride=500).double(), netG.half(): a class the file imports, made or named like a model;
            # converting it must not lose that it is one (.cuda() next moves a model, not a tensor)
            receiver = MODEL
        if attr in ("eval", "train") and receiver & (CUDA_TENSOR | CPU_TENSOR) and looks_like_model(receiver_node):
            # model, opt, epoch = load_checkpoint(device, path) read as data: .eval() says it is a module (CUDA if so)
            receiver = (receiver & ~(CUDA_TENSOR | CPU_TENSOR)) | MODEL | (CUDA_MODEL if receiver & CUDA_TENSOR else 0)
        module = is_module(receiver) or (receiver == 0 and attr in ("eval", "train")
                                          and looks_like_model(receiver_node))
        if attr == "type" and module and node.args:  # net.type(torch.double): nn.Module.type casts every parameter
            cast = type_cast(node.args[0], CPU_TENSOR, self.names.qual, self.index.assigned_values)
            out = receiver | (CUDA_MODEL if cast & CUDA_TENSOR else 0)  # (.type(torch.cuda.FloatTensor) moves it)
            return (out | F64) if cast & F64 else out & ~F64 if cast else out
        if attr in ("double", "cdouble"):  # (on a value we know nothing of -- a loader's batch -- float64 all the same)
            return receiver | F64 if receiver & (TENSOR_BITS | NUMPY | MODEL_BITS) or not receiver else 0
        if attr in ("float", "half", "bfloat16", "long", "int", "short", "byte", "bool", "char", "cfloat"):  # (no float64)
            return receiver & ~F64
        if module:
            if attr == "eval" or (attr == "train" and node.args and _is_false(node.args[0])):
                return receiver | MODEL | EVAL
            if attr == "train":
                return (receiver | MODEL) & ~EVAL
            if attr in ("parameters", "buffers", "named_parameters", "named_buffers"):
                return (CUDA_TENSOR if receiver & CUDA_MODEL else 0) | (receiver & F64)
            if attr in api.MODEL_SELF_METHODS:
                return receiver
            if attr in ("children", "named_children"):  # nn.Sequential(*list(net.children())[:-1]): net's own layers
                return receiver & (MODEL | CUDA_MODEL | F64)
            if attr in api.MODEL_QUIET_METHODS or (api.MODEL_SETUP_METHOD.match(attr)
                                                   and not every_kind(pos, kw) & CUDA_TENSOR):
                # model.configure_optimizers(wd, lr, ...): set-up, no tensor comes back (an optimizer does)
                return CUDA_WORKER if receiver & CUDA_MODEL and attr.startswith("configure_optim") else 0
            if attr in api.MODEL_HOST_RESULT_METHODS:
                return 0
            return self.call_value(receiver & ~EVAL, pos, kw)  # forward, generate, predict, ...
        if receiver & CUDA_WORKER:
            return every_kind(pos, kw) & CUDA_TENSOR  # scaler.scale(loss)
        if receiver & NP_RNG:
            return NUMPY | (F64 if attr in api.RNG_F64_METHODS else 0)
        if attr == "astype":  # only NumPy arrays have .astype(): what the pass took for a tensor is an array
            receiver = (receiver & ~(CUDA_TENSOR | CPU_TENSOR | CONTAINER)) | NUMPY
        if attr == "get_device" and not node.args and (receiver & CUDA_TENSOR or not receiver & CPU_TENSOR):
            return CUDA_DEVICE  # w.to(mse.get_device()): a GPU's index (a CPU tensor's -1 addresses no device)
        if receiver & (CUDA_TENSOR | CPU_TENSOR):
            return tensor_method_result(receiver, attr, node, every_kind(pos, kw))
        if receiver == F64 and attr in _SAME_DATA_METHODS:
            return F64  # x = batch.double(); x = x.unsqueeze(0): still the float64 data, wherever it lives
        if not receiver and attr in api.F64_ARRAY_METHODS:
            return NUMPY | F64  # nib.load(path).get_fdata(): nibabel's image data, float64 unless asked otherwise
        if receiver & NUMPY or (not receiver and attr == "astype"):  # only NumPy arrays have .astype()
            if attr == "astype":
                target = dtype_kind(node.args[0], pos[0]) if node.args else kw.get("dtype", 0)
                return NUMPY | (F64 if target & DTYPE_F64 else 0)
            return 0 if attr in ("tolist", "item") else receiver & (NUMPY | F64)
        if not receiver and attr in STEPPING_METHODS and dotted(receiver_node) in tensor_environments(self.index):
            return CUDA_TENSOR  # obs, rewards, terminated, ... = env.step(action) of a simulator on env.device
        if not receiver and attr == "get" and node.args and is_device_key(node.args[0]):
            return CUDA_DEVICE | (pos[1] if len(pos) > 1 else 0)  # config.get("device", "cpu"): may be CUDA
        if not receiver and every_kind(pos, kw) & CUDA_TENSOR and not api.TEXT_DECODING.search(attr) \
                and (api.COMPUTES_ON_ITS_INPUTS.search(attr) or api.COMPUTE_METHOD_HINT.match(attr)):
            # `self.dmodel(x)`, `self._extract_features(imgs)` of a class the file does not show: CUDA in, CUDA out
            return CUDA_TENSOR
        return 0

    def call_value(self, callee: int, pos: list[int], kw: Kw) -> int:
        """Calling a value: a model (forward) or anything else we hold."""
        arguments = every_kind(pos, kw)
        out = 0
        if callee & CUDA_MODEL or (callee & (MODEL | CUDA_FN) and arguments & CUDA_TENSOR) \
                or (callee & CUDA_TENSOR and not callee & CPU_TENSOR):  # (a lambda loss; torch.load(p).cuda())
            out = CUDA_TENSOR
        elif callee & MODEL and arguments & CPU_TENSOR:
            out = CPU_TENSOR
        if out:
            out |= callee & F64
        return out
