"""Hot loops: the loops whose every iteration is a training or benchmark step.

A loop is hot when its own body (inner loops aside) runs CUDA compute and no loop inside it (nor in a
function it calls) is hot: in ``for epoch: for batch in loader: ...`` the batch loop is hot and the epoch
loop is not, so one ``.item()`` per epoch stays quiet. A loop over a DataLoader that computes is always
hot: one iteration per batch is a step, even when it calls a helper with a loop of its own. A loop over
a literal list (``for n in [256, 1024, 4096]``) is a parameter sweep, not iterations, and is never hot;
nor is a loop whose body leaves it unconditionally (``...; break``: it runs once). A walk over a model's
parameters (``for p in model.parameters(): p -= lr * p.grad``), over a few registered components or over a
CUDA tensor's elements (walks.py) is part of a step, so it does not make the loop around it per-epoch; nor does a
loop in a model's own ``forward`` (time steps, layers: one forward pass), nor any loop inside a loop whose own
body runs the update (``loss.backward()``, ``optimizer.step()``, steps.py): the per-item encodes that build the
batch belong to its step. A loop whose own body calls an RL environment's ``env.step(action)`` is hot too, whatever
loop of updates runs inside it. A host read is excused when it runs only some iterations (guards.py).
"""

from __future__ import annotations

import ast
from functools import cached_property
from typing import Optional

from advisor.lint.flow import steps
from advisor.lint.flow.effects import COMPUTE, HOST_READ, KERNEL, SYNC, Effects, Event
from advisor.lint.flow.expr_effects import expression_effect
from advisor.lint.flow.guards import BranchGuards
from advisor.lint.flow.kinds import CUDA_TENSOR, CUDA_WORKER, LOADER
from advisor.lint.flow.read_arguments import read_for_these_arguments, read_needs_other_arguments
from advisor.lint.flow.rounds import after_inner_steps
from advisor.lint.flow.scopes import FunctionInfo, call_sites
from advisor.lint.flow.sizes import TensorSizes
from advisor.lint.flow.subscript_reads import reads_by_subscript
from advisor.lint.flow.view import FlowView
from advisor.lint.flow.walks import (
    sums_loss_terms,
    sweeps_settings,
    walked_batch_result,
    walked_cuda_tensor,
    walks_a_mapping,
    walks_clusters,
    walks_few_components,
    walks_parameters,
    walks_written_items,
)
from advisor.lint.flow.while_counts import loop_iterations
from advisor.lint.index import children
from advisor.lint.names import dotted, last_identifier, named_like_loader

_MAX_DEPTH = 6


