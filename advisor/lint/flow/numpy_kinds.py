"""The numpy half of the call layer: what numpy's functions return, as kinds (float64 defaults, RNGs)."""

from __future__ import annotations

import ast
import re
from typing import Iterable

from advisor.lint import torch_api as api
from advisor.lint.flow.kinds import CPU_TENSOR, CUDA_TENSOR, DTYPE_F64, F64, NP_RNG, NUMPY
from advisor.lint.flow.literals import dtype_kind, has_float_literal
from advisor.lint.names import dotted

# where numpy's array makers take their dtype when it is passed by position (np.array(x, np.float64),
# np.full(shape, 1, np.float64), np.fromiter(values, np.float64))
_POSITIONAL_DTYPE = {"numpy.zeros": 1, "numpy.ones": 1, "numpy.empty": 1, "numpy.array": 1, "numpy.asarray": 1,
                     "numpy.fromiter": 1, "numpy.frombuffer": 1, "numpy.full": 2, "numpy.arange": 3}


_SCALAR_TYPES = frozenset(f"numpy.{name}" for name in (
    "float16", "float32", "float64", "double", "single", "half", "int8", "int16", "int32", "int64", "uint8"))


def _union(kinds: Iterable[int]) -> int:
    out = 0
    for kind in kinds:
        out |= kind
    return out


def numpy_result(name: str, node: ast.Call, pos: list[int], kw: dict) -> int:
    """What a numpy function returns: an array (float64 by numpy's defaults, or by dtype=), an RNG, or -- for
    the functions that dispatch to the method of the object handed in -- that tensor."""
    if name in api.NUMPY_RNG_CONSTRUCTORS:
        return NP_RNG
    if name in _SCALAR_TYPES:  # np.float32(x): that type, whatever x was (np.float64(x) is float64)
        return NUMPY | (F64 if name in ("numpy.float64", "numpy.double") else 0)
    if name in api.NUMPY_F64_FACTORIES:
        return NUMPY | F64
    dtype_node = next((k.value for k in node.keywords if k.arg == "dtype"), None)
    dtype = dtype_kind(dtype_node, kw.get("dtype", 0)) if dtype_node is not None else None
    at = _POSITIONAL_DTYPE.get(name)
    if dtype is None and at is not None and len(node.args) > at:
        dtype = dtype_kind(node.args[at], pos[at])
    if name in api.NUMPY_DEFAULT_F64 or name == "numpy.frombuffer":  # frombuffer's dtype defaults to float64 too
        return NUMPY | (F64 if dtype is None or dtype & DTYPE_F64 else 0)
    if name == "numpy.fromiter":
        return NUMPY | (F64 if dtype is not None and dtype & DTYPE_F64 else 0)
    if name in ("numpy.array", "numpy.asarray", "numpy.arange", "numpy.full"):
        if dtype is not None:
            return NUMPY | (F64 if dtype & DTYPE_F64 else 0)
        floats = any(has_float_literal(arg) for arg in node.args) or _union(pos) & F64
        return NUMPY | (F64 if floats else 0)
    if name in _SCALAR_MATH and node.args and not pos[0] and _a_setting(node.args[0]):
        return NUMPY | F64  # np.log(args.init_temperature): a NumPy float64 scalar (torch.tensor of it is float64)
    if name in api.NUMPY_METHOD_DISPATCH and pos and pos[0] & (CUDA_TENSOR | CPU_TENSOR):
        return pos[0] & (CUDA_TENSOR | CPU_TENSOR | F64)  # np.squeeze(t) calls t.squeeze(): still a tensor
    every = _union(pos) | _union(kw.values())
    return NUMPY | (every & F64) if every & NUMPY else 0


_SCALAR_MATH = frozenset(f"numpy.{f}" for f in ("log", "log2", "log10", "log1p", "exp", "expm1", "sqrt", "sin", "cos",
                                                "tan", "tanh", "arctan", "power", "float_power"))
_SETTING_HOLDER = re.compile(r"^(args|arguments|config|cfg|conf|opt|opts|options|hparams|hp|params|settings)$")


def _a_setting(node: ast.AST) -> bool:
    """A Python number the program spells out or reads from its settings (``0.1``, ``args.init_temperature``,
    ``self.cfg.alpha``), not an array."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _a_setting(node.operand)
    parts = (dotted(node) or "").split(".")
    return len(parts) > 1 and any(_SETTING_HOLDER.match(part) for part in parts[:-1])
