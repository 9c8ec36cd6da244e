"""Forwards in helpers that the loops of their callers run: ``def predict_batch(model, batch): return model(batch)``
called once per batch from a validation loop.

The helper has no loop of its own; the loops are its callers'. A caller's loop that trains (a backward pass on what
the helper hands back, an optimizer step) needs the graph; one that does not records it for nothing. Where the finding
goes: when every calling loop only infers, the helper's forward (one fix, there); when some train, each calling line in
a loop that does not (the training loop's call must keep its graph).
"""

from __future__ import annotations

import ast
from typing import Iterator

from advisor.lint.checks.common import short, where
from advisor.lint.checks.grad_off import grad_off
from advisor.lint.checks.training_steps import backward_of, sample_after_training, trains_around
from advisor.lint.flow.kinds import CPU_TENSOR, CUDA_TENSOR
from advisor.lint.flow.steps import steps_environment
from advisor.lint.model import Hit
from advisor.lint.names import dotted


def helper_forward_hits(ctx, call: ast.Call, model: ast.AST, training: dict, reported: set) -> Iterator[Hit]:
    """The findings for the forward ``call`` of ``model`` in a loop-free helper, each place once."""
    for site in inference_sites(ctx, call, training):
        if (site, short(model)) not in reported:
            reported.add((site, short(model)))
            yield helper_forward_hit(ctx, call, site, model)


def inference_sites(ctx, call: ast.Call, training: dict) -> list[ast.AST]:
    """Where to report the forward ``call`` of a loop-free helper: ``[call]`` itself, the calling lines of loops that
    do not train, or nothing (no caller in a loop, or every such caller needs the graph)."""
    info = ctx.function_of(call)
    if info is None or info.of_a_model \
            or any(ctx.index.scope_of(loop) is info.node for loop in ctx.index.loops):
        return []  # (a helper with loops of its own runs whole passes: train_model(fold) per fold; a model's own
        # method, model.encoding(img), is a forward of the model where it is called, judged there)
    sites = [site for site in ctx.call_sites(info) if ctx.index.enclosing_loops(site)]
    if not _hands_back_host_values(ctx, info) and any(
            steps_environment(loop.body) for site in sites for loop in ctx.index.enclosing_loops(site)):
        return []  # an agent's act() per environment step that hands back tensors: REINFORCE and PPO keep its
        # log-probs for the update (one that hands back only the chosen action as a number keeps nothing)
    quiet = [site for site in sites if not _needs_graph(ctx, site, training)]
    if not quiet:
        return []
    return [call] if len(quiet) == len(sites) else quiet  # every caller infers: one fix, in the helper


def _hands_back_host_values(ctx, info) -> bool:
    """Does every ``return`` of the helper hand back host values only (``action.item()``, ``q.argmax().cpu().numpy()``,
    ``np.random.choice(...)``)? Then nothing it computed on the GPU outlives the call, graph included."""
    parts = [e for value in ctx.returned(info) for e in (value.elts if isinstance(value, ast.Tuple) else [value])]
    return bool(parts) and not any(ctx.kind(part) & (CUDA_TENSOR | CPU_TENSOR) for part in parts)


def _needs_graph(ctx, site: ast.Call, training: dict) -> bool:
    """Does the loop around this call of the helper keep the graph: it trains, steps back on the result, or runs
    under no_grad anyway (then nothing is recorded); or is the call a preview after the epoch's training pass?"""
    loops = ctx.index.enclosing_loops(site)
    return grad_off(ctx, site, 0) or trains_around(ctx, site, ctx.index.scope_of(site), loops, training) \
        or sample_after_training(ctx, site, loops[0]) or backward_of(ctx, site)


def helper_forward_hit(ctx, call: ast.Call, site: ast.AST, model: ast.AST) -> Hit:
    """A forward in a loop-free helper, reported at the forward (every calling loop infers) or at a calling line."""
    info = ctx.function_of(call)
    if site is call:
        looped = [one for one in ctx.call_sites(info) if ctx.index.enclosing_loops(one)] if info is not None else []
        loop = ctx.index.enclosing_loops(looped[0]) if looped else []
        where_run = f"the loop at {where(ctx, loop[0])}" if loop else "a loop"
        return Hit(f"{short(call)} runs the model on every call of {info.name if info else 'its function'}(), "
                   f"once per iteration of {where_run}, with autograd on and no backward pass (no torch.no_grad() or "
                   "torch.inference_mode() around it)", node=call)
    return Hit(f"{short(site)} runs {short(model)}'s forward ({where(ctx, call)}) on every iteration of the loop "
               f"at {where(ctx, ctx.index.enclosing_loops(site)[0])} with autograd on and no backward pass (no "
               "torch.no_grad() or torch.inference_mode() around it)", node=site)


def evaluated_elsewhere_handed_back(ctx, call: ast.Call, model: ast.AST) -> bool:
    """``dist = self.model.forward(s, self.device); ...; return action, dist`` in a method that never puts
    ``self.model`` in eval mode itself (evaluate() does): the output goes back to the caller, which may train on it."""
    key, info = dotted(model), ctx.function_of(call)
    if not key or not key.startswith("self.") or info is None:
        return False
    statement = ctx.index.statement_of(call)
    names = {t.id for target in getattr(statement, "targets", []) for t in ast.walk(target) if isinstance(t, ast.Name)}
    handed_back = names and any(isinstance(node, ast.Return) and any(  # (return x.cpu().numpy(): host data, no graph)
        isinstance(part, ast.Name) and part.id in names
        for part in (node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]))
        for node in ast.walk(info.node))
    # (vali(): self.model.eval(), then a batch helper that hands the outputs back: helper_forward_hits)
    return bool(handed_back) and not _evaluates(info, key) and not any(
        _evaluates(caller, key) for caller in _callers(ctx, info, 2))


def _evaluates(info, key: str) -> bool:
    """Does the function put ``key`` in eval mode (``self.model.eval()``, or ``self.set_eval()`` of the class)?"""
    return any(isinstance(c.func, ast.Attribute) and (c.func.attr == "eval" and dotted(c.func.value) == key
                                                      or "eval" in c.func.attr and dotted(c.func.value) == "self")
               for c in ast.walk(info.node) if isinstance(c, ast.Call))


def _callers(ctx, info, depth: int) -> list:
    found = [ctx.function_of(site) for site in ctx.call_sites(info)]
    found = [f for f in found if f is not None and f is not info]
    return found + [g for f in found for g in _callers(ctx, f, depth - 1)] if depth > 0 else found
