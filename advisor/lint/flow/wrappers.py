"""Timings that wrap the code they measure: a decorator whose wrapper reads the clock around the call of the
function it wraps, and a context manager that reads it on entry and on exit.

    def timeit(fn):                              @contextmanager                 class Timer:
        def wrapper(*args):                      def timer(name):                    def __enter__(self):
            t0 = time.time()                         t0 = time.time()                    self.start = time.time()
            result = fn(*args)                       yield                           def __exit__(self, *exc):
            print(time.time() - t0)                  print(time.time() - t0)             print(time.time() - self.start)

``@timeit def run(): ...`` times run's body; ``with timer("x"): ...`` and ``with Timer(): ...`` time the with
body. Each such use is a region of its own: its events are what the decorated body or the with body does, and
a finding about the closing read points at the read in the wrapper (the same for every use).
"""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.effects import Effects
from advisor.lint.flow.regions import TimedRegion
from advisor.lint.flow.scopes import ClassInfo, FunctionInfo
from advisor.lint.flow.view import FlowView
from advisor.lint.names import dotted


class WrappedTimings(FlowView):
    def __init__(self, view: FlowView, effects: Effects) -> None:
        super().__init__(view.index, view.names, view.flow)
        self.effects = effects

    def regions(self, clock_regions: list[TimedRegion]) -> list[TimedRegion]:
        return self._decorated(clock_regions) + self._managed(clock_regions)

    # -- decorators --------------------------------------------------------------------------------
    def _decorated(self, clock_regions: list[TimedRegion]) -> list[TimedRegion]:
        out = []
        scopes = self.flow.scopes
        for info in scopes.functions.values():
            for decorator in info.node.decorator_list:
                name = decorator.func if isinstance(decorator, ast.Call) else decorator
                found = scopes.resolve(name.id, info.parent) if isinstance(name, ast.Name) else None
                if not isinstance(found, FunctionInfo):
                    continue
                for region in clock_regions:
                    call = self._wrapped_call(region, found)
                    if call is not None:
                        out.append(self._around(info.node, info.node, self.effects.summary(info).events, region, call))
        return out

    def _wrapped_call(self, region: TimedRegion, decorator: FunctionInfo) -> Optional[ast.Call]:
        """The call the region, in a function nested in ``decorator``, makes of a parameter of the functions around
        it (``result = fn(*args)``), if any."""
        if region.open is None or decorator.node not in self.index.ancestors(region.scope):
            return None
        parameters: set[str] = set()
        for node in self.index.ancestors(region.scope):
            info = self.flow.scopes.functions.get(node)
            if info is not None:
                parameters.update(info.positional + info.keyword_only)
            if node is decorator.node:
                break
        start, end = (region.open.lineno, region.open.col_offset), (region.close.lineno, region.close.col_offset)
        return next((c for name in parameters for c in self.index.calls_by_name.get(name, ())
                     if isinstance(c.func, ast.Name) and start < (c.lineno, c.col_offset) < end
                     and self.index.scope_of(c) is region.scope), None)

    # -- context managers --------------------------------------------------------------------------
    def _managed(self, clock_regions: list[TimedRegion]) -> list[TimedRegion]:
        """``with timer():`` / ``with Timer() as t:`` / ``with t:`` (t an instance of a timing class)."""
        timers = self._timing_generators(clock_regions)
        timers.update(self._timing_classes())
        if not timers:
            return []
        out = []
        for statement in self.index.withs:
            for item in statement.items:
                manager = self._manager(item.context_expr, statement)
                if manager is not None and manager in timers:
                    events = self.effects.events(statement.body)
                    timing, resumed = timers[manager]
                    out.append(self._around(statement, self.index.scope_of(statement), events, timing, resumed))
        return out

    def _manager(self, expression: ast.AST, where: ast.AST) -> Optional[ast.AST]:
        """The def or class a with-item enters: ``timer(...)``, ``Timer(...)``, or a name holding an instance."""
        scope = self.index.scope_of(where)
        if isinstance(expression, ast.Call) and isinstance(expression.func, ast.Name):
            found = self.flow.scopes.resolve(expression.func.id, scope)
            return found.node if isinstance(found, (FunctionInfo, ClassInfo)) else None
        kind = self.kind(expression)
        classes = self.flow.scopes.classes_of(kind) if kind else []
        return classes[0].node if len(classes) == 1 else None

    def _timing_generators(self, clock_regions: list[TimedRegion]) -> dict[ast.AST, tuple[TimedRegion, ast.AST]]:
        """@contextmanager functions with a clock pair around their ``yield`` (and that yield)."""
        found: dict[ast.AST, tuple[TimedRegion, Optional[ast.AST]]] = {}
        for region in clock_regions:
            info = self.flow.scopes.functions.get(region.scope)
            if info is None or region.open is None or not any(
                    (self.qual(d) or dotted(d) or "").endswith("contextmanager") for d in info.node.decorator_list):
                continue
            start, end = (region.open.lineno, region.open.col_offset), (region.close.lineno, region.close.col_offset)
            resumed = next((n for n in ast.walk(info.node) if isinstance(n, (ast.Yield, ast.YieldFrom))
                            and self.index.scope_of(n) is info.node and start < (n.lineno, n.col_offset) < end), None)
            if resumed is not None:
                found[info.node] = (region, resumed)
        return found

    def _timing_classes(self) -> dict[ast.AST, tuple[TimedRegion, Optional[ast.AST]]]:
        """Classes whose ``__enter__`` stores a clock read in ``self.x`` and whose ``__exit__`` subtracts it."""
        found: dict[ast.AST, tuple[TimedRegion, Optional[ast.AST]]] = {}
        for info in self.flow.scopes.classes.values():
            enter, leave = info.methods.get("__enter__"), info.methods.get("__exit__")
            if enter is None or leave is None:
                continue
            stored = {dotted(target) for node in ast.walk(enter.node) if isinstance(node, ast.Assign)
                      and isinstance(node.value, ast.Call) and self.qual(node.value.func) in api.CLOCKS
                      for target in node.targets}
            for node in ast.walk(leave.node):
                if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and dotted(node.right) in stored \
                        and isinstance(node.left, ast.Call) and self.qual(node.left.func) in api.CLOCKS:
                    close = (node.left.lineno, node.left.col_offset)  # (__exit__ may wait first: synchronize())
                    before = [e for e in self.effects.summary(leave).events if (e.node.lineno, e.node.col_offset) < close]
                    timing = TimedRegion("clock", leave.node, node.left, before, open=enter.node, difference=node)
                    found[info.node] = (timing, None)
                    break
        return found

    @staticmethod
    def _around(around: ast.AST, scope: ast.AST, events: list, timing: TimedRegion,
                resumed: Optional[ast.AST]) -> TimedRegion:
        """The wrapped code's events, then what the wrapper does after it and before its closing clock
        (``result = fn(*args); torch.cuda.synchronize(); t1 = time.time()``: the wait that makes the clock right)."""
        after = (resumed.end_lineno, resumed.end_col_offset) if resumed is not None else None
        # (a timing class's events are its __exit__'s before the closing read: all of them come after the body)
        tail = [e for e in timing.events if (e.node.lineno, e.node.col_offset) >= after] if after is not None \
            else list(timing.events)
        return TimedRegion("clock", scope, timing.close, list(events) + tail, open=around,
                           difference=timing.difference, around=around)
