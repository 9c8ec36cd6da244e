"""Regions that timeit measures: ``timeit.timeit(stmt)`` / ``timeit.repeat`` / ``timeit.Timer(stmt).timeit(n)``, the
statement a lambda, a function of the file (by name, or called by name in a string: ``"infer()"``), or a string
of code whose names the module binds. timeit.timeit reports one total, the cold first call in it; repeat and
autorange keep each batch apart."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.effects import Effects, Event
from advisor.lint.flow.kinds import CUDA_ANY, CUDA_DEVICE
from advisor.lint.flow.regions import TimedRegion
from advisor.lint.flow.scopes import FunctionInfo
from advisor.lint.flow.view import FlowView


class TimeitRegions(FlowView):
    def __init__(self, view: FlowView, effects: Effects) -> None:
        super().__init__(view.index, view.names, view.flow)
        self.effects = effects

    def region(self, call: ast.Call) -> Optional[TimedRegion]:
        statement = timed_statement(call)
        scope = self.index.scope_of(call)
        if isinstance(statement, ast.Name):  # command = "f(x).backward()"; timeit.timeit(command, ...): the string
            held = self.index.assigned_values.get(statement.id, [])
            if len(held) == 1 and isinstance(held[0], ast.Constant) and isinstance(held[0].value, str):
                statement = held[0]
        run = self._timer_run(call) or call
        region = TimedRegion("timeit", scope, run, repeated=self._keeps_runs_apart(run))
        if isinstance(statement, ast.Lambda):
            region.events = self.effects.events([statement.body])
        elif isinstance(statement, ast.Name) or _calls_a_function(statement):  # timeit(bench) / timeit("bench()")
            name = statement.id if isinstance(statement, ast.Name) else _calls_a_function(statement)
            found = self.flow.scopes.resolve(name, scope)
            if not isinstance(found, FunctionInfo):
                return None
            summary = self.effects.summary(found)
            region.events = [Event(statement, summary.bits, found)] if summary.bits else []
        elif isinstance(statement, ast.Constant) and isinstance(statement.value, str):
            region.assumed_work, region.assumed_sync = self._string_statement(statement.value)
        else:
            return None
        return region

    def _keeps_runs_apart(self, run: ast.Call) -> bool:
        """timeit.repeat / Timer.repeat / autorange time each batch apart (a minimum drops the cold one);
        timeit.timeit(stmt, number=n) reports one total with the cold first call in it."""
        name = self.qual(run.func) or (run.func.attr if isinstance(run.func, ast.Attribute) else "")
        return name.rsplit(".", 1)[-1] in ("repeat", "autorange")

    def _timer_run(self, call: ast.Call) -> Optional[ast.Call]:
        """``t0 = timeit.Timer(stmt=...)`` then ``t0.timeit(100)``: the clock runs (and is read) at the .timeit() call."""
        statement = self.index.parents.get(call)
        if self.qual(call.func) != "timeit.Timer" or not isinstance(statement, ast.Assign) \
                or len(statement.targets) != 1 or not isinstance(statement.targets[0], ast.Name):
            return None
        name, scope = statement.targets[0].id, self.index.scope_of(call)
        runs = [c for attr in ("timeit", "repeat", "autorange") for c in self.index.calls_by_name.get(attr, ())
                if isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name) and c.func.value.id == name
                and self.index.scope_of(c) is scope and c.lineno > call.lineno]
        return min(runs, key=lambda c: (c.lineno, c.col_offset), default=None)

    def _string_statement(self, text: str) -> tuple[bool, bool]:
        """timeit("torch.mm(a, b)", globals=globals()): does the string use CUDA values, and sync?"""
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return False, True
        env = self.flow.module_env
        uses = any(isinstance(n, ast.Name) and env.get(n.id, 0) & (CUDA_ANY | CUDA_DEVICE)
                   for n in ast.walk(tree))
        syncs = any(isinstance(n, ast.Attribute) and n.attr in api.HOST_SYNC_METHODS | {"synchronize"}
                    for n in ast.walk(tree))
        return uses, syncs


def timed_statement(call: ast.Call) -> Optional[ast.AST]:
    """What a timer call runs: its first argument or ``stmt=`` (a lambda, a function, a string of code)."""
    return call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "stmt"), None)


def _calls_a_function(statement: ast.AST) -> Optional[str]:
    """``"infer()"``: a timeit string that only calls a function by name, as the Name form does."""
    if not (isinstance(statement, ast.Constant) and isinstance(statement.value, str)):
        return None
    try:
        body = ast.parse(statement.value).body
    except SyntaxError:
        return None
    if len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Call) \
            and isinstance(body[0].value.func, ast.Name) and not body[0].value.args:
        return body[0].value.func.id
    return None
