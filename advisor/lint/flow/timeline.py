"""Timed regions: where the user reads a host clock around GPU work, and what happened in between.

A region is opened and closed by two clock reads paired the way people write them -- ``time.time() -
start`` or ``end - start``, also ``self.start`` -- in the same function; or a decorator or a context manager
reads them around what it wraps (wrappers.py); or it is one ``timeit.timeit(stmt)`` call; or, in a
notebook, a ``%time``/``%timeit`` line or a ``%%time``/``%%timeit`` cell. A clock difference that is
only compared (``if time.time() - last_log > 30:``) throttles logging and times nothing.

Program order (for "is this the first CUDA work?") starts at the module and follows calls into the
user's functions; a function nobody in the file calls (run by a CLI framework, say) is its own start.
"""

from __future__ import annotations

import ast
import re
from functools import cached_property
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.effects import CLOCK, COMPUTE, SYNC, Effects, Event
from advisor.lint.flow.helper_clocks import helper_closed_regions
from advisor.lint.flow.kinds import CUDA_TENSOR, LOADER
from advisor.lint.flow.loops import LoopAnalysis
from advisor.lint.flow.regions import TimedRegion, assigned_name, carried_region, clock_key
from advisor.lint.flow.scopes import FunctionInfo
from advisor.lint.flow.steps import hands_an_optimizer
from advisor.lint.flow.timeit_regions import TimeitRegions
from advisor.lint.flow.view import FlowView
from advisor.lint.flow.wrappers import WrappedTimings
from advisor.lint.names import dotted

__all__ = ["TimedRegion", "Timings"]

_MAX_CALL_DEPTH = 8
_LOADER_NAME = re.compile(r"loader$", re.IGNORECASE)
_EVALUATION_RUN = re.compile(r"(^|[._])(predict\w*|evaluat\w*|validat\w*|infer\w*|test)$", re.IGNORECASE)
_TRAINING_RUN = re.compile(r"(^|[._])(fit|train\w*)$", re.IGNORECASE)  # model.fit, train_model, trainer.train


