"""The shapes of tensors the code spells out, where sizes.py only counts their elements: what makes ``t[i]`` of a
1-D tensor one element (not the whole tensor) and a 32x32 matrix times a 32x1 vector 32 elements (not
32 x 1,024).

Flow-insensitive and conservative, like sizes.py: a name has a shape only if every value ever assigned to it
has the same one; anything else is None (unknown), and the element-count bounds of sizes.py apply.
"""

from __future__ import annotations

import ast
from typing import Optional, Protocol, Union

from advisor.lint import torch_api as api
from advisor.lint.index import FileIndex
from advisor.lint.names import Names


class TensorSizes(Protocol):
    """What shapes ask of sizes.py (which owns this module's instance)."""
    index: FileIndex
    names: Names

    def numel(self, node: ast.AST) -> Optional[int]: ...
    def int_value(self, node: ast.AST) -> Optional[int]: ...
    def is_number(self, node: ast.AST) -> bool: ...
    def values_of(self, name: str, scope: ast.AST) -> list[ast.AST]: ...

Shape = tuple[int, ...]
_MAX_DEPTH = 24
_SHAPE_FACTORIES = frozenset({"zeros", "ones", "empty", "rand", "randn", "full"})
_LIKE_FACTORIES = frozenset({"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like"})
_DATA_FACTORIES = frozenset({"tensor", "as_tensor", "Tensor", "FloatTensor", "LongTensor", "DoubleTensor"})
# Methods that keep their receiver's shape (moves, casts, copies, unary elementwise math); the binary ones
# (add, mul, ...) broadcast with their argument.
_KEEPING_METHODS = frozenset({
    "to", "cuda", "float", "half", "double", "bfloat16", "clone", "detach", "contiguous", "neg", "abs", "exp",
    "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "square", "rsqrt", "reciprocal", "sign", "floor",
    "ceil", "round", "requires_grad_", "bernoulli", "clamp", "clip",
})
_BINARY_METHODS = frozenset({"add", "sub", "mul", "div", "pow", "maximum", "minimum", "add_", "sub_", "mul_",
                             "div_", "pow_"})
_BINARY_FUNCTIONS = frozenset({"add", "sub", "mul", "div", "pow", "maximum", "minimum", "where", "atan2",
                               "bernoulli", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu",
                               "abs", "neg", "square"})
_MATMUL = frozenset({"matmul", "mm", "mv"})
_FULL_REDUCTIONS = frozenset({"sum", "mean", "norm", "max", "min", "prod", "std", "var", "amax", "amin", "median"})
_SAME_ATTRIBUTES = frozenset({"grad", "data"})
_JOINS = frozenset({"cat", "concat", "concatenate", "stack"})
_DIM_REDUCTIONS = _FULL_REDUCTIONS - {"max", "min", "median"}  # (with a dim those return (values, indices))


class _Cycle:
    """A name being sized that refers to itself (``x = x * 0.9``): it keeps the shape its other values give."""


CYCLE = _Cycle()
Result = Union[Shape, None, _Cycle]