class LoopAnalysis(BranchGuards, FlowView):
    def __init__(self, view: FlowView, effects: Effects, sizes: TensorSizes) -> None:
        super().__init__(view.index, view.names, view.flow)
        self.effects = effects
        self.sizes = sizes
        self._hot: dict[ast.AST, bool] = {}
        self._sweeps: dict[ast.AST, bool] = {}
        self._function_hot: dict[FunctionInfo, bool] = {}
        self._assigned: dict[ast.AST, set[str]] = {}
        self._names: dict[ast.AST, dict[str, list[ast.Name]]] = {}
        self._iteration_events: dict[tuple, list[Event]] = {}
        self._updates: dict[ast.AST, bool] = {}

    @cached_property
    def _loops_by_scope(self) -> dict[ast.AST, list[ast.AST]]:
        return self.index.grouped_by_scope(self.index.loops)

    @cached_property
    def _children(self) -> dict[ast.AST, list[ast.AST]]:
        children: dict[ast.AST, list[ast.AST]] = {loop: [] for loop in self.index.loops}
        for loop in self.index.loops:
            around = self.index.enclosing_loops(loop)
            if around:
                children[around[0]].append(loop)
        return children

    def iteration_events(self, loop: ast.AST, stop_at_loops: bool = False) -> list[Event]:
        """What runs every iteration: a while-loop's condition, then the body."""
        key = (loop, stop_at_loops)
        if key in self._iteration_events:
            return self._iteration_events[key]
        events = []
        if isinstance(loop, ast.While):
            events = self.effects.events([loop.test])
            if self.effects.truth_sync(loop.test):
                events.append(Event(loop.test, SYNC | HOST_READ))
        events = events + self.effects.events(loop.body, stop_at_loops=stop_at_loops)
        self._iteration_events[key] = events
        return events

    def is_hot(self, loop: ast.AST) -> bool:
        known = self._hot.get(loop)
        if known is None:
            self._hot[loop] = False  # a guard against cycles through recursive functions
            known = self._hot[loop] = self._decide(loop)
        return known

    def _decide(self, loop: ast.AST) -> bool:
        if self.is_sweep(loop) or steps.runs_once(loop.body) or self.iterations(loop) == 1 \
                or steps.in_exit_branch(self.index, loop) and not self.iterates_loader(loop) \
                or walks_a_mapping(loop, self.kind) or sums_loss_terms(self.index, loop) or walks_clusters(loop) \
                or self._checks_parameters_once(loop) \
                or steps.waits_for_user(self.index, loop.body):
            return False  # (a loop in an error branch that exits -- sys.exit(), raise -- runs once at most, unless
            # it is a pass over a loader, an early stop's last validation; so does range(1): judged around it)
        events = self.iteration_events(loop, stop_at_loops=True)
        if not any(event.bits & (COMPUTE | KERNEL) for event in events):  # (a random fill is a kernel per step)
            # `for i in range(len(t)): total += t[i].item()`: one sync per element of a CUDA tensor; a batch of a
            # DataLoader moved to the GPU and read back (the model's work hidden in an inner loop or a helper)
            return (self.walks_cuda_tensor(loop) or self.iterates_loader(loop)) \
                and any(event.bits & HOST_READ for event in events) \
                and not any(self.guarded(loop, outer) for outer in self.index.enclosing_loops(loop))
            # (a walk over a tensor's rows to write them out `if i % write_interval == 0:` runs now and then)
        if self.iterates_loader(loop):
            return True  # one iteration per batch is a step, whatever else it calls
        inner = self._children.get(loop, [])
        updates = self.runs_update(loop) or any(e.callee is not None and self._steps_model(e.callee) for e in events)
        if updates and not steps.steps_environment(loop.body) and (
                self.runs_update(loop) and any(steps.steps_on_its_own(one.body) and self.is_hot(one) and (
                    self.runs_update(one) or steps.steps_environment(one.body)) for one in self._descendants(loop))
                or any(e.callee is not None and self._rolls_out(e.callee) and not self.guarded(e.node, loop)
                       for e in events)):
            return False  # a macro step after micro steps (WGAN), an update (in the body or a training_step(batch) it
            # calls) after its rollout (A2C, an episode played by a helper): per round
        if updates or steps.steps_environment(loop.body):
            return True  # its body (or a training_step(batch) it calls) runs backward() and step(), or env.step()
        if any(self.is_step_loop(one) for one in self._descendants(loop)) or steps.runs_epochs(self.index, loop) \
                or any(self.guarded(loop, outer) for outer in self.index.enclosing_loops(loop)):
            return False  # (nor a loop calling a helper with a hot loop: epochs -- unless only in a branch that leaves
            # the loop or runs now and then: an update as an episode ends, then `break`; validate() every N steps;
            # nor a walk that runs only now and then in the loop around it: `if i == 0: for k in range(n): save(...)`)
        return not any(event.callee is not None and self.function_has_hot_loop(event.callee, 0)
                       and not steps.in_exit_branch(self.index, event.node) and not self.guarded(event.node, loop)
                       for event in events + [e for one in inner for e in self.iteration_events(one, True)])

    def _steps_model(self, info: FunctionInfo) -> bool:
        """A training_step(batch) helper (steps.is_step_function), or a base class's ``step`` whose subclasses in the
        file each define one that is."""
        return any(steps.is_step_function(one.node) for one in [info, *self.flow.scopes.overrides(info)])

    def _rolls_out(self, info: FunctionInfo) -> bool:
        """``run_episode(env, policy)``: a helper whose own loop steps an environment -- an episode's rollout."""
        return any(steps.steps_environment(one.body) and self.is_hot(one)
                   for one in self._loops_by_scope.get(info.node, ()))

    def _descendants(self, loop: ast.AST) -> list[ast.AST]:
        """The loops inside ``loop`` at any depth (a PPO update's minibatch loop inside its epochs loop)."""
        found, work = [], list(self._children.get(loop, []))
        while work:
            one = work.pop()
            found.append(one)
            work.extend(self._children.get(one, []))
        return found

    def is_step_loop(self, loop: ast.AST) -> bool:
        """A hot loop that makes the loops around it per-epoch. A walk over a model's parameters or an
        optimizer's param groups (the hand-written SGD update, gradient clipping) is part of one step, not a
        loop of steps: ``for t in range(N): ...; for p in model.parameters(): p -= lr * p.grad`` is hot at t.
        Nor is a loop inside a loop whose own body runs the update: the per-item encodes that build a batch,
        the per-layer losses summed before ``loss.backward()`` are parts of that step; so is a walk over a CUDA
        tensor's elements that computes nothing (``for j in range(len(y)): c[y[j]] += ok[j].item()``)."""
        if not self.is_hot(loop) or self.walks_parameters(loop) or walks_few_components(self.index, loop) or \
                self._in_model_forward(loop) or steps.update_after(self.index, loop) \
                and not steps.steps_environment(loop.body) and not self.runs_update(loop) or \
                not any(event.bits & COMPUTE for event in self.iteration_events(loop, stop_at_loops=True)):
            return False
        around = self.index.enclosing_loops(loop)
        return not (around and (self.runs_update(around[0]) or self._walks_own_result(loop, around[0])))

    def _walks_own_result(self, loop: ast.AST, around: ast.AST) -> bool:
        """``out = model(x)`` then ``for i in range(out.shape[1]): loss = loss + criterion(out[:, i], y)``: a walk
        over the parts of what this iteration of ``around`` computed is part of its step (a loss per head)."""
        walked = self.walked_tensor(loop) or walked_batch_result(loop, self.kind)
        return isinstance(walked, ast.Name) and any(
            around in self.index.ancestors(value) and value.lineno < loop.lineno
            for value in self.index.assigned_values.get(walked.id, ()))

    def _in_model_forward(self, loop: ast.AST) -> bool:
        """A loop in an nn.Module's own ``forward`` (an RNN unrolled over time steps, a walk over layers) is
        part of one forward pass: the loop that calls the model still runs one step per iteration."""
        info = self.flow.scopes.functions.get(self.index.scope_of(loop))  # (a class's forward, whatever base of
        return info is not None and info.name == "forward" and info.class_info is not None  # another file it has)

    def runs_update(self, loop: ast.AST) -> bool:
        """Does the loop's own body (inner loops aside) run ``loss.backward()`` / ``optimizer.step()`` on CUDA?"""
        known = self._updates.get(loop)
        if known is None:  # the syntactic look first: most loops have no such call
            known = self._updates[loop] = bool(steps.update_calls(loop.body)) \
                and not steps.input_gradient_only(loop.body) \
                and steps.runs_update(self.iteration_events(loop, stop_at_loops=True))
        return known

    def steps_optimizer(self, loop: ast.AST) -> bool:
        """Does every iteration (inner loops aside) call ``optimizer.step()``? See steps.py."""
        return any(steps.named_like_optimizer(call) or self.kind(call.func.value) & CUDA_WORKER
                   for call in steps.update_calls(loop.body, steps.OPTIMIZER_STEP))

    def walks_parameters(self, loop: ast.AST) -> bool:
        return walks_parameters(self.index, loop)

    def _checks_parameters_once(self, loop: ast.AST) -> bool:
        """``for p in model.parameters(): print(p.grad.sum())`` at a script's top level or in a function no loop
        calls: one look at each parameter, once (a gradient check), not a step's walk over them."""
        if not self.walks_parameters(loop) or self.index.enclosing_loops(loop):
            return False
        return not self._maybe_called_in_loop(self.flow.scopes.functions.get(self.index.scope_of(loop)), 0)

    def _maybe_called_in_loop(self, info: Optional[FunctionInfo], depth: int) -> bool:
        """Could a loop run ``info``: a call site in a loop, or in a function a loop may run (none found: maybe)."""
        if info is None:
            return False  # the module's own statements run once
        sites = call_sites(self.index, info)
        return depth > _MAX_DEPTH or not sites or any(
            self.index.enclosing_loops(site)
            or self._maybe_called_in_loop(self.flow.scopes.functions.get(self.index.scope_of(site)), depth + 1)
            for site in sites)

    def function_has_hot_loop(self, info: FunctionInfo, depth: int) -> bool:
        known = self._function_hot.get(info)
        if known is not None or depth > _MAX_DEPTH:
            return bool(known)
        self._function_hot[info] = False
        loops = [] if self._serves_a_step(info) else self._loops_by_scope.get(info.node, [])
        found = any(self.is_step_loop(loop) for loop in loops) or any(
            event.callee is not None and self.function_has_hot_loop(event.callee, depth + 1)
            for event in self.effects.summary(info).events)
        self._function_hot[info] = found
        return found

    def _serves_a_step(self, info: FunctionInfo) -> bool:
        """``loss = self.calc_loss(batch); loss.backward()``: a helper a training loop calls in the body that runs
        the update computes part of one step; its loops (over a schema's variables, a loss's terms) are parts of
        that step, so a validation loop calling it per batch is still a loop of batches, not of epochs."""
        return any(around and self.runs_update(around[0])
                   for around in (self.index.enclosing_loops(site) for site in call_sites(self.index, info)))

    def assigned(self, node: ast.AST) -> set[str]:
        """Names and dotted names written anywhere in ``node`` (a loop: its target too)."""
        known = self._assigned.get(node)
        if known is None:
            known = set()
            stack = [node]
            while stack:
                inner = stack.pop()
                if inner.__class__ in (ast.Name, ast.Attribute) and inner.ctx.__class__ is not ast.Load:
                    key = dotted(inner)
                    if key is not None:
                        known.add(key)
                stack.extend(children(inner))
            self._assigned[node] = known
        return known

    def names_in(self, node: ast.AST) -> dict[str, list[ast.Name]]:
        """Every plain name used or written in ``node``, by identifier (cached: asked once per copy in a loop)."""
        known = self._names.get(node)
        if known is None:
            known = self._names[node] = {}
            stack = [node]
            while stack:
                inner = stack.pop()
                if inner.__class__ is ast.Name:
                    known.setdefault(inner.id, []).append(inner)
                else:
                    stack.extend(children(inner))
        return known

    def iterates_loader(self, loop: ast.AST) -> bool:
        """``for batch in loader`` (also through enumerate(), tqdm(), zip(), and through a name bound once to such a
        wrapper: ``pbar = tqdm(range(len(loader))); for _ in pbar:``, one iteration per batch)."""
        iterable = loop.iter if isinstance(loop, (ast.For, ast.AsyncFor)) else None
        return self._over_a_loader(iterable) or self._draws_from_loader(loop)

    def _over_a_loader(self, iterable: Optional[ast.AST]) -> bool:
        """Does walking ``iterable`` walk a DataLoader's batches (the loader itself, a wrapper of it, a name bound
        once to one)?"""
        if isinstance(iterable, ast.Name) and not self.kind(iterable) & LOADER:
            bound = self.index.assigned_values.get(iterable.id, [])
            iterable = bound[0] if len(bound) == 1 and isinstance(bound[0], ast.Call) else iterable
        while isinstance(iterable, ast.Call) and iterable.args and not self.kind(iterable) & LOADER:
            iterable = iterable.args[0]
        if isinstance(iterable, ast.Subscript) and isinstance(iterable.slice, (ast.Constant, ast.Name)):
            iterable = iterable.value  # loaders['test'], dataloaders[phase]: one of a dict of loaders; and by name
        named_loader = isinstance(iterable, (ast.Name, ast.Attribute)) and not self.kind(iterable) \
            and named_like_loader(last_identifier(iterable))  # (data_loader = get_dataloader(...), self.train_loader)
        return bool(self.kind(iterable) & LOADER) or named_loader

    def _draws_from_loader(self, loop: ast.AST) -> bool:
        """``loader = iter(train_data); for step in range(1, n + 1): batch = next(loader)``: one batch an iteration,
        from an iterator made before the loop (``next(iter(val_loader))`` in an epoch loop takes the first batch again
        each time: one validation batch per epoch, not a walk over the loader)."""
        return any(isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)
                   and isinstance(statement.value.func, ast.Name) and statement.value.func.id == "next"
                   and statement.value.args and isinstance(statement.value.args[0], ast.Name)
                   and statement.value.args[0].id not in self.assigned(loop)
                   and self._over_a_loader(statement.value.args[0])
                   for statement in getattr(loop, "body", []))

    def iterations(self, loop: ast.AST) -> Optional[int]:
        """The iteration count the code spells out (``range(100_000)``, ``while i < N``), else None."""
        return loop_iterations(loop, self.index, self.sizes.int_value, self.qual)

    def walks_cuda_tensor(self, loop: ast.AST) -> bool:
        """``for v in t`` / ``for i in range(len(t))`` / ``range(t.size(0))`` / ``range(t.shape[0])``, t on CUDA."""
        return self.walked_tensor(loop) is not None

    def walked_tensor(self, loop: ast.AST) -> Optional[ast.AST]:
        """The CUDA tensor ``loop`` walks (``t`` of the forms above), else None."""
        return walked_cuda_tensor(loop, self.index, self.kind)

    def is_sweep(self, loop: ast.AST) -> bool:
        """``for size in [256, 1024]``: each iteration is a separate experiment (flow/walks.py)."""
        known = self._sweeps.get(loop)
        if known is None:
            known = self._sweeps[loop] = sweeps_settings(loop, self.index, self.names.qual)
        return known

    # -- host reads ----------------------------------------------------------------------------------
    def loops_with_host_reads(self) -> list[ast.AST]:
        """Only the loops around a possible host read (or around a call that leads to one) need a closer
        look: finding them from the reads is much cheaper than walking every loop of the file."""
        index, effects = self.index, self.effects
        reads: list[ast.AST] = [n for n in index.formatted if self.kind(n.value) & CUDA_TENSOR]
        reads += [n.test for n in index.tests if effects.truth_sync(n.test)]
        reads += [c for c in index.calls if effects.call_effect_is_host_read(c)]
        reads += [n for n in index.text_formats if self.kind(n.right) & CUDA_TENSOR]
        reads += [n for n in index.subscripts if reads_by_subscript(n, self.kind, index)]
        reads += [n for n in index.truth_ops if expression_effect(n, self.kind, index) & HOST_READ]
        found: dict[ast.AST, None] = {}
        seen_functions: set = set()
        work = [(node, 0) for node in reads]
        while work:
            node, depth = work.pop()
            for loop in index.enclosing_loops(node):
                found[loop] = None
            info = self.flow.scopes.functions.get(index.scope_of(node))
            if info is None or info in seen_functions or depth > _MAX_DEPTH:
                continue
            seen_functions.add(info)
            for name in {info.name} | self.flow.scopes.names_holding(info):
                work.extend((site, depth + 1) for site in index.calls_by_name.get(name, ()))
            work.extend((site, depth + 1) for site in self.model_calls(info))  # model(x) runs forward
            work.extend((site, depth + 1) for site in index.calls_by_name.get("step", ())  # optimizer.step(closure)
                        if site.args and isinstance(site.args[0], ast.Name) and site.args[0].id == info.name)
        return sorted(found, key=lambda loop: (loop.lineno, loop.col_offset))

    def host_reads(self, loop: ast.AST) -> list[Event]:
        """Host reads of CUDA tensors that run on every iteration of ``loop``, inner loops included."""
        events = self.iteration_events(loop)
        return [e for e in events if e.bits & HOST_READ and not self.guarded(e.node, loop)
                and not after_inner_steps(self, e.node, loop)]

    def calls_with_host_reads(self, loop: ast.AST) -> list[tuple[Event, Event]]:
        """(call in the loop, host read inside the called function) for the user's functions."""
        found = []
        for event in self.iteration_events(loop):
            if event.callee is None or self.guarded(event.node, loop):
                continue
            inner = self.function_host_read(event.callee, 0, set()) \
                or read_for_these_arguments(self, event, self._every_call_events(event.callee))
            if inner is not None and not read_needs_other_arguments(self, event, inner):
                found.append((event, inner))
        return found

    def function_host_read(self, info: FunctionInfo, depth: int, visiting: set) -> Optional[Event]:
        """A host read a call to ``info`` makes every time, outside the function's own loops."""
        if depth > _MAX_DEPTH or info in visiting:
            return None
        for event in self._every_call_events(info):
            if self.guarded(event.node, info.node):
                continue
            if event.bits & HOST_READ:
                return event
            if event.callee is not None:
                inner = self.function_host_read(event.callee, depth + 1, visiting | {info})
                if inner is not None:
                    return inner
        return None

    def every_call_helper_calls(self, info: FunctionInfo) -> list[Event]:
        """The calls to the user's functions a call to ``info`` makes every time in its own body (its loops aside)."""
        return [event for event in self.effects.body_events(info, stop_at_loops=True)
                if event.callee is not None and not self.guarded(event.node, info.node)]

    def every_call_host_reads(self, info: FunctionInfo) -> list[Event]:
        """All the host reads a call to ``info`` makes every time in its own body (its loops aside)."""
        return [event for event in self._every_call_events(info)
                if event.bits & HOST_READ and not self.guarded(event.node, info.node)]

    def _every_call_events(self, info: FunctionInfo) -> list[Event]:
        """``info``'s body's events, its loops aside but one run once a call (``range(1)``, a body ending in break) and
        a walk over a handful of items written out (``for mask in [train_mask, val_mask, test_mask]``: every call
        runs each of them)."""
        once = [loop.body for loop in self._loops_by_scope.get(info.node, ()) if not self.index.enclosing_loops(loop)
                and (self.iterations(loop) == 1 or steps.runs_once(loop.body) or walks_written_items(loop))]
        return self.effects.body_events(info, True) + [e for b in once for e in self.effects.events(b, stop_at_loops=True)]
