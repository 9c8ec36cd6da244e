"""What a loop hands a function on every call: the same data (``for epoch in range(n):
self._train_eval(self.dataset, "train")``). A function that copies that parameter to the GPU repeats the copy on
every call: GA105 reports it there."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.checks.invariant import loop_invariant
from advisor.lint.flow import CUDA_TENSOR, FunctionInfo
from advisor.lint.flow.scopes import passed_at
from advisor.lint.names import dotted


def same_data_passed_in_loop(ctx, info: FunctionInfo, parameter: str, call: ast.Call) -> Optional[ast.AST]:
    """``def _train_eval(self, data, stage): data = data.to(self.device)`` called only as
    ``for epoch in ...: self._train_eval(self.dataset, "train")``: every call copies what the loop holds unchanged
    (a full-batch graph re-sent each epoch). The copy must be of the parameter as received."""
    if any(value.lineno < call.lineno for value in ctx.index.assigned_values.get(parameter, ())
           if ctx.index.scope_of(value) is info.node):
        return None
    sites = ctx.call_sites(info)
    if not sites or any(ctx.callee(site) is not info for site in sites):
        return None
    found = None
    for site in sites:
        loops = ctx.enclosing_loops(site)
        if not loops:
            continue  # (a final test pass after the loop: once)
        passed = passed_at(site, info, parameter)
        key = dotted(passed) if passed is not None else None
        if key is None or ctx.kind(passed) & CUDA_TENSOR or ctx.runs_on_some_iterations(site, loops[0]) \
                or ctx.is_sweep(loops[0]) or key in ctx.assigned_in(loops[0]) \
                or "." not in key and not loop_invariant(ctx, key, loops[0], site):
            return None
        found = found or loops[0]
    return found
