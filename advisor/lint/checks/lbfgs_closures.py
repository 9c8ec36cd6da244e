"""The closures an L-BFGS optimizer evaluates many times in one ``step()``.

``torch.optim.LBFGS(params, max_iter=20)`` runs the closure handed to ``optimizer.step(closure)`` up to ``max_iter``
times (more with its line search) in one call: a host read in the closure waits once per evaluation even when the
step is called once, outside any loop (a PINN trained by ``pinn.optimizer.step(pinn.closure)``). GA103 reports them.
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint.names import last_identifier

_DEFAULT_ITERATIONS = 20  # torch.optim.LBFGS(max_iter=20): closure evaluations per step(), more with a line search
FEW_WAITS = 4  # loop iterations or closure evaluations: GA103 leaves reads that wait this often at most


def lbfgs_closure_reads(ctx) -> Iterator[tuple[ast.Call, int, object]]:
    """(the ``step(closure)`` call, its max_iter, a host-read event in the closure) for each L-BFGS step outside a
    hot loop (inside one, the loop pass reports the closure's reads already)."""
    iterations = _lbfgs_iterations(ctx)
    for call in ctx.index.calls_by_name.get("step", []):
        count = iterations.get(last_identifier(call.func.value), 0) if isinstance(call.func, ast.Attribute) else 0
        if count <= FEW_WAITS or not call.args or any(ctx.loop_is_hot(loop) for loop in ctx.enclosing_loops(call)):
            continue
        closure = _closure_of(ctx, call.args[0])
        for read in ctx.every_call_host_reads(closure) if closure is not None else []:
            if read.callee is None:
                yield call, count, read


def _closure_of(ctx, value: ast.AST) -> Optional[object]:
    """The user's function ``value`` names: a def or a name bound to one, or a method of the file's own class
    (``self.closure``, ``pinn.closure`` for an instance of the file's ``PINN``)."""
    held = ctx.held_function(value)
    if held is not None or not isinstance(value, ast.Attribute):
        return held
    if isinstance(value.value, ast.Name) and value.value.id == "self":
        owner = ctx.class_of_method(value)
        classes = [owner] if owner is not None else []
    else:
        classes = ctx.classes_of(ctx.kind(value.value))
    methods = [c.methods[value.attr] for c in classes if value.attr in c.methods]
    return methods[0] if len(methods) == 1 else None


def _lbfgs_iterations(ctx) -> dict[str, int]:
    """The names the file binds L-BFGS optimizers to (``self.optimizer = torch.optim.LBFGS(...)``), each with its
    ``max_iter`` (20 unless the call says otherwise; a value the file does not fix counts as the default)."""
    found: dict[str, int] = {}
    for call in ctx.index.calls_by_name.get("LBFGS", []):
        parent = ctx.index.parents.get(call)
        if not isinstance(parent, ast.Assign) or len(parent.targets) != 1:
            continue
        given = next((k.value for k in call.keywords if k.arg == "max_iter"), None)
        count = ctx.int_value(given) if given is not None else None
        found[last_identifier(parent.targets[0])] = count if count is not None else _DEFAULT_ITERATIONS
    return found
