"""Element counts the code writes out: a shape given as arguments (``torch.zeros(2, 3)``), literal data
(``torch.tensor([[1.0, 2.0]])``), and numpy factories as ``torch.tensor(np.zeros(n))`` sees them. sizes.py
follows names and operations; this module reads what is written."""

from __future__ import annotations

import ast
from typing import Optional, Protocol


class Sizes(Protocol):
    """What these read of sizes.py: constant ints, and the elements of what a name holds."""

    def int_value(self, node: ast.AST) -> Optional[int]: ...

    def numel(self, node: ast.AST, depth: int = 0) -> Optional[int]: ...


# numpy factories whose shape the code spells out, as torch.tensor(np.zeros(n)) sees them.
_NUMPY_SHAPE_FACTORIES = frozenset({"numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full", "numpy.random.random",
                                    "numpy.random.random_sample", "numpy.random.sample", "numpy.random.uniform",
                                    "numpy.random.normal"})
_NUMPY_DIMS_FACTORIES = frozenset({"numpy.random.rand", "numpy.random.randn"})


def numpy_numel(qualified: str, call: ast.Call, sizes: Sizes) -> Optional[int]:
    """np.zeros(n), np.random.random((7, n)), np.random.rand(7, n), np.arange(n): what torch.tensor gets."""
    if qualified in _NUMPY_SHAPE_FACTORIES:
        size = next((k.value for k in call.keywords if k.arg in ("shape", "size")), None)
        if size is None and qualified.startswith("numpy.random.") and qualified.endswith(("uniform", "normal")):
            return None  # their positional arguments are bounds, not a shape
        shape = size if size is not None else (call.args[0] if call.args else None)
        return 1 if shape is None else shape_numel([shape], sizes)
    if qualified in _NUMPY_DIMS_FACTORIES:
        return shape_numel(list(call.args), sizes)
    if qualified == "numpy.arange" and len(call.args) == 1:
        return sizes.int_value(call.args[0])
    if qualified in ("numpy.array", "numpy.asarray") and call.args:
        data = call.args[0]  # np.array(x_values) of x_values = [i for i in range(11)]: follow the name
        return literal_numel(data) if not isinstance(data, (ast.Name, ast.ListComp)) else sizes.numel(data)
    return None


def comprehension_numel(node: ast.ListComp, sizes: Sizes) -> Optional[int]:
    """``[2 * i + 1 for i in range(11)]`` or ``[i ** 3 for i in x_values]``: one number per item of what it walks
    (at most that thing's elements), when each item is plain arithmetic on numbers."""
    if len(node.generators) != 1 or node.generators[0].ifs or node.generators[0].is_async:
        return None
    if not all(isinstance(n, (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.Load))
               for n in ast.walk(node.elt)):
        return None
    walked = node.generators[0].iter
    if isinstance(walked, ast.Call) and isinstance(walked.func, ast.Name) and walked.func.id == "range" \
            and 1 <= len(walked.args) <= 2:
        bounds = [sizes.int_value(argument) for argument in walked.args]
        if None in bounds:
            return None
        return bounds[0] if len(bounds) == 1 else max(0, bounds[1] - bounds[0])  # type: ignore[operator]
    return sizes.numel(walked) if isinstance(walked, ast.Name) else None


def shape_numel(shape: list[ast.AST], sizes: Sizes) -> Optional[int]:
    """``(2, 3)`` or ``2, 3``: 6; a dimension the code does not spell out: None."""
    if len(shape) == 1 and isinstance(shape[0], (ast.Tuple, ast.List)):
        shape = shape[0].elts
    if not shape:
        return 1
    total = 1
    for dimension in shape:
        value = sizes.int_value(dimension)
        if value is None or value < 0:
            return None
        total *= value
    return total


def literal_numel(node: ast.AST, nested: bool = False) -> Optional[int]:
    """Elements of ``torch.tensor([...])``'s data: numbers count one; so do names and expressions inside a
    list (``[reward, 1.0 - done]``: scalars, in practice)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool)):
        return 1
    if isinstance(node, (ast.List, ast.Tuple)):
        counts = [literal_numel(element, nested=True) for element in node.elts]
        return None if None in counts else sum(counts)  # type: ignore[arg-type]
    if nested and isinstance(node, (ast.Name, ast.Attribute, ast.BinOp, ast.UnaryOp)):
        return 1
    return None