class Timings(FlowView):
    def __init__(self, view: FlowView, effects: Effects, loops: LoopAnalysis, magics: list) -> None:
        super().__init__(view.index, view.names, view.flow)
        self.effects = effects
        self.loops = loops
        self.magics = magics  # the notebook's %time / %%timeit lines (source.Magic)
        self._module_events: Optional[list[Event]] = None
        self._module_chains: dict[int, list[Event]] = {}
        self._trains_cache: dict[ast.AST, bool] = {}

    @cached_property
    def regions(self) -> list[TimedRegion]:
        regions: list[TimedRegion] = []
        by_scope: dict[ast.AST, list[ast.Call]] = {}
        for call in self.index.calls:
            name = self.qual(call.func)
            if name in api.CLOCKS or self._reads_clock(call):
                by_scope.setdefault(self.index.scope_of(call), []).append(call)
            elif name in api.TIMEIT_CALLS:
                region = TimeitRegions(self, self.effects).region(call)
                if region is not None:
                    regions.append(region)
        for scope in by_scope:
            regions.extend(self._clock_regions(scope))
        regions.extend(helper_closed_regions(self))  # start = time(); ...; report(start) reads time() - start
        regions.extend(WrappedTimings(self, self.effects).regions([r for r in regions if r.how == "clock"]))
        regions.extend(self._magic_regions())
        regions.extend(self._event_regions())
        return regions

    @cached_property
    def _clock_helpers(self) -> frozenset[str]:
        """``def _time(): torch.cuda.synchronize(); return time.time()``: the file's own functions that return a clock
        read -- each call is a clock (its summary says whether it waits for the GPU first)."""
        helpers = set()
        candidates = {self.index.scope_of(call) for call in self.index.calls  # (from the calls: no walk of the file)
                      if isinstance(self.index.parents.get(call), ast.Return) and self.qual(call.func) in api.CLOCKS}
        for function in candidates:
            returns = [node.value for node in ast.walk(function) if isinstance(node, ast.Return)
                       and self.index.scope_of(node) is function]
            if isinstance(function, ast.FunctionDef) and all(
                    isinstance(value, ast.Call) and self.qual(value.func) in api.CLOCKS for value in returns):
                helpers.add(function.name)
        return frozenset(helpers)

    def _reads_clock(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self._clock_helpers

    # -- CUDA events -------------------------------------------------------------------------------
    def _event_regions(self) -> list[TimedRegion]:
        """``start.record(); ...; end.record(); start.elapsed_time(end)``: GPU time, measured correctly (the
        events wait for the work), but the first CUDA work of the program still lands inside."""
        regions = []
        for call in self.index.calls_by_name.get("elapsed_time", ()):
            func = call.func
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and call.args
                    and isinstance(call.args[0], ast.Name)):
                continue
            scope = self.index.scope_of(call)
            start = self._record_before(func.value.id, scope, call)
            end = self._record_before(call.args[0].id, scope, call)
            if start is None or end is None or (start.lineno, start.col_offset) >= (end.lineno, end.col_offset):
                continue
            opened, closed = (start.lineno, start.col_offset), (end.lineno, end.col_offset)
            events = [e for e in self.scope_events(scope)
                      if opened < (e.node.lineno, e.node.col_offset) < closed]
            regions.append(TimedRegion("events", scope, end, events, open=start, assumed_sync=True))
        return regions

    def _record_before(self, name: str, scope: ast.AST, before: ast.AST) -> Optional[ast.Call]:
        found = None
        for call in self.index.calls_by_name.get("record", ()):
            func = call.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == name \
                    and self.index.scope_of(call) is scope and call.lineno <= before.lineno:
                found = call
        return found

    # -- clock pairs -------------------------------------------------------------------------------
    def _clock_regions(self, scope: ast.AST) -> list[TimedRegion]:
        events = self.scope_events(scope)
        position = {id(e.node): i for i, e in enumerate(events) if e.bits & CLOCK or self._reads_clock(e.node)}
        assigned: list[tuple[tuple[int, int], str, int]] = []  # (where, variable, event index)
        for index, event in enumerate(events):
            if event.bits & CLOCK or self._reads_clock(event.node):
                target = assigned_name(self.index.parents.get(event.node))
                if target is not None:
                    assigned.append(((event.node.lineno, event.node.col_offset), target, index))

        def latest(variable: str, before: tuple[int, int]) -> Optional[int]:
            found = [i for where, name, i in assigned if name == variable and where < before]
            return found[-1] if found else None

        regions = []
        seen: set[tuple[int, int]] = set()
        for node in sorted(self._subtractions_by_scope.get(scope, ()), key=lambda n: (n.lineno, n.col_offset)):
            if isinstance(self.index.parents.get(node), ast.Compare):
                continue  # `if time.time() - last > 30:` throttles, it does not measure
            opened, ended = clock_key(node.right), clock_key(node.left)  # start / self.start / t[0], end / ...
            if opened is None:
                continue
            where = (node.lineno, node.col_offset)
            if id(node.left) in position:
                close = position[id(node.left)]
                start = latest(opened, (node.left.lineno, node.left.col_offset))
            elif ended is not None:
                close = latest(ended, where)
                start = latest(opened, where) if close is not None else None
            else:
                continue
            if close is not None and start is not None and start > close:
                start, close = close, start  # `start_time - end_time`: subtracted the wrong way round, same region
            if close is None or start is None or start >= close or (start, close) in seen:
                continue
            if self._restarted_in_loop(events[start].node, events[close].node, opened, assigned, events):
                regions.extend(carried_region(self.index, scope, events, close, opened, assigned, node))
                continue
            seen.add((start, close))
            waits = events[close].bits & SYNC and self._reads_clock(events[close].node)  # _time(): syncs, then reads
            regions.append(TimedRegion("clock", scope, events[close].node, events[start + 1:close + (1 if waits else 0)],
                                       open=events[start].node, difference=node))
        return regions

    def _restarted_in_loop(self, start: ast.AST, close: ast.AST, variable: str, assigned: list, events: list) -> bool:
        """``end = time.time()`` before a loop whose body reads ``time.time() - end`` and then sets ``end`` again:
        the clock from before the loop times the first iteration only (with the set-up before it); every other
        iteration is timed from the restart, which is the region that counts."""
        loops = self.index.enclosing_loops(close)
        if not loops or loops[0] in self.index.ancestors(start):
            return False
        loop, after = loops[0], (close.lineno, close.col_offset)
        return any(name == variable and where > after and loop in self.index.ancestors(events[index].node)
                   for where, name, index in assigned)

    # -- notebook magics ---------------------------------------------------------------------------
    def _magic_regions(self) -> list[TimedRegion]:
        regions = []
        tree = self.index.tree
        for magic in self.magics:
            if magic.name not in ("time", "timeit"):
                continue
            if magic.is_cell:
                body = [s for s in tree.body if magic.body_first <= s.lineno <= magic.body_last]
                how = "%%" + magic.name
            else:
                body = [n.body for n in self.index.tests if isinstance(n, ast.If)
                        and n.lineno == magic.line and n.col_offset == magic.column]
                body = body[0] if body else []
                how = "%" + magic.name
            if body:
                regions.append(TimedRegion(how, tree, body[-1], self.effects.events(body), open=body[0],
                                           repeated=magic.name == "timeit", line=magic.line,
                                           column=magic.column))
        return regions

    # -- program order -----------------------------------------------------------------------------
    def first_compute_chain(self, region: TimedRegion) -> list[Event]:
        """The events that lead, call by call, to the first CUDA compute of the program ``region`` runs in."""
        return self.first_chain(region, COMPUTE)

    def first_chain(self, region: TimedRegion, bits: int) -> list[Event]:
        """The same for the first event with any of ``bits`` (WORK: the first CUDA work of any kind, which
        creates the CUDA context)."""
        info = self.flow.scopes.functions.get(region.scope)
        if info is not None and not info.called and info not in self._step_closures:
            built = info.class_info.methods.get("__init__") if info.class_info is not None else None
            before = self.effects.summary(built).events if built is not None and built is not info else []
            return self._first(before + self.effects.summary(info).events, bits, 0, set())  # (__init__ ran first:
            # a warm-up the constructor runs, self._warmup(), is before any method's clock)
        if info is None and self._method_excerpt:
            return []  # what ran before this excerpt is not in the file: no "first" to speak of
        chain = self._module_chains.get(bits)
        if chain is None:
            chain = self._module_chains[bits] = self._first(self.scope_events(self.index.tree), bits, 0, set())
        return chain

    @cached_property
    def _step_closures(self) -> set[FunctionInfo]:
        """Closures handed to ``optimizer.step(closure)``: the program runs them from where it steps, so what
        ran before that call ran before them (they are no program start of their own)."""
        found = set()
        for call in self.index.calls_by_name.get("step", ()):
            if call.args and isinstance(call.func, ast.Attribute):
                held = self.flow.scopes.held_function(call.args[0], self.index.scope_of(call))
                if held is not None:
                    found.add(held)
        return found

    @cached_property
    def _method_excerpt(self) -> bool:
        """Module-level code that calls ``self.method(...)`` without a class around it: lines cut out of a
        method (a snippet quoted in an issue), run on every call of a method whose callers the file does not
        show. (The calls are indexed already: no walk over the file.)"""
        tree, index = self.index.tree, self.index
        return any(isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name)
                   and c.func.value.id == "self" and index.scope_of(c) is tree for c in index.calls)

    def scope_events(self, scope: ast.AST) -> list[Event]:
        info = self.flow.scopes.functions.get(scope)
        if info is not None:
            return self.effects.summary(info).events
        if self._module_events is None:
            self._module_events = self.effects.events(scope.body)
        return self._module_events

    def _first(self, events: list[Event], bits: int, depth: int, visiting: set) -> list[Event]:
        for event in events:
            if not event.bits & bits or bits & COMPUTE and self._data_cast(event.node):
                continue  # (a cast of the input, x.float(), loads no kernel the timed work needs: no warm-up)
            if event.callee is None or depth >= _MAX_CALL_DEPTH or event.callee in visiting:
                return [event]
            inner = self._first(self.effects.summary(event.callee).events, bits, depth + 1,
                                visiting | {event.callee})
            return [event] + inner
        return []

    def _data_cast(self, node: ast.AST) -> bool:
        """``torch.tensor(y, device=device).float()``: a dtype or layout change of data, not a computation (a
        model's ``net.double()`` converts its weights with kernels of its own: that one counts)."""
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CASTS \
            and not node.args and not node.keywords and bool(self.kind(node.func.value) & CUDA_TENSOR)

    def trains(self, region: TimedRegion, over_loaders_only: bool = False) -> bool:
        """Does the region run a loop over a DataLoader (a training run, where start-up is noise)? Unless
        ``over_loaders_only``, also a loop of updates over batches sliced by hand (``range(0, len(X), bs)``)."""
        lines = (getattr(region.around or region.open, "lineno", 0),
                 getattr(region.around or region.close, "end_lineno", 0) or 0)
        training = self._training_loader_loops if over_loaders_only else self._loader_loops
        for loop in self._loops_by_scope.get(region.scope, ()):
            if not lines[0] <= loop.lineno <= lines[1]:
                continue
            if loop in training and (loop in self._plain_loader_loops or (loop.end_lineno or 0) <= lines[1]):
                return True  # an update loop counts only whole: a clock read inside it times one step
            if self._over_data(loop) and self._trains_in(loop):
                return True
        callees = [e.callee for e in region.events if e.callee is not None]
        return any(self._function_trains(info, set(), training, not over_loaders_only) for info in callees)

    @cached_property
    def _subtractions_by_scope(self) -> dict[ast.AST, list[ast.BinOp]]:
        return self.index.grouped_by_scope(self.index.subtractions)

    @cached_property
    def _loops_by_scope(self) -> dict[ast.AST, list[ast.AST]]:
        return self.index.grouped_by_scope(self.index.loops)

    @cached_property
    def _training_loader_loops(self) -> list[ast.AST]:
        return [loop for loop in self._plain_loader_loops if self._trains_in(loop)]

    def calls_training_run(self, region: TimedRegion, evaluation: bool = False) -> bool:
        """``model.fit(train_loader, test_loader)``, ``train(net, loader)``: a call the file does not show, named
        for training and handed a DataLoader -- a whole training run, like a visible loop over the loader.
        ``evaluation``: also a function ``predict(net, test_loader)`` / ``evaluate(...)``, a pass that hands back its
        results."""
        named = _EVALUATION_RUN if evaluation else _TRAINING_RUN
        for event in region.events:
            node = event.node
            if event.callee is None and isinstance(node, ast.Call) and (  # (a model's own predict(loader) is not:
                    _TRAINING_RUN.search(dotted(node.func) or "")  # it may hand back CUDA outputs, session 6)
                    or isinstance(node.func, ast.Name) and named.search(node.func.id)):
                if any(self.kind(argument) & LOADER or not self.kind(argument) and _LOADER_NAME.search(
                        dotted(argument) or "") for argument in list(node.args) + [k.value for k in node.keywords]):
                    return True  # (train_loader = create_dataloader(...) of the project: a loader by its name)
        return False

    @cached_property
    def _plain_loader_loops(self) -> set[ast.AST]:
        return {loop for loop in self.index.loops if self.loops.iterates_loader(loop)}

    @cached_property
    def _loader_loops(self) -> list[ast.AST]:
        """Training runs: loops over a DataLoader that train (a backward or an optimizer step in them or what they
        call), and loops whose every iteration runs ``optimizer.step()`` (a loader wrapped in a progress logger,
        batches sliced by hand). An evaluation pass over a loader timed for its throughput measures the model,
        start-up included."""
        loops = self.loops
        return [loop for loop in self.index.loops
                if (loop in self._plain_loader_loops and self._trains_in(loop))
                or (loops.steps_optimizer(loop) and loops.is_hot(loop) and not _counted(loop))]

    def _over_data(self, loop: ast.AST) -> bool:
        """``for X, y in train_iter`` with train_iter unknown (a parameter no call fills): batches of data,
        not a counted benchmark loop (``range(100)``, ``while``)."""
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            return False
        iterable = loop.iter
        while isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.args \
                and iterable.func.id in ("enumerate", "tqdm", "zip", "iter"):
            iterable = iterable.args[0]
        return isinstance(iterable, (ast.Name, ast.Attribute)) and not self.kind(iterable)

    def _trains_in(self, loop: ast.AST) -> bool:
        known = self._trains_cache.get(loop)
        if known is None:
            known = self._trains_cache[loop] = self._find_training(loop)
        return known

    def _find_training(self, loop: ast.AST) -> bool:
        events, nodes, seen = list(self.loops.iteration_events(loop)), [loop], set()
        while nodes:
            for node in ast.walk(nodes.pop()):
                if isinstance(node, ast.Call):
                    func = node.func
                    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                    if name in _TRAINING_CALLS or hands_an_optimizer(node):
                        return True
            while events and not nodes:
                callee = events.pop().callee
                if callee is not None and callee not in seen and len(seen) < _MAX_FOLLOWED:
                    seen.add(callee)
                    nodes.append(callee.node)
                    events.extend(self.effects.summary(callee).events)
        return False

    def _function_trains(self, info: FunctionInfo, visiting: set, training: list[ast.AST], epochs: bool) -> bool:
        """``epochs``: also a loop of updates on the whole data (a full-batch GCN's ``for epoch in range(n):`` of
        optimizer steps), a training run as much as one over batches."""
        if info in visiting:
            return False
        if any(loop in training or epochs and self.loops.is_step_loop(loop)
               for loop in self._loops_by_scope.get(info.node, ())):
            return True
        callees = [e.callee for e in self.effects.summary(info).events if e.callee is not None]
        return any(self._function_trains(c, visiting | {info}, training, epochs) for c in callees)


_TRAINING_CALLS = frozenset({"backward", "manual_backward", "step", "zero_grad", "clip_grad_norm_", "grad"})
_MAX_FOLLOWED = 16  # functions followed from one loader loop


def _counted(loop: ast.AST) -> bool:
    """A benchmark's loop of training steps: ``for _ in range(100)`` (constant bounds) or ``while`` -- its first,
    cold step is a large share of what it times, unlike a run over data (``range(0, len(X), batch)``, a loader)."""
    if isinstance(loop, ast.While):
        return True
    iterable = getattr(loop, "iter", None)
    return (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range"
            and all(isinstance(arg, ast.Constant) for arg in iterable.args))


_CASTS = frozenset({"float", "half", "double", "bfloat16", "long", "int", "contiguous"})
