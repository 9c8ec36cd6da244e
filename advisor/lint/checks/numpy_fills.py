"""Fills NumPy makes before torch wraps them (``torch.tensor(np.zeros(n))``, ``torch.from_numpy(np.random.normal(0, 1,
(b, d)))``, the array bound to a name first): data the GPU could make itself. Shared by GA104's checks."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.factory_calls import read_only_at, used_between

_NUMPY_FILLS = api.NUMPY_FILLS | frozenset(api.NUMPY_RANDOM_FILLS)  # (a random draw made by NumPy on the CPU and
# copied: the GPU can draw it itself, as with torch.randn)
_WRAPPERS = api.FILL_WRAPPERS


def numpy_fill(ctx, factory: Optional[ast.Call]) -> Optional[ast.AST]:
    """``np.zeros(n)`` in ``torch.tensor(np.zeros(n))``: numpy fills the CPU memory with a constant, torch
    wraps it -- the same tensor torch.zeros(n, dtype=torch.float64) makes, and could make on the GPU."""
    if factory is None or not factory.args:
        return None
    name = (ctx.qual(factory.func) or "")[6:]
    data = factory.args[0]
    if isinstance(data, ast.Subscript) and isinstance(data.value, ast.Name):
        data = data.value  # R[None, :, :]: a view of the same values
    data = _uncast(data)  # np.random.randn(n).astype(np.float32): the draw, cast on the CPU
    if isinstance(data, ast.Name):
        data = _uncast(_untouched_fill(ctx, data, factory))  # m = np.triu(np.ones((s, s))).astype("bool")
    return data if name in _WRAPPERS and made_by_numpy(ctx, data) else None


def _uncast(data: Optional[ast.AST]) -> Optional[ast.AST]:
    while isinstance(data, ast.Call) and isinstance(data.func, ast.Attribute) and data.func.attr == "astype":
        data = data.func.value
    return data


def made_by_numpy(ctx, data: ast.AST) -> bool:
    """A NumPy fill or draw (``np.zeros(n)``, ``np.random.normal(...)``), or fills combined with each other and with
    numbers (``np.kron(np.eye(n), np.ones((k, k)))``: made of fills, as constant)."""
    return isinstance(data, ast.Call) and ctx.qual(data.func) in _NUMPY_FILLS or _numpy_of_fills(ctx, data)


_NUMPY_COMBINERS = frozenset({"numpy.kron", "numpy.triu", "numpy.tril", "numpy.tile", "numpy.diag", "numpy.outer"})


def _numpy_of_fills(ctx, node: ast.AST, depth: int = 0) -> bool:
    """``np.kron(np.eye(n), (1 - m) * np.ones((k, k)))``, ``np.triu(np.ones((s, s)))``: NumPy fills combined with each
    other and with Python numbers -- data the GPU could make itself (torch.kron, torch.triu, ...)."""
    if depth > 4:
        return False
    if isinstance(node, ast.Call):
        name = ctx.qual(node.func) or ""
        if name in _NUMPY_FILLS:
            return True
        return name in _NUMPY_COMBINERS and bool(node.args) and all(
            ctx.is_number(a) or _numpy_of_fills(ctx, a, depth + 1) for a in node.args[:2])
    if isinstance(node, ast.BinOp):
        sides = [node.left, node.right]
        return any(_numpy_of_fills(ctx, side, depth + 1) for side in sides) \
            and all(ctx.is_number(side) or _numpy_of_fills(ctx, side, depth + 1) for side in sides)
    return isinstance(node, ast.UnaryOp) and _numpy_of_fills(ctx, node.operand, depth + 1)


def _untouched_fill(ctx, name: ast.Name, use: ast.AST) -> Optional[ast.AST]:
    """``R = np.eye(3)`` ... ``torch.tensor(R).cuda()`` with R never read or written in between (``K[0, 0] = f``
    fills it in: no longer the constant). The binding that reaches the use is the last one before it: ``w =
    np.random.normal(...)``; ``w = torch.from_numpy(w)``; ``w = w.float().to(device)`` rebinds the name as it goes."""
    scope = ctx.index.scope_of(use)
    values = [v for v in ctx.index.assigned_values.get(name.id, ()) if ctx.index.scope_of(v) is scope]
    before = [v for v in values if v.lineno < use.lineno]
    if not before or not isinstance(before[-1], ast.Call):
        return None
    statement = ctx.index.statement_of(use)
    written = ctx.index.last_write_before(name.id, statement) if statement is not None else None
    if not (isinstance(written, ast.Assign) and written.value is before[-1]) \
            and not _rebinds_itself([v for v in values if v is not before[-1]], name.id):
        return None  # (another value, bound elsewhere in the scope, may reach the use: a branch, a loop's next turn)
    if used_between(ctx, scope, name.id, before[-1], use):
        return None
    drawn = _uncast(before[-1])
    if isinstance(drawn, ast.Call) and ctx.qual(drawn.func) in api.NUMPY_RANDOM_FILLS \
            and not read_only_at(ctx, scope, name.id, before[-1].lineno, use.lineno):
        return None  # a draw NumPy also computes with (a NumPy-vs-torch benchmark's input) is data, not a fill
    return before[-1]


def _rebinds_itself(values: list[ast.AST], name: str) -> bool:
    """Every later value made from the name itself (``w = torch.from_numpy(w)``, ``w = w.float().cuda()``): the same
    data carried on, not other data bound to the name (in a loop, that data could reach the use)."""
    return all(any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(v)) for v in values)