class TensorShapes:
    def __init__(self, sizes: TensorSizes) -> None:
        self.sizes = sizes
        self.index = sizes.index
        self.names = sizes.names
        self._by_name: dict[tuple[str, ast.AST], Result] = {}
        self._range_targets: Optional[set[tuple[str, ast.AST]]] = None

    def shape(self, node: ast.AST) -> Optional[Shape]:
        found = self._shape(node, 0)
        return found if isinstance(found, tuple) else None

    # -- one expression ----------------------------------------------------------------------------
    def _shape(self, node: ast.AST, depth: int) -> Result:
        if depth > _MAX_DEPTH:
            return None
        if isinstance(node, ast.Name):
            return self._name(node.id, self.index.scope_of(node), depth)
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.MatMult):
                return _matmul(self._shape(node.left, depth + 1), self._shape(node.right, depth + 1))
            return self._broadcast([node.left, node.right], depth)
        if isinstance(node, ast.UnaryOp):
            return self._shape(node.operand, depth + 1)
        if isinstance(node, ast.Attribute) and node.attr in _SAME_ATTRIBUTES:
            return self._shape(node.value, depth + 1)
        if isinstance(node, ast.Attribute) and node.attr == "T":
            inner = self._shape(node.value, depth + 1)
            return inner[::-1] if isinstance(inner, tuple) else inner
        if isinstance(node, ast.Subscript):
            return self._subscript(node, depth)
        return None

    def _broadcast(self, operands: list[ast.AST], depth: int) -> Result:
        """Elementwise ops broadcast their operands; a Python number adds no dimension of its own."""
        shapes: list[Shape] = []
        cycle = False
        for operand in operands:
            if self.sizes.is_number(operand):
                continue
            found = self._shape(operand, depth + 1)
            if found is None:
                return None
            if found is CYCLE:
                cycle = True
                continue
            shapes.append(found)  # type: ignore[arg-type]
        if not shapes or cycle and all(count(shape) == 1 for shape in shapes):
            return CYCLE if cycle else None  # v / v.norm(): v keeps its shape
        return _broadcast(shapes)

    def _call(self, call: ast.Call, depth: int) -> Result:
        qualified = self.names.qual(call.func) or ""
        if qualified.startswith("torch.") and qualified.count(".") == 1:
            name = qualified[6:]
            if name in _SHAPE_FACTORIES:
                size = next((k.value for k in call.keywords if k.arg == "size"), None)
                return self._spelled([size] if size is not None else (call.args[:1] if name == "full" else call.args))
            if name in ("arange", "linspace", "logspace") and not (name == "arange" and len(call.args) > 2):
                elements = self.sizes.numel(call)  # (arange with a step: sizes.py's count is only a bound)
                return (elements,) if elements is not None else None
            if name in _DATA_FACTORIES and call.args:
                return _literal_shape(call.args[0])
            if name in _LIKE_FACTORIES and call.args:
                return self._shape(call.args[0], depth + 1)
            if name in _MATMUL and len(call.args) == 2:
                return _matmul(self._shape(call.args[0], depth + 1), self._shape(call.args[1], depth + 1))
            if name in _FULL_REDUCTIONS and len(call.args) == 1 and not call.keywords:
                return ()  # torch.norm(v), torch.dot(a, b): one number
            if name == "dot":
                return ()
            if name in _BINARY_FUNCTIONS and call.args:
                return self._broadcast([a for a in call.args if not isinstance(a, ast.Starred)], depth)
            if name in _JOINS and call.args and isinstance(call.args[0], (ast.List, ast.Tuple)):
                return self._join(name, call, depth)
            if name in _DIM_REDUCTIONS and call.args:
                return self._reduced(call.args[0], call.args[1:], call.keywords, depth)
            return None
        if qualified.startswith("torch.nn.functional.") and call.args \
                and qualified.rsplit(".", 1)[-1] in api.FUNCTIONAL_ELEMENTWISE:
            return self._shape(call.args[0], depth + 1)  # F.relu(x): x's shape
        if isinstance(call.func, ast.Attribute) and not qualified:
            attr, receiver = call.func.attr, call.func.value
            if attr in _KEEPING_METHODS:
                return self._shape(receiver, depth + 1)
            if attr in _FULL_REDUCTIONS and not call.args and not call.keywords:
                return ()  # v.sum(), v.norm()
            if attr in _DIM_REDUCTIONS:
                return self._reduced(receiver, call.args, call.keywords, depth)
            if attr in _BINARY_METHODS and len(call.args) == 1:
                return self._broadcast([receiver, call.args[0]], depth)
            if attr in _MATMUL and len(call.args) == 1:
                return _matmul(self._shape(receiver, depth + 1), self._shape(call.args[0], depth + 1))
        return None

    def _join(self, name: str, call: ast.Call, depth: int) -> Result:
        """``torch.cat([a, b, c], dim=1)``: the pieces' shapes added up along ``dim``; ``torch.stack``: a new
        dimension as long as the list. Pieces of different ranks or sizes elsewhere: unknown."""
        pieces = [self._shape(piece, depth + 1) for piece in call.args[0].elts]  # type: ignore[attr-defined]
        if not pieces or not all(isinstance(piece, tuple) for piece in pieces) or len(set(map(len, pieces))) != 1:
            return None
        dim = self._dim(call.args[1:], call.keywords)
        rank = len(pieces[0]) + (1 if name == "stack" else 0)  # type: ignore[arg-type]
        if dim is None or not -rank <= dim < rank:
            return None
        dim %= rank
        if name == "stack":
            return pieces[0][:dim] + (len(pieces),) + pieces[0][dim:] if len(set(pieces)) == 1 else None  # type: ignore[index]
        rest = {piece[:dim] + piece[dim + 1:] for piece in pieces}  # type: ignore[index]
        if len(rest) != 1:
            return None
        return pieces[0][:dim] + (sum(piece[dim] for piece in pieces),) + pieces[0][dim + 1:]  # type: ignore[index]

    def _reduced(self, tensor: ast.AST, args: list, keywords: list, depth: int) -> Result:
        """``x.mean(dim=0)``, ``torch.sum(x, 1, keepdim=True)``: x's shape less (or with 1 at) that dimension."""
        shape = self._shape(tensor, depth + 1)
        dim = self._dim(args, keywords, default=None)
        if not isinstance(shape, tuple) or dim is None or not -len(shape) <= dim < len(shape):
            return None
        dim %= len(shape)
        keep = next((k.value for k in keywords if k.arg == "keepdim"), args[1] if len(args) > 1 else None)
        if keep is not None and not isinstance(keep, ast.Constant):
            return None
        return shape[:dim] + ((1,) if keep is not None and keep.value else ()) + shape[dim + 1:]

    def _dim(self, args: list, keywords: list, default: Optional[int] = 0) -> Optional[int]:
        dim = next((k.value for k in keywords if k.arg in ("dim", "axis")), args[0] if args else None)
        return default if dim is None else self.sizes.int_value(dim)

    def _spelled(self, shape: list[ast.AST]) -> Optional[Shape]:
        if len(shape) == 1 and isinstance(shape[0], (ast.Tuple, ast.List)):
            shape = shape[0].elts
        dimensions = [self.sizes.int_value(d) for d in shape]
        if any(d is None or d < 0 for d in dimensions):
            return None
        return tuple(dimensions)  # type: ignore[arg-type]

    def _subscript(self, node: ast.Subscript, depth: int) -> Result:
        """``t[i]``, ``t[i, j]``, ``t[:, 0]``: integer indices drop a dimension, full slices keep it; anything
        else (a tensor of indices, a mask, a bounded slice, ``None``, ``...``) gives no shape."""
        inner = self._shape(node.value, depth + 1)
        if not isinstance(inner, tuple):
            return inner
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(items) > len(inner):
            return None
        kept: list[int] = []
        for item, dimension in zip(items, inner, strict=False):
            if isinstance(item, ast.Slice):
                if item.lower is not None or item.upper is not None or item.step is not None:
                    return None
                kept.append(dimension)
            elif not self._is_integer(item):
                return None
        return tuple(kept) + inner[len(items):]

    def _is_integer(self, node: ast.AST) -> bool:
        """A Python int index: a constant, a counter of a ``range`` loop, an int the code spells out, and sums
        of those (``i + 1``)."""
        if isinstance(node, ast.Constant):
            return type(node.value) is int
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return self._is_integer(node.operand)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
            return self._is_integer(node.left) and self._is_integer(node.right)
        if isinstance(node, ast.Name):
            scope = self.index.scope_of(node)
            if (node.id, scope) in self._counters():
                return node.id not in self.index.assigned_values or self.sizes.int_value(node) is not None
            return self.sizes.int_value(node) is not None
        return False

    def loop_target(self, name: str, scope: ast.AST) -> Optional[Shape]:
        """``for row in t`` (t of a shape the code spells out): a row of t, the same in every such loop."""
        found: set[Optional[Shape]] = set()
        for loop in self.index.loops:
            if isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name) \
                    and loop.target.id == name and self.index.scope_of(loop) is scope:
                iterated = self.shape(loop.iter)
                found.add(iterated[1:] if iterated else None)
        return found.pop() if len(found) == 1 else None

    def _counters(self) -> set[tuple[str, ast.AST]]:
        """(name, scope) of every ``for i in range(...)`` / ``for i, x in enumerate(...)`` counter."""
        if self._range_targets is None:
            found = set()
            for loop in self.index.loops:
                if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.iter, ast.Call) \
                        or not isinstance(loop.iter.func, ast.Name):
                    continue
                target, called = loop.target, loop.iter.func.id
                if called == "range" and isinstance(target, ast.Name):
                    found.add((target.id, self.index.scope_of(loop)))
                elif called == "enumerate" and isinstance(target, ast.Tuple) and target.elts \
                        and isinstance(target.elts[0], ast.Name):
                    found.add((target.elts[0].id, self.index.scope_of(loop)))
            self._range_targets = found
        return self._range_targets

    # -- names -------------------------------------------------------------------------------------
    def _name(self, name: str, scope: ast.AST, depth: int) -> Result:
        key = (name, scope)
        if key in self._by_name:
            return self._by_name[key]
        self._by_name[key] = CYCLE  # in progress
        shapes: set[Shape] = set()
        result: Result = None
        values = self.sizes.values_of(name, scope)
        if not values:
            self._by_name[key] = self.loop_target(name, scope)
            return self._by_name[key]
        for value in values:
            if isinstance(self.index.parents.get(value), ast.AugAssign):
                continue  # b += x works in place: b keeps its shape
            found = self._shape(value, depth + 1)
            if found is None:
                shapes = set()
                break
            if isinstance(found, tuple):
                shapes.add(found)
        if len(shapes) == 1:
            result = shapes.pop()
        self._by_name[key] = result
        return result


