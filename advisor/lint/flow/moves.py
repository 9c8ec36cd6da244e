"""Moves of the CUDA data-flow pass: where ``.to()``, ``.cuda()`` and ``.cpu()`` put a tensor or a module."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.flow.device_sources import from_command_line
from advisor.lint.flow.kinds import (
    CPU_DEVICE,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_MODEL,
    CUDA_TENSOR,
    DEVICE_BITS,
    DTYPE,
    DTYPE_F64,
    EVAL,
    F64,
    FRESH,
    MODEL,
    MODEL_BITS,
)
from advisor.lint.flow.literals import is_device_number, looks_like_model, made_by_predictor_library
from advisor.lint.index import parameter_defaults
from advisor.lint.names import dotted, last_identifier
from advisor.lint.torch_api import DEVICE_HOLDER, FREE_MODEL_NAME

Kw = dict[Optional[str], int]
_PYTHON_TYPES = frozenset({"bool", "int", "float", "complex"})


def is_module(kind: int) -> bool:
    return bool(kind & (MODEL | CUDA_MODEL)) and not kind & (CUDA_TENSOR | CPU_TENSOR)


def moved(evaluator, receiver: int, attr: str, node: ast.Call, pos: list[int], kw: Kw) -> int:
    """What ``x.to(...)`` / ``.cuda()`` / ``.cpu()`` gives: a tensor copied to the device named (or kept where it
    was when none is), a module moved in place; ``.to(torch.float64)`` also sets the dtype."""
    receiver_node = node.func.value if isinstance(node.func, ast.Attribute) else node.func
    if not receiver and made_by_predictor_library(receiver_node, evaluator.names.qual, evaluator.index.assigned_values):
        return 0
    module = is_module(receiver) or (receiver & ~(EVAL | F64) == 0 and looks_like_model(receiver_node))
    target, device_given, dtype_f64 = 0, False, None
    if attr == "cuda":
        target, device_given = CUDA_DEVICE, True
    elif attr == "cpu":
        target, device_given = CPU_DEVICE, True
    else:
        arguments = list(zip(node.args, pos, strict=False)) + [(k.value, kw.get(k.arg, 0)) for k in node.keywords
                                                  if k.arg in ("device", "dtype", "other")]
        dtypes = {id(k.value) for k in node.keywords if k.arg == "dtype"}  # .to(dtype=float32): a dtype by its place
        for arg_node, kind in arguments:
            if id(arg_node) in dtypes and not kind & DTYPE:
                dtype_f64 = (dotted(arg_node) or "").endswith(("float64", "double", "complex128", "cdouble"))
            elif is_device_number(arg_node, evaluator.index.assigned_values):  # .to(0), .to(device) with device = 0
                target, device_given = target | CUDA_DEVICE, True
            elif kind & DTYPE:
                dtype_f64 = bool(kind & DTYPE_F64)
            elif isinstance(arg_node, ast.Name) and arg_node.id in _PYTHON_TYPES and not kind:
                dtype_f64 = arg_node.id in ("float", "complex")  # .to(bool) / .to(float): a dtype (Python's float is float64)
            elif kind & DEVICE_BITS:
                target, device_given = target | (kind & DEVICE_BITS), True
            elif kind & (CUDA_TENSOR | CPU_TENSOR):
                device_given = True
                target |= (CUDA_DEVICE if kind & CUDA_TENSOR else 0) | (CPU_DEVICE if kind & CPU_TENSOR else 0)
            elif from_command_line(arg_node, evaluator.names.qual):  # .to(sys.argv[1]): the run's choice, can be CUDA
                target, device_given = target | CUDA_DEVICE, True
            else:
                device_given = True  # a device we know nothing about: where it lands is unknown
    if module:
        out = receiver & (F64 | EVAL)
        if target & CUDA_DEVICE:
            out |= CUDA_MODEL
        if target & CPU_DEVICE:
            out |= MODEL
        if not device_given:
            out |= receiver & (MODEL | CUDA_MODEL)
        if not out & (MODEL | CUDA_MODEL):
            out |= MODEL  # moved to a device we cannot name
    else:
        out = receiver & F64
        if target & CUDA_DEVICE:
            out |= CUDA_TENSOR
            note_data_move(evaluator, node, receiver_node)
        if target & CPU_DEVICE:
            out |= CPU_TENSOR
        if not device_given:
            out |= receiver & (CUDA_TENSOR | CPU_TENSOR | FRESH)
    if dtype_f64 is True:
        out |= F64
    elif dtype_f64 is False:
        out &= ~F64
    return out


def moved_in_place(value: ast.AST, kind: int, lookup) -> Optional[str]:
    """``model_cpu = model_conv.cpu()``: a module moves in place, so the name it was called on (returned) now holds
    what the move gave as well; a tensor's ``.cpu()`` makes a copy and leaves it alone (None)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in ("to", "cuda",
                                                                                                         "cpu")):
        return None
    key = dotted(value.func.value)
    if key is None or not kind & MODEL_BITS or kind & (CUDA_TENSOR | CPU_TENSOR) or not (lookup(key) or 0) & MODEL_BITS:
        return None
    return key


def note_data_move(evaluator, node: ast.Call, receiver_node: ast.AST) -> None:
    """Mark the function being analysed as one that copies data to a device that can be CUDA -- a model it is handed
    sits there too (call_results.initial_parameter_kind). Not when the device is a parameter with a default of its
    own (``def run(..., device="cpu")``: a switch nothing here is seen to set), nor when what moves may be a model
    the pass has not recognised yet (``deepcopy(self.model).to(device)``)."""
    current = evaluator.environment.current
    if current is None or current.moves_data_to_cuda or any(
            isinstance(part, (ast.Name, ast.Attribute)) and FREE_MODEL_NAME.match(last_identifier(part))
            for part in ast.walk(receiver_node)):
        return
    device = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "device"), None)
    if isinstance(device, ast.Name) and isinstance(parameter_defaults(current.node.args).get(device.id), ast.Constant):
        return
    if isinstance(device, ast.Attribute) and device.attr == "device" and isinstance(device.value, ast.Name) \
            and not DEVICE_HOLDER.search(device.value.id):
        return  # x.to(y.device): where other data already is, which says nothing of a GPU (args.device does)
    current.moves_data_to_cuda = True
