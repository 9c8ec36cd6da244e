"""What a check may ask about one parsed file: a typed set of questions, answered from analyses computed once.

Checks ask ``ctx.is_cuda(node)``, ``ctx.callee(call)``, ``ctx.loop_is_hot(loop)``, ``ctx.timed_regions()``
... and never reach into the analyses themselves (lint/flow/), so those can change without touching a
check. The syntactic index (``ctx.index``: calls, loops, parents, scopes) and the source (``ctx.unit``)
are plain data and stay directly readable. The effect, loop and timing analyses are built lazily, on the
first question that needs them: most files never do.
"""

from __future__ import annotations

import ast
from functools import cached_property
from typing import Optional

from advisor.lint.cuda_signs import another_accelerator_only, fixed_to_cpu, shows_cuda
from advisor.lint.dead_branches import DeadLines, dead_lines, fixed_answers
from advisor.lint.flow.analyzer import analyze
from advisor.lint.flow.effects import COMPUTE, KERNEL, WORK, Effects, Event
from advisor.lint.flow.kinds import CUDA_MODEL, CUDA_TENSOR, INSTANCE_BITS
from advisor.lint.flow.loops import LoopAnalysis
from advisor.lint.flow.scopes import ClassInfo, FunctionInfo
from advisor.lint.flow.sizes import TensorSizes
from advisor.lint.flow.timeline import TimedRegion, Timings
from advisor.lint.flow.tiny_models import TinyModel
from advisor.lint.flow.view import FlowView
from advisor.lint.index import FileIndex, ScopeNode
from advisor.lint.machine import Machine
from advisor.lint.names import Names
from advisor.lint.source import SourceUnit


