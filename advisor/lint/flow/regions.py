"""A timed region: the GPU effects between the two host clock reads (or the timeit call, the magic, the CUDA
events) that measure it. Built by timeline.py (and wrappers.py), read by the timing checks."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional

from advisor.lint.flow.effects import COMPUTE, KERNEL, SYNC, WORK, Event
from advisor.lint.names import dotted


@dataclass
class TimedRegion:
    how: str  # "clock" | "timeit" | "events" | "%time" | "%timeit" | "%%time" | "%%timeit"
    scope: ast.AST
    close: ast.AST  # where a finding about the closing read points
    events: list[Event] = field(default_factory=list)
    open: Optional[ast.AST] = None  # where a finding about the start points
    repeated: bool = False  # timeit runs the statement many times: the first call is amortised
    line: Optional[int] = None  # magics have no node of their own
    column: Optional[int] = None
    assumed_work: bool = False  # a timeit string names CUDA values
    assumed_sync: bool = False
    difference: Optional[ast.AST] = None  # `end - start`: where the measured time goes
    around: Optional[ast.AST] = None  # what a decorator or a context manager times whole: the def, the with
    carried: bool = False  # opened at the end of a loop's body, closed in its next iteration (carried_region)

    @property
    def last_work(self) -> Optional[Event]:
        return next((e for e in reversed(self.events) if e.bits & WORK and not e.bits & SYNC), None)

    @property
    def has_work(self) -> bool:
        return self.assumed_work or any(e.bits & WORK for e in self.events)

    @property
    def runs_kernels(self) -> bool:
        """Does the region compute or fill on the GPU (or call the user's code, which may), not only copy? (A call of
        the user's function whose whole effect is known to be copies -- ``load_model()`` ending in ``model.to(device)``
        -- copies only.)"""
        return any(e.bits & (COMPUTE | KERNEL) or e.callee is not None and not e.bits & WORK for e in self.events)

    @property
    def closing_sync(self) -> Optional[Event]:
        """The wait that makes the clock right: the last sync after the last work (``y.sum().to('cpu')`` read
        just before the closing clock is how a latency test waits for the GPU, not a stall to remove)."""
        if not self.synchronized:
            return None
        return next((e for e in reversed(self.events) if e.bits & SYNC), None)

    @property
    def synchronized(self) -> bool:
        if self.assumed_sync:
            return True
        last_work = last_sync = -1
        for position, event in enumerate(self.events):
            if event.bits & WORK:
                last_work = position
            if event.bits & SYNC:
                last_sync = position
        return last_sync >= last_work if last_work >= 0 else not self.assumed_work


def carried_region(index, scope: ast.AST, events: list[Event], close: int, variable: str, assigned: list,
                   difference: ast.AST) -> list[TimedRegion]:
    """``end = time.time()`` set again at the end of a loop whose body reads ``time.time() - end`` first
    (``for ...: step(); meter.update(time.time() - end); end = time.time()``): each iteration from the second on is
    timed from that restart, across the loop's back edge -- the rest of the body after the restart, then the body
    up to the closing read. ``close``: the closing clock's index in ``events``; ``assigned``: (where, variable,
    event index) of every clock stored in a name."""
    loop = index.enclosing_loops(events[close].node)[0]
    inside = [i for i, event in enumerate(events) if loop in index.ancestors(event.node)]
    restarts = [i for _, name, i in assigned if name == variable and i > close and i in inside]
    if not restarts:
        return []
    restart = restarts[-1]
    timed = [events[i] for i in inside if i > restart] + [events[i] for i in inside if i < close]
    return [TimedRegion("clock", scope, events[close].node, timed, open=events[restart].node, difference=difference,
                        carried=True)]


def assigned_name(parent: Optional[ast.AST]) -> Optional[str]:
    """``start = time.time()`` / ``self.start = time.time()`` / ``add_timer[0] = timer()``: the name, dotted name or
    slot the read is stored in."""
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        return clock_key(parent.targets[0])
    if isinstance(parent, ast.AnnAssign):
        return clock_key(parent.target)
    return None


def clock_key(node: ast.AST) -> Optional[str]:
    """A clock reading's place as text: ``start``, ``self.start``, or a slot written out (``add_timer[1]``)."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
            and isinstance(node.slice.value, (int, str)) and dotted(node.value) is not None:
        return f"{dotted(node.value)}[{node.slice.value!r}]"
    return dotted(node)
