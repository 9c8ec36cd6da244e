"""What a method of a tensor returns, as kinds: where the result lives and what it is (a number, an array, a list).

A value the pass holds as a tensor is sometimes a model's output dict: ``output.get("trace", [])`` is then whatever
the dict holds, and with a list default it is a list -- ``if it:`` asks the list, not the GPU.
"""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.kinds import CONTAINER, CPU_TENSOR, CUDA_TENSOR, F64, FRESH, NUMPY

_DISPLAYS = (ast.List, ast.Dict, ast.Tuple, ast.ListComp, ast.DictComp)
# eps.expand_as(data): only the argument's shape is taken -- the result stays where the receiver is
_SHAPE_FROM_ARGUMENT = frozenset({"expand_as", "view_as", "reshape_as"})


def tensor_method_result(receiver: int, attr: str, node: ast.Call, arguments: int) -> int:
    """``receiver`` holds a tensor (CUDA or CPU); ``arguments``: the union of the call's argument kinds."""
    if attr in api.NON_TENSOR_METHODS:
        return 0
    if attr in ("zero_", "fill_") and not receiver & CUDA_TENSOR:  # FloatTensor(n).fill_(.9): every value
        return receiver | FRESH  # overwritten with a constant on the CPU -- a fill, whatever it held
    if attr == "numpy":
        return NUMPY | (receiver & F64)
    if attr == "pin_memory":
        return CPU_TENSOR | (receiver & F64)
    out = receiver & (CUDA_TENSOR | CPU_TENSOR | FRESH | (0 if attr == "astype" else F64))  # (a slip for .to(dtype))
    if arguments & CUDA_TENSOR and attr not in _SHAPE_FROM_ARGUMENT:
        out |= CUDA_TENSOR
    if attr == "get" and _default_is_text(node):
        return 0  # targets.get("scene_name", ["unknown"]): an entry of names, whatever else the dict holds
    if attr == "get" and _default_is_a_container(node):
        out |= CONTAINER
    return out


def _default_of(node: ast.Call) -> Optional[ast.AST]:
    return node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "default"), None)


def _default_is_text(node: ast.Call) -> bool:
    """A default of text (``"unknown"``, ``["unknown"]``): the entry holds strings."""
    default = _default_of(node)
    parts = default.elts if isinstance(default, (ast.List, ast.Tuple)) else [default]
    return default is not None and bool(parts) and all(
        isinstance(part, ast.Constant) and isinstance(part.value, str) for part in parts)


def _default_is_a_container(node: ast.Call) -> bool:
    default = _default_of(node)
    return isinstance(default, _DISPLAYS) or isinstance(default, ast.Call) and isinstance(default.func, ast.Name) \
        and default.func.id in ("list", "dict", "tuple")
