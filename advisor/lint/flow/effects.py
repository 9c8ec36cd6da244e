"""What each expression does to the GPU: queue work, queue compute, wait for it (sync), read a host clock.

CUDA calls return as soon as the work is queued; a sync (``torch.cuda.synchronize()``, an event's or a
stream's ``synchronize()``, or any host read of a CUDA tensor: ``.item()``, ``.cpu()``, ``print(t)``,
``if t:``) waits until everything queued before it has finished. ``events()`` lists the effects of a
body in evaluation order (operands before the call, the condition before the branch); nested functions
and lambdas are not run where they are written, so they are left out. A call into one of the user's
functions has the effect of that function's body (its summary).
"""

from __future__ import annotations

import ast
from functools import reduce
from operator import or_
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.analyzer import FlowResult
from advisor.lint.flow.events import CLOCK, COMPUTE, HOST_READ, KERNEL, SYNC, WORK, Event, Summary
from advisor.lint.flow.expr_effects import expression_effect
from advisor.lint.flow.kinds import (
    CONTAINER,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_MODEL,
    CUDA_TENSOR,
    CUDA_WORKER,
    DTYPE,
    EVENT,
    INSTANCE_BITS,
    MODEL,
    NUMPY,
)
from advisor.lint.flow.literals import came_from_generate, is_text, makes_a_pil_image
from advisor.lint.flow.loggers import logs_cuda, run_logger
from advisor.lint.flow.name_effects import NameCallEffects
from advisor.lint.flow.scopes import FunctionInfo
from advisor.lint.flow.truth import truth_read, truth_sync
from advisor.lint.flow.view import FlowView
from advisor.lint.flow.walks import walks_a_mapping, walks_parameters
from advisor.lint.index import FileIndex, children
from advisor.lint.names import Names
from advisor.lint.torch_factories import torch_factory

# Not run where written (definitions), or nothing in them can touch the GPU (leaves, imports).
_NOTHING_INSIDE = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Name,
                             ast.Constant, ast.Pass, ast.Break, ast.Continue, ast.Import, ast.ImportFrom,
                             ast.Global, ast.Nonlocal})
_COMPREHENSIONS = frozenset({ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp})
_SPECIAL = _COMPREHENSIONS | {ast.For, ast.AsyncFor, ast.While, ast.If, ast.IfExp, ast.Assert, ast.Assign, ast.AugAssign}
_EMITTING = frozenset({ast.Call, ast.BinOp, ast.Compare, ast.UnaryOp, ast.FormattedValue, ast.Subscript, ast.BoolOp})
_CASTS = frozenset({"half", "double", "bfloat16"})
_NOT_RUNNERS = frozenset({"torch", "copy", "pickle", "json", "os", "logging", "wandb", "mlflow", "tensorboardX",
                          "torchinfo", "thop", "onnx", "accelerate"})


