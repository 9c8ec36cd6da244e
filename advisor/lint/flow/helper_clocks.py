"""Clocks closed in a helper: the caller reads the start, a helper it hands the start to reads the end.

    def _report(self, name, start):
        elapsed = time() - start        # the closing read
        ...
    start = time()
    for batch in loader:
        step(batch)
        if batch_idx == ITERS:
            self._report("train", start)

The region runs from the caller's start to the helper's clock read: what the caller did in between, then what the
helper did before it reads the clock (a ``torch.cuda.synchronize()`` there makes the number right). Each call site
that hands the helper a clock read of its own scope is a region; all of them close at the helper's line.
"""

from __future__ import annotations

import ast

from advisor.lint import torch_api as api
from advisor.lint.flow.effects import CLOCK
from advisor.lint.flow.regions import TimedRegion, assigned_name
from advisor.lint.flow.scopes import call_sites, passed_at


def helper_closed_regions(timings) -> list[TimedRegion]:
    """``timings``: the Timings view (its index, qualified names, the function table and each scope's events)."""
    regions = []
    index = timings.index
    for node in index.subtractions:
        helper = index.scope_of(node)
        info = timings.flow.scopes.functions.get(helper)
        if info is None or not isinstance(node.right, ast.Name) or node.right.id not in info.positional \
                or not (isinstance(node.left, ast.Call) and timings.qual(node.left.func) in api.CLOCKS) \
                or isinstance(index.parents.get(node), ast.Compare):
            continue
        closed = (node.left.lineno, node.left.col_offset)
        before_close = [e for e in timings.scope_events(helper) if (e.node.lineno, e.node.col_offset) < closed]
        for site in call_sites(index, info):
            handed = passed_at(site, info, node.right.id)
            if not isinstance(handed, ast.Name):
                continue
            caller = index.scope_of(site)
            events = timings.scope_events(caller)
            at = (site.lineno, site.col_offset)
            starts = [e for e in events if e.bits & CLOCK and (e.node.lineno, e.node.col_offset) < at
                      and assigned_name(index.parents.get(e.node)) == handed.id]
            if not starts:
                continue
            opened = (starts[-1].node.lineno, starts[-1].node.col_offset)
            between = [e for e in events if opened < (e.node.lineno, e.node.col_offset) < at]
            regions.append(TimedRegion("clock", caller, node.left, between + before_close, open=starts[-1].node,
                                       difference=node))
    return regions

