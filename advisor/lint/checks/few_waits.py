"""GA103's "a handful of waits, nothing to win": loops and walks of a few iterations the code spells out, and where a
helper is called from loops (which decides whether its reads count per step)."""

from __future__ import annotations

import ast

from advisor.lint.checks.lbfgs_closures import FEW_WAITS


def few_runs(ctx, loop) -> bool:
    """``for i in range(0, 4):`` (and no loop around it, or only loops of known short counts): a handful of waits,
    nothing to win. A two-pass flip loop inside a loop over batches runs per batch; so does a short loop in a function
    a loop calls (``ppo_update(..., ppo_epochs=4)`` after every rollout of the training loop)."""
    total = 1
    for each in [loop] + ctx.enclosing_loops(loop):
        count = ctx.loop_iterations(each)
        if count is None:
            return False
        total *= count
    holder = ctx.function_of(loop)
    return total <= FEW_WAITS and not (holder is not None and sites_in_loops(ctx, holder))
    # (range(4): a loop this short waits this often at most)


def few_elements(ctx, iterated: ast.AST) -> bool:
    """``range(4)``: a walk of a handful of elements the code spells out."""
    if not (isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Name) and iterated.func.id == "range"
            and len(iterated.args) == 1):
        return False
    count = ctx.int_value(iterated.args[0])
    return count is not None and count <= FEW_WAITS


def sites_in_loops(ctx, info) -> list:
    """The calls of ``info`` that run in a loop: written in one, or in a function a loop calls. A call once outside
    any loop (a first evaluation before training) is not a place that reads per step. A model's forward is called as
    ``model(x)``: the test loop's call and the training loop's are two places."""
    def in_a_loop(site) -> bool:
        if ctx.enclosing_loops(site):
            return True
        holder = ctx.function_of(site)
        return holder is not None and any(ctx.enclosing_loops(outer) for outer in ctx.call_sites(holder))
    return [site for site in ctx.call_sites(info) + ctx.model_calls(info) if in_a_loop(site)]