def count(shape: Shape) -> int:
    """The elements of a tensor of this shape."""
    total = 1
    for dimension in shape:
        total *= dimension
    return total


def _broadcast(shapes: list[Shape]) -> Optional[Shape]:
    rank = max(len(s) for s in shapes)
    out = []
    for position in range(rank):
        dimensions = {s[len(s) - rank + position] for s in shapes if len(s) - rank + position >= 0}
        dimensions.discard(1)
        if len(dimensions) > 1:
            return None  # does not broadcast: a mistake, or a shape we got wrong
        out.append(dimensions.pop() if dimensions else 1)
    return tuple(out)


def _matmul(left: Result, right: Result) -> Result:
    """torch.matmul's result shape for 1-D and 2-D operands (batched ones: unknown). A square matrix times the
    name being sized (``h = W @ h`` in a loop) keeps that name's shape."""
    if left is CYCLE or right is CYCLE:
        other = right if left is CYCLE else left
        return CYCLE if isinstance(other, tuple) and len(other) == 2 and other[0] == other[1] else None
    if not isinstance(left, tuple) or not isinstance(right, tuple) or not 1 <= len(left) <= 2 \
            or not 1 <= len(right) <= 2 or left[-1] != right[0]:
        return None
    return left[:-1] + right[1:]


def _literal_shape(node: ast.AST) -> Optional[Shape]:
    """``torch.tensor([[1., 2.], [3., 4.]])``: (2, 2); a number: (); ragged or computed data: unknown."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool)):
        return ()
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
        inner = [_literal_shape(element) for element in node.elts]
        if None in inner or len(set(inner)) != 1:
            return None
        return (len(node.elts),) + inner[0]  # type: ignore[operator]
    return None