class Effects(NameCallEffects, FlowView):
    def __init__(self, index: FileIndex, names: Names, flow: FlowResult) -> None:
        super().__init__(index, names, flow)
        self._summaries: dict[FunctionInfo, Summary] = {}
        self._in_progress: set[FunctionInfo] = set()
        self._stop_at_loops = False
        self._statement_events: dict[tuple[ast.AST, bool], list[Event]] = {}
        self._predictors: dict[str, bool] = {}  # name -> a predictor library's object placed on CUDA
        # statements with a loop inside (or that are loops): the only ones stop_at_loops changes
        self._holds_loops: set[ast.AST] = set(index.loops)
        for loop in index.loops:
            self._holds_loops.update(a for a in index.ancestors(loop) if isinstance(a, ast.stmt))

    # -- walking -----------------------------------------------------------------------------------
    def events(self, nodes: list[ast.AST], stop_at_loops: bool = False) -> list[Event]:
        """Effects of ``nodes`` in evaluation order; ``stop_at_loops`` leaves out the bodies of inner loops."""
        out: list[Event] = []
        saved, self._stop_at_loops = self._stop_at_loops, stop_at_loops
        try:
            for node in nodes:
                if isinstance(node, ast.stmt):  # loops, summaries and timings walk the same statements
                    key = (node, stop_at_loops and node in self._holds_loops)
                    cached = self._statement_events.get(key)
                    if cached is None:
                        cached = self._statement_events[key] = []
                        self._walk(node, cached)
                    out.extend(cached)
                else:
                    self._walk(node, out)
        finally:
            self._stop_at_loops = saved
        return out

    def _walk(self, node: ast.AST, out: list[Event]) -> None:
        cls = node.__class__
        if cls in _NOTHING_INSIDE:
            return
        if cls not in _SPECIAL:
            for child in children(node):
                self._walk(child, out)
            if cls in _EMITTING:
                self._emit(node, out)
            return
        if isinstance(node, (ast.For, ast.AsyncFor)):
            self._walk(node.iter, out)
            if not self._stop_at_loops or walks_a_mapping(node, self.kind) or walks_parameters(self.index, node):
                # (a step's dict of losses, a walk over the model's parameters: part of the step)
                self._walk_all(node.body + node.orelse, out)
        elif isinstance(node, ast.While) and self._stop_at_loops:
            return
        elif isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            self._walk(node.test, out)
            if self.truth_sync(node.test):
                out.append(Event(node.test, SYNC | HOST_READ))
            for name in ("body", "orelse", "msg"):
                part = getattr(node, name, None)
                if isinstance(part, list):
                    self._walk_all(part, out)
                elif part is not None:
                    self._walk(part, out)
        elif isinstance(node, ast.Assign):
            self._walk(node.value, out)
            self._walk_all(node.targets, out)
        elif cls in _COMPREHENSIONS:  # the items are drawn before each element is built
            for part in node.generators + ([node.key, node.value] if cls is ast.DictComp else [node.elt]):
                self._walk(part, out)
        elif isinstance(node, ast.AugAssign):
            self._walk(node.value, out)
            target = node.target
            while isinstance(target, ast.Subscript):  # counts[t.item()] += 1, m[a][b] += 1: the indices are read
                self._walk(target.slice, out)
                self._emit(target, out)  # confusion[t, p] += 1 of a numpy array: t and p are read too
                target = target.value
            if self.kind(node.target) & CUDA_TENSOR:
                out.append(Event(node, WORK | COMPUTE))

    def _walk_all(self, nodes: list[ast.AST], out: list[Event]) -> None:
        if nodes and isinstance(nodes[0], ast.stmt):
            out.extend(self.events(nodes, self._stop_at_loops))
            return
        for node in nodes:
            self._walk(node, out)

    def _emit(self, node: ast.expr, out: list[Event]) -> None:
        if isinstance(node, ast.Call):
            bits, callee = self.call_effect(node)
            if bits:
                out.append(Event(node, bits, callee))
        else:
            bits = expression_effect(node, self.kind, self.index)
            if bits:
                out.append(Event(node, bits))

    def truth_sync(self, test: ast.AST) -> bool:
        """Python asks a CUDA tensor for its truth value: the host waits for the GPU (flow/truth.py)."""
        return truth_sync(test, self.kind, self.index)

    def truth_read(self, test: ast.AST) -> ast.AST:
        return truth_read(test, self.kind, self.index)

    # -- one call ----------------------------------------------------------------------------------
    def call_effect_is_host_read(self, call: ast.Call) -> bool:
        """Cheap pre-filter: could this call be a host read of a CUDA tensor?"""
        func = call.func
        if isinstance(func, ast.Attribute):
            if func.attr == "format" or func.attr in api.HOST_SYNC_METHODS or api.reads_what_it_is_handed(func):
                return True
            if func.attr in ("to", "type", "type_as"):  # (.to("cpu"), .type(torch.FloatTensor), .type_as(cpu_t))
                return bool(self.kind(func.value) & CUDA_TENSOR)
            if func.attr == "copy_":  # host.copy_(d): the GPU data read back into host memory
                return bool(self.kind(func.value) & CPU_TENSOR) and self._cuda_argument(call)
        elif isinstance(func, ast.Name) and func.id in api.SYNC_BUILTINS:
            return any(self.kind(argument) & CUDA_TENSOR for argument in call.args)
        if not call.args or not (self._cuda_argument(call) or any(self.kind(k.value) & CUDA_TENSOR for k in call.keywords)):
            return False  # math.isfinite(loss), wandb.log({...}), random.choices(a, weights=p): only with a CUDA tensor
        name = self.qual(func) or run_logger(self.index, self.qual, func) or ""
        return name.startswith(api.HOST_VALUE_MODULES) or name in api.LOGGING_FUNCTIONS \
            or makes_a_pil_image(call, self.qual)

    def call_effect(self, call: ast.Call) -> tuple[int, Optional[FunctionInfo]]:
        func = call.func
        qualified = self.qual(func) or run_logger(self.index, self.qual, func)
        if qualified in api.CLOCKS:
            return CLOCK, None
        if qualified in api.SYNC_FUNCTIONS or (isinstance(func, ast.Attribute) and func.attr == "synchronize"):
            return SYNC, None
        value = self.kind(call)
        if makes_a_pil_image(call, self.qual) and self._cuda_argument(call):
            return SYNC | HOST_READ, None  # transforms.ToPILImage()(out[0]): the image is copied back to make it
        if qualified is not None:
            if qualified in api.LEGACY_CUDA_CONSTRUCTORS:  # torch.cuda.FloatTensor(array): a blocking copy of the
                # host data, which waits for the stream (copy_ synchronizes when non_blocking is False); of sizes: a fill
                copies = len(call.args) == 1 and self.kind(call.args[0]) & (NUMPY | CPU_TENSOR | CONTAINER)
                return WORK | (SYNC if copies else 0), None
            if qualified in api.PASSTHROUGH_CALLS:
                return 0, None  # Variable(x.cuda()): the wrapper computes nothing (the copy inside is its own event)
            if qualified in api.RUNS_ITS_ARGUMENTS and any(
                    self.kind(a) & (CUDA_TENSOR | CUDA_MODEL) for a in list(call.args) + [k.value for k in call.keywords]):
                return WORK | COMPUTE, None  # torch.jit.trace(model, x) runs model(x): a warm-up
            if qualified.startswith("torch.cuda.") or qualified in api.DEVICE_CONSTRUCTORS:
                return 0, None
            if qualified.startswith(api.HOST_VALUE_MODULES) and any(
                    self.kind(a) & CUDA_TENSOR and not self.kind(a) & CONTAINER
                    for a in list(call.args) + [k.value for k in call.keywords]):
                return SYNC | HOST_READ, None  # math.isfinite(loss): the tensor becomes a Python float
            if qualified in api.LOGGING_FUNCTIONS and logs_cuda(self.qual, self.kind, call):
                return SYNC | HOST_READ, None  # wandb.log({"loss": loss})
            last = qualified.rsplit(".", 1)[-1]
            if not qualified.startswith("torch.") and (api.WRITES_OUT.match(last) or api.TO_HOST.match(last)) \
                    and self._cuda_argument(call):
                return SYNC, None  # (as in _name_effect: a writer, or a converter to host data, the file imports)
            if value & CUDA_TENSOR:
                if torch_factory(qualified) and not (
                        last in api.SAMPLING_FACTORIES and self._cuda_argument(call)):  # bernoulli(p) computes
                    return (WORK if last in api.NON_FILLING_FACTORIES else WORK | KERNEL), None
                if not qualified.startswith("torch.") and self._placed_data(call):
                    return WORK, None  # get_batch(split, device): data placed on the device, nothing computed
                return WORK | COMPUTE | (SYNC if qualified in api.SYNCING_LINALG else 0), None
            return (WORK if value & CUDA_MODEL else 0), None
        if isinstance(func, ast.Attribute):
            return self._method_effect(call, func, value)
        if isinstance(func, ast.Name):
            return self._name_effect(call, func, value)
        return (WORK | COMPUTE if value & CUDA_TENSOR else 0), None

    def _placed_data(self, call: ast.Call) -> bool:
        """Handed a CUDA device and no CUDA tensor or model: what comes back was put there, not computed."""
        every = self._arguments_kind(call)
        return bool(every & CUDA_DEVICE) and not every & (CUDA_TENSOR | CUDA_MODEL)

    def _arguments_kind(self, call: ast.Call) -> int:
        return reduce(or_, (self.kind(a) for a in list(call.args) + [k.value for k in call.keywords]), 0)

    def _cuda_argument(self, call: ast.Call) -> bool:
        """A CUDA tensor (or, for a logger, a dict or list holding one) among the positional arguments."""
        return any(self.kind(a) & CUDA_TENSOR for a in call.args)

    def _method_effect(self, call: ast.Call, func: ast.Attribute, value: int) -> tuple[int, Optional[FunctionInfo]]:
        attr = func.attr
        if api.reads_what_it_is_handed(func) and logs_cuda(self.qual, self.kind, call) and not (
                func.attr in api.DECODERS and call.args and came_from_generate(call.args[0], self.index)):
            return SYNC | HOST_READ, None  # writer.add_scalar("loss", loss, step); not decode(generate()'s ids)
        if attr == "format" and is_text(func.value):  # "{:.4f}".format(loss)
            return (SYNC | HOST_READ if self._arguments_kind(call) & CUDA_TENSOR else 0), None
        receiver = self.kind(func.value)
        if attr in ("item", "tolist") and receiver & CUDA_MODEL and isinstance(func.value, ast.Attribute):
            return SYNC | HOST_READ, None  # model.scale.item(): only a tensor has .item(): a parameter on the GPU
        if attr == "copy_" and (receiver | self._arguments_kind(call)) & CUDA_TENSOR:
            return self._copy_effect(call, receiver), None  # h.copy_(d) / d.copy_(h): no computation
        if api.host_side_method(attr, on_a_list=bool(receiver & CONTAINER)):
            return 0, None  # accs.append(acc) of a list of CUDA tensors, results.pandas(): no kernel
        if receiver & CUDA_TENSOR:
            if attr == "numpy":
                return 0, None  # t.numpy() of a CUDA tensor raises instead of copying: a bug, not a slow read
            if attr in api.HOST_SYNC_METHODS or attr in ("to", "type", "type_as") and value & CPU_TENSOR \
                    and not value & CUDA_TENSOR:
                return SYNC | HOST_READ, None  # (.to("cpu") and .type(torch.FloatTensor) copy back too)
            if attr == "cuda" or attr == "to" and not any(self.kind(a) & DTYPE for a in call.args) \
                    and not any(k.arg == "dtype" for k in call.keywords):  # (.to(torch.half): a cast kernel)
                if receiver & CPU_TENSOR and not receiver & CUDA_TENSOR and not any(
                        k.arg == "non_blocking" for k in call.keywords):
                    return WORK | SYNC, None  # a blocking host-to-GPU copy: copy_ waits for the stream to finish it
                return (WORK if receiver & CPU_TENSOR else 0), None  # of a tensor on the CPU on some path a copy
            if attr in api.NON_TENSOR_METHODS and attr != "backward" or attr in api.VIEW_METHODS \
                    or attr in api.MODEL_QUIET_METHODS:  # (a view: x.t() launches nothing; torch.load(p).eval()
                return 0, None  # of what the pass took for a tensor is a module's set-up)
            return WORK | COMPUTE, None
        if attr in ("item", "cpu", "tolist") and receiver == 0 and not call.args and self.flow.default_cuda:
            return SYNC | HOST_READ, None  # under torch.set_default_device("cuda") a tensor of unknown origin is on it
        method = self._own_method(receiver, attr)  # transformer.training_step(batch): the file's own code runs
        if method is not None:
            return self.summary(method).bits, method
        if not receiver and isinstance(func.value, ast.Name):  # agent.choose_action(obs), `agent` a parameter
            methods = self.flow.scopes.duck_typed_methods(func.value.id, attr, self.index.scope_of(call))
            if methods:  # (one of the classes named for it: what any of them may do)
                return reduce(or_, (self.summary(m).bits for m in methods), 0), methods[0]
        if receiver & (CUDA_MODEL | MODEL) and not receiver & (CUDA_TENSOR | CPU_TENSOR):
            if attr in api.MODEL_QUIET_METHODS:
                return 0, None
            if attr in _CASTS and receiver & CUDA_MODEL and not call.args:  # model.double() on the GPU: a kernel
                return WORK | KERNEL, None  # per parameter (CUDA is warm after it); .float() is mostly a no-op
            if attr in ("to", "cuda", "cpu", "half", "float", "double", "bfloat16"):
                return (WORK if value & CUDA_MODEL else 0), None
            if receiver & CUDA_MODEL and (self._text_only(call) or attr == "generate" or attr in api.MODEL_HOST_RESULT_METHODS
                                          or api.RAW_INPUT_METHOD.search(attr)
                                          and not self._arguments_kind(call) & (CUDA_TENSOR | CPU_TENSOR)):
                return WORK | COMPUTE | SYNC, None  # .translate(t), .transcribe(a): host data back; .generate: per token
            if value & CUDA_TENSOR or self._cuda_argument(call) or any(
                    self.kind(k.value) & CUDA_TENSOR for k in call.keywords):
                return WORK | COMPUTE, None
            if receiver & CUDA_MODEL:  # model.configure_optimizers(wd, lr, ...): set-up, no computation
                return (WORK if api.MODEL_SETUP_METHOD.match(attr) else WORK | COMPUTE), None
        if receiver & CUDA_WORKER and attr not in api.WORKER_QUIET_METHODS:
            closure = self._closure(call, attr)  # optimizer.step(closure) runs the closure
            if closure is not None:
                return WORK | COMPUTE | self.summary(closure).bits, closure
            return WORK | COMPUTE, None
        if receiver & EVENT:
            return 0, None
        if isinstance(func.value, ast.Name) and func.value.id == "self":
            method = self.flow.scopes.method_of(self.index.scope_of(call), attr)
            if method is not None:
                return self.summary(method).bits, method
        if attr in ("to", "cuda"):
            return (WORK if value & (CUDA_TENSOR | CUDA_MODEL) else 0), None
        runs = value & CUDA_TENSOR or not receiver and self._runs_the_model(call)
        return (WORK | COMPUTE if runs else 0), None

    def _runs_the_model(self, call: ast.Call) -> bool:
        """``diffusion.sample_ddpm(model, shape, device, y)``, ``engine.evaluate(model, loader)``: a method of an
        object the file knows nothing of, handed the CUDA model (or a model it knows nothing of and a device that may
        be CUDA), runs it (not torch's nor Python's own modules: torch.save(model), copy.deepcopy(model))."""
        module = (self.qual(call.func) or "").split(".", 1)[0]
        handed = self._arguments_kind(call)
        return module not in _NOT_RUNNERS and bool(handed & CUDA_MODEL or handed & CUDA_DEVICE and any(
            isinstance(a, ast.Name) and not self.kind(a) and api.MODEL_NAME_HINT.search(a.id) for a in call.args))

    def _copy_effect(self, call: ast.Call, receiver: int) -> int:
        """``d.copy_(h)`` of a CUDA tensor from host memory is a blocking copy (it waits for the stream, as ``h.cuda()``
        does) unless non_blocking=True; ``h.copy_(d)`` into a host tensor reads the GPU data back, like ``d.cpu()``."""
        source = self._arguments_kind(call)
        one_way = not (receiver & source & (CUDA_TENSOR | CPU_TENSOR))  # (a tensor whose device the pass knows)
        if not one_way or any(k.arg == "non_blocking" for k in call.keywords):
            return WORK
        if receiver & CUDA_TENSOR and source & CPU_TENSOR:
            return WORK | SYNC
        return WORK | SYNC | HOST_READ if receiver & CPU_TENSOR and source & CUDA_TENSOR else WORK

    def _own_method(self, receiver: int, attr: str) -> Optional[FunctionInfo]:
        """A method of the file's own class, found by name -- not its forward (a model call, which the model
        branch reads as a forward) nor the nn.Module methods it inherits."""
        if not receiver & INSTANCE_BITS or attr in ("forward", "__call__"):
            return None
        return next((info.methods[attr] for info in self.flow.scopes.classes_of(receiver) if attr in info.methods),
                    None)

    def _closure(self, call: ast.Call, attr: str) -> Optional[FunctionInfo]:
        if attr != "step" or not call.args:
            return None
        return self.flow.scopes.held_function(call.args[0], self.index.scope_of(call))

    # -- the user's functions ----------------------------------------------------------------------
    def body_events(self, info: FunctionInfo, stop_at_loops: bool = False) -> list[Event]:
        """What a call to ``info`` does: its body's events, then -- ``self.step(...)`` of a base class runs the step
        a subclass of the file defines -- a call into each method of the file's subclasses that replaces it."""
        return self.events(info.node.body, stop_at_loops) + [
            Event(o.node, self.summary(o).bits, o) for o in self.flow.scopes.overrides(info)]

    def summary(self, info: FunctionInfo) -> Summary:
        cached = self._summaries.get(info)
        if cached is not None:
            return cached
        if info in self._in_progress:  # recursion: assume nothing rather than loop
            return Summary()
        self._in_progress.add(info)
        events = self.body_events(info)
        self._in_progress.discard(info)
        bits = reduce(or_, (event.bits & (WORK | COMPUTE) for event in events), 0)
        last_work = max((at for at, event in enumerate(events) if event.bits & WORK), default=-1)
        last_sync = max((at for at, event in enumerate(events) if event.bits & SYNC), default=-1)
        if last_sync >= 0 and last_sync >= last_work:
            bits |= SYNC
        summary = Summary(bits, events)
        self._summaries[info] = summary
        return summary