class FileContext:
    def __init__(self, unit: SourceUnit, tree: ast.Module, machine: Optional[Machine] = None) -> None:
        self.unit = unit
        self.tree = tree
        self.machine = machine or Machine()  # this machine's measurements, when a report was given
        self.index = FileIndex(tree)
        self.names = Names.from_nodes(self.index.imports, self.index.bound_names, self.index.assigned_values,
                                      self.index.parameters, self.index.assigns)
        self._fixed_answers = fixed_answers(self.index)
        self._view = FlowView(self.index, self.names, analyze(self.index, self.names, self._fixed_answers))
        self._flow = self._view.flow
        self._scopes = self._flow.scopes

    # -- values ------------------------------------------------------------------------------------------
    def kind(self, node: Optional[ast.AST]) -> int:
        """The data-flow pass's abstract value of an expression (flow/kinds.py bits); 0: nothing known."""
        return self._flow.values.get(node, 0) if node is not None else 0

    def is_cuda(self, node: Optional[ast.AST]) -> bool:
        """A CUDA tensor or a model on CUDA, on some path."""
        return bool(self.kind(node) & (CUDA_TENSOR | CUDA_MODEL))

    def is_cuda_tensor(self, node: Optional[ast.AST]) -> bool:
        return bool(self.kind(node) & CUDA_TENSOR)

    def qual(self, node: ast.AST) -> Optional[str]:
        """`torch.nn.functional.relu` for `F.relu`: the import path a name or attribute chain stands for."""
        return self.names.qual(node)

    @property
    def uses_cuda(self) -> bool:
        """Does anything in the file hold a CUDA device, tensor or model?"""
        return self._flow.uses_cuda

    @cached_property
    def shows_cuda(self) -> bool:
        """Does the code name CUDA, a device or a GPU-only API anywhere (or move a value with .to())? A file
        that does not is CPU code: checks of GPU costs stay silent on it. So is one that binds its devices only to
        the CPU and names no accelerator (cuda_signs.fixed_to_cpu), or picks Apple's GPU and names nothing of CUDA."""
        text = self.unit.text
        return shows_cuda(text) and not fixed_to_cpu(self.tree, text) and not another_accelerator_only(text)

    @cached_property
    def dead_lines(self) -> DeadLines:
        """Lines no run executes (``if DATA_TYPE == "double":`` with DATA_TYPE fixed to "float") and lines only a
        run without CUDA executes (the ``else:`` of ``if torch.cuda.is_available():``): findings there are hidden."""
        return dead_lines(self.index, self.qual, self._fixed_answers)

    @property
    def module_env(self) -> dict[str, int]:
        """What each module-level name holds at the end of the module."""
        return self._flow.module_env

    def numel(self, node: ast.AST) -> Optional[int]:
        """At most how many elements a tensor has, when the code spells its shape out with constants (None
        otherwise): exact for a factory, a bound for a slice or a matrix product."""
        return self._sizes.numel(node)

    def is_number(self, node: ast.AST) -> bool:
        """A Python number the code spells out or computes (``lr`` with ``lr = 1e-3``, ``loss.item()``)."""
        return self._sizes.is_number(node)

    def is_loss_module(self, func: ast.AST) -> bool:
        return self._sizes.loss_module(func)

    def optimized_tensors(self, optimizer: ast.AST) -> Optional[list[ast.AST]]:
        return self._sizes.optimized_tensors(optimizer)

    def tiny_model(self, func: ast.AST) -> Optional[TinyModel]:
        """A model built only of torch.nn layers whose sizes the code spells out (nn.Linear(2, 1), ...)."""
        return self._sizes.tiny_models.of(func)

    def optimized_tiny_model(self, optimizer: ast.AST) -> Optional[TinyModel]:
        """Such a model, when ``optimizer`` was built over its parameters."""
        return self._sizes.tiny_models.updated_by(optimizer)

    def returned_parts(self, name: str, scope: ast.AST) -> list[ast.AST]:
        """``a, b = make_batch(n)`` in ``scope``: what the file's own make_batch returns at a's place."""
        return self._sizes.returned_parts(name, scope)

    def int_value(self, node: ast.AST) -> Optional[int]:
        """A constant int the code spells out (not the default of a command-line option: checks name those)."""
        return self._sizes.int_value(node, options=False)

    # -- the user's functions -------------------------------------------------------------------------
    def scope_of(self, node: ast.AST) -> ScopeNode:
        return self.index.scope_of(node)

    def function_at(self, scope: ast.AST) -> Optional[FunctionInfo]:
        """The analysed function whose def is ``scope`` (None for the module)."""
        return self._scopes.functions.get(scope)

    def function_of(self, node: ast.AST) -> Optional[FunctionInfo]:
        """The user's function whose body holds ``node``."""
        return self._scopes.functions.get(self.index.scope_of(node))

    def resolve(self, name: str, scope: ast.AST) -> Optional[FunctionInfo | ClassInfo]:
        """The def or class a bare name refers to from ``scope``."""
        return self._scopes.resolve(name, scope)

    def returned(self, info: FunctionInfo) -> list[ast.AST]:
        """What the function's own ``return`` statements hand back (bare returns aside)."""
        return self._scopes.returned(info)

    def class_of_method(self, node: ast.AST) -> Optional[ClassInfo]:
        """The user's class whose method holds ``node`` (its ``__init__``, ``forward``...), if any."""
        info = self.function_of(node)
        return info.class_info if info is not None else None

    def classes_of(self, kind: int) -> list[ClassInfo]:
        """The user's classes a value of this kind may be an instance of."""
        return self._scopes.classes_of(kind)

    def instances_on_cuda(self, cls: ClassInfo) -> bool:
        """Is some instance of the user's class moved to CUDA (``Net().to(device)``, ``model.cuda()``)?"""
        return cls.instance_bit != 0 and any(kind & cls.instance_bit and kind & CUDA_MODEL
                                             for kind in self._flow.values.values())

    def callees(self, call: ast.Call) -> list[FunctionInfo]:
        """The user's functions a call may run: a def by name, a name bound to one (``step = make_step()``),
        ``self.method()``, a method of an instance of the user's class, a class's ``__init__``."""
        func, scope = call.func, self.index.scope_of(call)
        if isinstance(func, ast.Name):
            found = self._scopes.resolve(func.id, scope)
            if isinstance(found, ClassInfo):
                init = found.methods.get("__init__")
                return [init] if init is not None else []
            if found is None:  # a name bound to a function, or to one of several (extract_fn)
                return list(self._scopes.held_functions(func, scope))
            return [found] if isinstance(found, FunctionInfo) else []
        if not isinstance(func, ast.Attribute):
            return []
        if isinstance(func.value, ast.Name) and func.value.id == "self":
            method = self._scopes.method_of(scope, func.attr)
            if method is not None:
                return [method, *self._scopes.overrides(method)]
        receiver = self.kind(func.value)
        if not receiver and isinstance(func.value, ast.Name):
            return self._scopes.duck_typed_methods(func.value.id, func.attr, scope)
        if not receiver & INSTANCE_BITS:
            return []
        return [c.methods[func.attr] for c in self._scopes.classes_of(receiver) if func.attr in c.methods]

    def callee(self, call: ast.Call) -> Optional[FunctionInfo]:
        """The one user's function a call runs, if there is exactly one."""
        found = self.callees(call)
        return found[0] if len(found) == 1 else None

    def held_function(self, node: ast.AST) -> Optional[FunctionInfo]:
        """The user's function an expression evaluates to (``closure`` in ``opt.step(closure)``)."""
        return self._scopes.held_function(node, self.index.scope_of(node))

    def calls_in(self, scope: ast.AST) -> list[ast.Call]:
        """The calls written directly in a function's (or the module's) body, nested defs aside."""
        return self._calls_by_scope.get(scope, [])

    def assigns_in(self, scope: ast.AST) -> list[ast.AST]:
        """The assignments (=, +=, annotated) written directly in a function's or the module's body."""
        return self._assigns_by_scope.get(scope, [])

    def call_sites(self, info: FunctionInfo) -> list[ast.Call]:
        """Calls in the file that run ``info``."""
        names = {info.name} | self._scopes.names_holding(info)
        sites = [call for name in names for call in self.index.calls_by_name.get(name, ())]
        return [call for call in sites if info in self.callees(call)]

    def model_calls(self, info: FunctionInfo) -> list[ast.Call]:
        """``model(images)`` calls that run a model class's ``forward`` (call_sites leaves them out)."""
        return self._loops.model_calls(info)

    # -- loops -------------------------------------------------------------------------------------------
    def enclosing_loops(self, node: ast.AST) -> list[ast.AST]:
        """Loops around ``node`` in its own function, innermost first (a for-loop's iterable is outside)."""
        return self.index.enclosing_loops(node)

    def walks_cuda_tensor(self, loop: ast.AST) -> bool:
        """``for v in t`` / ``for i in range(t.size(0))`` with ``t`` on CUDA: as many iterations as ``t`` has rows."""
        return self._loops.walks_cuda_tensor(loop)

    def loop_runs_update(self, loop: ast.AST) -> bool:
        """Does every iteration run backward() / optimizer.step() (a training step)?"""
        return self._loops.runs_update(loop)

    def runs_on_some_iterations(self, node: ast.AST, loop: ast.AST) -> bool:
        """Is ``node`` under a branch of ``loop`` that runs only sometimes (every N steps, on a new best, once)?"""
        return self._loops.guarded(node, loop)

    def loop_is_hot(self, loop: ast.AST) -> bool:
        """Is every iteration a training or benchmark step (CUDA compute, no hot loop inside)?"""
        return self._loops.is_hot(loop)

    def loop_iterations(self, loop: ast.AST) -> Optional[int]:
        """The iteration count the code spells out (``range(100_000)``), else None."""
        return self._loops.iterations(loop)

    def is_sweep(self, loop: ast.AST) -> bool:
        """``for n in [256, 1024]``: separate experiments, not iterations of one."""
        return self._loops.is_sweep(loop)

    def iterates_loader(self, loop: ast.AST) -> bool:
        return self._loops.iterates_loader(loop)

    def assigned_in(self, node: ast.AST) -> set[str]:
        """Names and dotted names written anywhere in ``node`` (a loop: its target too)."""
        return self._loops.assigned(node)

    def names_in(self, node: ast.AST) -> dict[str, list[ast.Name]]:
        """Every plain name used or written in ``node`` (a loop), by identifier."""
        return self._loops.names_in(node)

    def iteration_events(self, loop: ast.AST) -> list[Event]:
        """What one iteration does to the GPU, in order (inner loops included)."""
        return self._loops.iteration_events(loop)

    def function_events(self, info: FunctionInfo) -> list[Event]:
        """What one call of the user's function does to the GPU, in order (its body's events)."""
        return self._effects.summary(info).events

    def loops_with_host_reads(self) -> list[ast.AST]:
        return self._loops.loops_with_host_reads()

    def host_reads(self, loop: ast.AST) -> list[Event]:
        """Host reads of CUDA tensors on every iteration of ``loop`` (not only some: `if step % 100 == 0`)."""
        return self._loops.host_reads(loop)

    def every_call_helper_calls(self, info: FunctionInfo) -> list[Event]:
        """The calls to the user's functions a call to it makes every time (its own loops aside)."""
        return self._loops.every_call_helper_calls(info)

    def helper_host_read(self, info: FunctionInfo) -> Optional[Event]:
        """A host read a call to the user's function makes every time, in it or in a function it calls."""
        return self._loops.function_host_read(info, 0, set())

    def every_call_host_reads(self, info: FunctionInfo) -> list[Event]:
        """Each host read a call to the user's function makes every time (its own loops aside)."""
        return self._loops.every_call_host_reads(info)

    def calls_with_host_reads(self, loop: ast.AST) -> list[tuple[Event, Event]]:
        """(call in the loop, the host read it makes every time) for calls into the user's functions."""
        return self._loops.calls_with_host_reads(loop)

    def condition_read(self, test: ast.AST) -> ast.AST:
        """The part of a condition that reads a CUDA tensor: ``loss > 2`` in ``step > 3 and loss > 2``."""
        return self._effects.truth_read(test)

    # -- timings -----------------------------------------------------------------------------------------
    def timed_regions(self, carried: bool = False) -> list[TimedRegion]:
        """Where the program reads a host clock around GPU work (clock pairs, timeit, %time magics). ``carried``:
        also the regions timed across a loop's back edge (regions.carried_region), which only say whether the clock
        waits for the GPU: nothing runs first in them, and what they read is read in the loop anyway."""
        return [r for r in self._timings.regions if carried or not r.carried]

    def region_trains(self, region: TimedRegion, over_loaders_only: bool = False) -> bool:
        """Does the timed region run a loop over a DataLoader (a training run, where start-up is noise)? Unless
        ``over_loaders_only``, also a loop of optimizer steps over batches sliced by hand."""
        return self._timings.trains(region, over_loaders_only)

    def region_calls_training_run(self, region: TimedRegion, evaluation: bool = False) -> bool:
        """Does it call, handing it a DataLoader, a training function the file does not show (``model.fit(loader)``)?
        ``evaluation``: or an evaluation pass of another module (``predict(net, test_loader)``), which hands back its
        results: read back to the host before it returns."""
        return self._timings.calls_training_run(region, evaluation)

    def first_compute(self, region: TimedRegion) -> list[Event]:
        """Call by call, the way to the first CUDA computation of the program the region runs in."""
        return self._timings.first_compute_chain(region)

    def first_work(self, region: TimedRegion) -> list[Event]:
        """The same for the first CUDA work of any kind (a copy, a factory: what creates the context)."""
        return self._timings.first_chain(region, WORK)

    def first_kernel(self, region: TimedRegion) -> list[Event]:
        """The same for the first kernel: a computation, or a factory that fills memory on the device."""
        return self._timings.first_chain(region, COMPUTE | KERNEL)

    # -- the analyses, built on first use ----------------------------------------------------------------
    @cached_property
    def _calls_by_scope(self) -> dict[ast.AST, list[ast.Call]]:
        return self.index.grouped_by_scope(self.index.calls)

    @cached_property
    def _assigns_by_scope(self) -> dict[ast.AST, list[ast.AST]]:
        return self.index.grouped_by_scope(self.index.assigns)

    @cached_property
    def _sizes(self) -> TensorSizes:
        return TensorSizes(self.names, self.index)

    @cached_property
    def _effects(self) -> Effects:
        return Effects(self.index, self.names, self._flow)

    @cached_property
    def _loops(self) -> LoopAnalysis:
        return LoopAnalysis(self._view, self._effects, self._sizes)

    @cached_property
    def _timings(self) -> Timings:
        return Timings(self._view, self._effects, self._loops, self.unit.magics)
