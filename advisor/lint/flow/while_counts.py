"""How many times a counted loop runs, when the code spells it out: ``for`` over a range or a literal (also through a
progress bar, ``tqdm(range(10))``), a counted ``while``, or a ``for`` that breaks at a count.

``r = 5`` ... ``while r != 0: ...; r -= 1`` runs five times, and ``i = 0`` ... ``while i < n: ...; i += 2`` runs
n / 2 times: the counter starts at the constant written just before the loop, in the same block, and the body
steps it by a constant on its own level (not under an ``if``: a step that runs only sometimes says nothing
of the count); ``while i < n`` stepped some other way counts about n. Anything else (a condition on a tensor, a flag, a counter changed elsewhere) is not counted.
"""

from __future__ import annotations

import ast
from typing import Callable, Optional

from advisor.lint import torch_api as api

IntValue = Callable[[ast.AST], Optional[int]]


def loop_iterations(loop: ast.AST, index, int_value: IntValue, qual: Callable[[ast.AST], Optional[str]]) -> Optional[int]:
    """The iteration count the code spells out (``range(100_000)``, ``while i < N``), else None."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return while_iterations(loop, index, int_value)
    iterable = loop.iter
    while isinstance(iterable, ast.Call) and iterable.args and qual(iterable.func) in api.PROGRESS_BARS:
        iterable = iterable.args[0]  # tqdm(range(10)): as many as the range
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range":
        bounds = [_literal_length(a, index) if (v := int_value(a)) is None else v for a in iterable.args]
        if not bounds or None in bounds:
            return None
        start, stop = (0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])
        step = bounds[2] if len(bounds) > 2 and bounds[2] else 1
        return max(0, (stop - start) // step)
    if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
        return len(iterable.elts)
    return stops_after(loop, int_value)  # for i, b in enumerate(loader): if i >= n: break


def _literal_length(node: ast.AST, index) -> Optional[int]:
    """``len(coeffs)`` with ``coeffs = [1/90, -3/20, ...]`` (or ``torch.tensor([...])``) the only binding of the name:
    its length."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name)):
        return None
    values = [_listed(v) for v in index.assigned_values.get(node.args[0].id, [])]
    lengths = {len(v.elts) for v in values if isinstance(v, (ast.List, ast.Tuple))}
    return lengths.pop() if len(values) == 1 and len(lengths) == 1 else None


def _listed(value: ast.AST) -> ast.AST:
    """``torch.tensor([[a, b], [c, d]], dtype=...)`` holds the rows written out: as many as the list has."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in ("tensor", "array") \
            and value.args and isinstance(value.args[0], (ast.List, ast.Tuple)):
        return value.args[0]
    return value


def while_iterations(loop: ast.While, index, int_value: IntValue) -> Optional[int]:
    counter, bound, counts_down = _condition(loop.test, int_value)
    if bound is None:
        return None
    if counter is None:
        return bound
    start = _start(counter, loop, index, int_value)
    step = _step(counter, loop)
    if step is None:
        return None if counts_down else bound  # `while i < N` stepped some other way (i += batch): about N
    if counts_down and step < 0:
        return None if start is None else max(0, -(-(start - bound) // -step))
    if not counts_down and step > 0:
        return max(0, -(-(bound - (start or 0)) // step))  # `while i < N` with no start seen: from 0, as before
    return None


def _condition(test: ast.AST, int_value: IntValue) -> tuple[Optional[str], Optional[int], bool]:
    """(counter, the bound it stops at, whether it counts down): ``r != 0`` / ``r > 0`` / ``r`` count down to
    0 (``r >= 1`` to 0 too); ``i < n`` counts up to n (``i <= n`` to n + 1)."""
    if isinstance(test, ast.Name):
        return test.id, 0, True
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None, None, False
    bound = int_value(test.comparators[0])
    counter = test.left.id if isinstance(test.left, ast.Name) else None  # (self.step < n: counted up, about n)
    op = test.ops[0]
    if bound is None or counter is None and not isinstance(op, (ast.Lt, ast.LtE)):
        return None, None, False
    if isinstance(op, (ast.NotEq, ast.Gt)):
        return counter, bound, True
    if isinstance(op, ast.GtE):
        return counter, bound - 1, True
    if isinstance(op, ast.Lt):
        return counter, bound, False
    if isinstance(op, ast.LtE):
        return counter, bound + 1, False
    return None, None, False


def _step(counter: str, loop: ast.While) -> Optional[int]:
    """The constant the body's own level adds to the counter each iteration; None when it is not one such
    step (none, several, or also assigned elsewhere in the body)."""
    steps = [s for s in loop.body if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name)
             and s.target.id == counter]
    writes = [n for n in ast.walk(loop) if isinstance(n, ast.Name) and n.id == counter
              and isinstance(n.ctx, ast.Store)]
    if len(steps) != 1 or len(writes) != 1:
        return None
    step = steps[0]
    if not (isinstance(step.value, ast.Constant) and isinstance(step.value.value, int)):
        return None
    if isinstance(step.op, ast.Add):
        return step.value.value
    if isinstance(step.op, ast.Sub):
        return -step.value.value
    return None


def _start(counter: str, loop: ast.While, index, int_value: IntValue) -> Optional[int]:
    """The constant assigned to the counter by the last statement of the loop's block that writes it (written some
    other way -- a tuple, a loop target --: no spelled-out start)."""
    earlier = index.last_write_before(counter, loop)
    if isinstance(earlier, ast.Assign) and len(earlier.targets) == 1 and isinstance(earlier.targets[0], ast.Name):
        return int_value(earlier.value)
    return None


def stops_after(loop: ast.AST, int_value: IntValue) -> Optional[int]:
    """``for i, batch in enumerate(loader): if i >= num_batches: break`` (its first statement): the loop runs at
    most ``num_batches`` times, a count the code spells out (a constant, or a parameter's default)."""
    iterable = getattr(loop, "iter", None)
    target = getattr(loop, "target", None)
    if not (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "enumerate"
            and isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name)) \
            or not loop.body:  # type: ignore[attr-defined]
        return None
    first = loop.body[0]  # type: ignore[attr-defined]
    test = first.test if isinstance(first, ast.If) else None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
            and test.left.id == target.elts[0].id and first.body and isinstance(first.body[-1], ast.Break)):
        return None
    bound = int_value(test.comparators[0])
    if bound is None:
        return None
    return {ast.GtE: bound, ast.Eq: bound, ast.Gt: bound + 1}.get(type(test.ops[0]))
