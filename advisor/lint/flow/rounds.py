"""Rounds of training steps: a read in a loop's body that follows, in the same iteration, a long loop of training
steps written there runs once per round, not once per step (``for cond_epoch ...: train(); for epoch in
range(n_epochs): ...step()...; print(mean_acc.item())``)."""

from __future__ import annotations

import ast

from advisor.lint.index import LOOP_TYPES

_MANY_STEPS = 10  # an inner loop of fewer steps (a GAN's two generator steps per batch) is part of one step


def after_inner_steps(loops, node: ast.AST, loop: ast.AST) -> bool:
    """Does the read ``node`` follow, in the same iteration of ``loop``, a long loop of training steps written in it
    (a GNN's epochs trained after each condensation step, then its mean accuracy printed)? Then it runs once per
    round of steps. Not in a loop over a loader (each iteration a batch). ``loops``: the loop analysis
    (flow/loops.py)."""
    child = node
    for parent in loops.index.ancestors(node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and child in block:
                earlier = block[:block.index(child)]
                if not loops.iterates_loader(loop) and any(
                        isinstance(n, LOOP_TYPES) and loops.runs_update(n) and loops.is_hot(n)
                        and (loops.iterations(n) or _MANY_STEPS) >= _MANY_STEPS for s in earlier for n in ast.walk(s)):
                    return True
        if parent is loop:
            return False
        child = parent
    return False
