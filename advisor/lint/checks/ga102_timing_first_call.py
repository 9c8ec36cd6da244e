"""GA102: the timed region runs the program's first CUDA computation: no warm-up.

Reported at the first CUDA call inside the region (the copy or model move that creates the context, or
the first computation).

Must match:   x = torch.load("x.pt").cuda(); t0 = time.perf_counter(); y = x @ x;
              torch.cuda.synchronize(); print(time.perf_counter() - t0)       (a copy is not a computation)
              t0 = time.time(); model.to("cuda"); out = model(x); print(time.time() - t0)
              t0 = time.time(); out = model(x); torch.cuda.synchronize(); ...   (model made elsewhere: a snippet)
              opt = model.configure_optimizers(wd, lr); t0 = time.time(); while True: loss = model(X) ...
              t1 = time.time(); dt = t1 - t0; t0 = t1      (a set-up method computes nothing: no warm-up)
              start = time.perf_counter(); preds = predict(model, val_loader); ...   (an evaluation pass over
              a DataLoader, no backward: timed for throughput, it measures the model)
              @timeit def run(): model.cuda(); model(x) ...   (a decorator whose wrapper times the call of
              the function it wraps: the region is run's body; reported at its first CUDA call)
              net = Detector(); net.to("cuda"); print(net); t0 = ...; net(x)   (print() does not run a model)
              x = torch.rand(64, 3, 224, 224, device="cuda"); t0 = ...; y = net(x)   (a fill warms no cuBLAS/cuDNN)
Must not:     the same with `for _ in range(3): x @ x` (a warm-up) before t0; a computation before t0, or a
              filling factory (torch.randn(..., device="cuda")) before elementwise work, also torch.jit.trace(model, x) or
              torch.onnx.export(model, x, ...) on CUDA (they run the model); timeit.repeat / %timeit (runs kept apart); a
              timed training run over a DataLoader (backward or an optimizer step in the loop or what it
              calls: start-up is noise next to an epoch); the snippet case with
              model(x) run before t0, or with no synchronize() closing the region; a clock pair read on every
              iteration of a counted loop whose cold times are dropped (`if i >= warmup: times.append(t)`,
              times[1:], or a median / minimum of them); a job timed in minutes (elapsed // 60); a closure
              handed to optimizer.step() timed after a forward (or model.double() of a CUDA model) before the
              loop that steps.
"""

from __future__ import annotations

import ast
import builtins
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.common import short, where
from advisor.lint.checks.library_training import trained_before
from advisor.lint.checks.measured_time import (
    drops_cold_runs,
    handed_function_ran_before,
    starts_after_warmup,
    times_a_job,
    totals_training_steps,
    warmed_up_by_a_call,
)
from advisor.lint.flow import COMPUTE, CUDA_MODEL, HOST_READ, KERNEL, MODEL, SYNC, WORK
from advisor.lint.model import CheckDoc, CheckInfo, Hit
from advisor.lint.names import last_identifier

DOC = CheckDoc(
    what=("Finds a timed region that runs the program's first CUDA computation, with no warm-up before the "
          'clock starts -- also when the file does not show that the work is on CUDA (a snippet whose model is '
          'made elsewhere) but the region ends with torch.cuda.synchronize(). Tracing or exporting a model on '
          'CUDA inputs before the clock (torch.jit.trace, torch.onnx.export) runs it, so it counts as a warm-up. '
          'A timed training run over a DataLoader is left alone (start-up is noise next to an epoch); a timed '
          'evaluation pass over one (no backward) measures the model, and counts. A timing decorator\'s clock '
          'pair (around the call of the function it wraps) times the body of each function it decorates; '
          'timeit.timeit(stmt, number=n) reports one total with the cold first call in it (timeit.repeat and '
          '%timeit keep their runs apart, and are left alone). Timings '
          'repeated in a loop that drop their first, cold runs (`if i >= warmup: times.append(t)`, `times[1:]`, '
          'a median or a minimum of them), and jobs timed in minutes (`elapsed // 60`), are left alone.'),
    why=('The first CUDA work of a process creates the CUDA context, loads kernels and sets up cuBLAS/cuDNN '
         '(and may autotune): one-time costs of tenths of a second that land inside the measurement and can '
         'be 100x the time of the operation itself.'),
    bad="""\
import time
import torch

x = torch.load("features.pt").cuda()  # a copy: CUDA starts, but no kernel has run yet
start = time.perf_counter()
y = x @ x
torch.cuda.synchronize()
print(time.perf_counter() - start)
""",
    good="""\
import time
import torch

x = torch.load("features.pt").cuda()
for _ in range(3):  # warm-up: kernels, cuBLAS
    x @ x
torch.cuda.synchronize()
start = time.perf_counter()
y = x @ x
torch.cuda.synchronize()
print(time.perf_counter() - start)
""",
)

INFO = CheckInfo(
    id="GA102", name="timing-first-call", title="Timing the first CUDA call (no warm-up)",
    severity="medium", confidence="inferred",
    cost="The first CUDA work of a process pays one-time start-up inside the timing: CUDA context creation "
         "(typically ~0.1-0.5 s), lazy module loading, cuBLAS/cuDNN handle creation (typically ~0.1 s for the "
         "first matmul) and autotuning -- often 100x the time of the operation being measured.",
    fix="Run the timed code a few times before starting the clock (e.g. `for _ in range(3): f(x)` then "
        "torch.cuda.synchronize()), and report the median of several timed runs; torch.utils.benchmark.Timer"
        "(...).blocked_autorange() does both.",
    references=("https://pytorch.org/tutorials/recipes/recipes/benchmark.html",),
    doc=DOC,
)


def run(ctx) -> Iterator[Hit]:
    """One finding per cold start: when clocks nest (a total time around per-batch times), the innermost region
    holding the first computation is the measurement it spoils."""
    found = list(_cold_regions(ctx))
    for region, hit, first in found:
        if first is not None and any(other is not region and other_first is first and (
                _inside(other, region) or _holds(ctx, other, first) and not _holds(ctx, region, first))
                for other, _, other_first in found):
            continue  # (also a total around calls of a helper that times the same first forward itself)
        yield _at_the_first_caller(ctx, region, hit)


def _at_the_first_caller(ctx, region, hit: Hit) -> Hit:
    """``def timed(fn): start.record(); result = fn(); end.record() ...`` (the torch.compile tutorial's timer, a thunk
    called with no arguments): the cold start is not in the helper but in what its first call hands it -- ``timed(lambda: model(inp))`` -- so the
    finding goes to that call, the first in the file."""
    info = ctx.function_at(region.scope)
    node = hit.node
    if info is None or not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args
                            and not node.keywords and node.func.id in info.positional + info.keyword_only):
        return hit
    sites = sorted(ctx.call_sites(info), key=lambda call: (call.lineno, call.col_offset))
    if not sites:
        return hit
    return Hit(hit.message.replace(f"{short(node)} ({where(ctx, node)})", f"{short(sites[0])} ({where(ctx, sites[0])})"),
               node=sites[0], evidence=hit.evidence)


def _holds(ctx, region, node: ast.AST) -> bool:
    """Is ``node`` written between the region's clocks, in its own function?"""
    lines = [getattr(region.open, "lineno", None), getattr(region.close, "lineno", None)]
    return None not in lines and ctx.index.scope_of(node) is region.scope and lines[0] <= node.lineno <= lines[1]


_LONG_RUN = 10_000  # optimizer steps: a cold start of a second or less is noise next to them


def _runs_long_training(ctx, region) -> bool:
    """A clock around a training run that is no loop over a DataLoader: ``training_loop(net, iterations=10_000)`` of
    a physics-informed net -- an update loop of many steps (or of a count the code does not spell out: a configured
    run), written whole in the region or in a function it calls. (1,000 epochs of a tiny regression are no such run:
    their total is a few tenths of a second, the size of the cold start.)"""
    if region.open is None or ctx.index.enclosing_loops(region.open) != ctx.index.enclosing_loops(region.close):
        return False  # a lap clock (t0 before the loop, t1 = time.time() in it): each lap is its own number
    lines = (getattr(region.around or region.open, "lineno", 0), getattr(region.close, "end_lineno", 0) or 0)
    loops = [loop for loop in ctx.index.loops if ctx.index.scope_of(loop) is region.scope
             and lines[0] <= loop.lineno and (loop.end_lineno or 0) <= lines[1]]  # (not a lap clock inside it)
    functions, seen = [e.callee for e in region.events if e.callee is not None], set()
    while functions:
        info = functions.pop()
        if info in seen or len(seen) > 8:
            continue
        seen.add(info)
        loops += [loop for loop in ctx.index.loops if ctx.index.scope_of(loop) is info.node]
        functions += [e.callee for e in ctx.function_events(info) if e.callee is not None]
    return any(ctx.loop_runs_update(loop) and (ctx.loop_iterations(loop) or _LONG_RUN) >= _LONG_RUN for loop in loops)


def _inside(inner, outer) -> bool:
    """Is the clock pair ``inner`` written within ``outer``'s (a per-batch time inside a total)?"""
    lines = [getattr(getattr(r, side), "lineno", None) for r in (inner, outer) for side in ("open", "close")]
    if None in lines or inner.scope is not outer.scope:
        return False
    return lines[2] <= lines[0] and lines[1] <= lines[3] and (lines[0], lines[1]) != (lines[2], lines[3])


def _cold_regions(ctx) -> Iterator[tuple]:
    for region in ctx.timed_regions():
        if region.repeated or ctx.region_trains(region) or ctx.region_calls_training_run(region) \
                or drops_cold_runs(ctx, region) \
                or times_a_job(ctx, region) or totals_training_steps(ctx, region) or warmed_up_by_a_call(ctx, region) \
                or starts_after_warmup(ctx, region) or handed_function_ran_before(ctx, region) \
                or _runs_long_training(ctx, region) or trained_before(ctx, region):
            continue  # the cold run never reaches the number reported, or is noise next to it
        if not region.has_work:
            hit = _unseen_work(ctx, region)
            if hit is not None:
                yield region, hit, None
            continue
        if not region.runs_kernels:
            continue  # only copies in the clock pair (a data-time measurement): no kernel is loaded there
        inside = {id(event.node) for event in region.events}
        kernels = ctx.first_kernel(region) or _first_timeit_kernel(ctx, region)
        if not any(id(event.node) in inside for event in kernels):
            computes = ctx.first_compute(region)  # (only a random fill ran before: cuBLAS / cuDNN are still cold)
            if not any(id(event.node) in inside for event in computes) or not _a_fill(ctx, kernels) \
                    or not _uses_blas(ctx, region):
                continue  # a computation ran before the region: CUDA is warm
            kernels = computes
        if _model_warmed_up(ctx, next(event.node for event in kernels if id(event.node) in inside), region):
            continue  # `for _ in range(100): model(dummy_input)` before the clock: a warm-up of the model timed
        offending = next((event.node for event in region.events if event.bits & WORK), kernels[-1].node)
        started = ctx.first_work(region)
        before = started[-1].node if started and not any(id(e.node) in inside for e in started) else None
        made_by = "a fill" if started and started[-1].bits & KERNEL else "a copy"
        first = kernels[-1].node
        blas = _uses_blas(ctx, region)
        if before is not None:
            message = (f"the timed region runs the program's first CUDA computation, {short(first)} "
                       f"({where(ctx, first)}), with no warm-up: CUDA was initialised by {made_by} before it "
                       f"({short(before)}, {where(ctx, before)}), but the timing still includes kernel loading"
                       + (" and cuBLAS/cuDNN set-up" if blas else ""))
        else:
            message = (f"the timed region runs the program's first CUDA work, {short(offending)} "
                       f"({where(ctx, offending)}), with no warm-up: the time includes CUDA start-up (context "
                       "creation, kernel loading" + (", cuBLAS/cuDNN set-up)" if blas else ")"))
        evidence = {"timing": region.how, "first_compute": short(first), "first_cuda_call": short(offending),
                    "cuda_initialised_before": before is not None}
        if region.line is not None:
            yield region, Hit(message, line=region.line, column=region.column, evidence=evidence), first
        else:
            yield region, Hit(message, node=offending, evidence=evidence), first


def _a_fill(ctx, kernels: list) -> bool:
    """Is the first kernel the program ran a factory's fill (``torch.randn(..., device="cuda")``)? Not a cast of a
    CUDA model (``net.double()``), which the r5 corpus counted as a warm-up."""
    if not kernels:
        return False
    node = kernels[-1].node
    name = (ctx.qual(node.func) or "") if isinstance(node, ast.Call) else ""
    return not kernels[-1].bits & COMPUTE and name.startswith("torch.") and name[6:] in api.FACTORIES


def _first_timeit_kernel(ctx, region) -> list:
    """``timeit.timeit(lambda: torch.matmul(a, b), number=50)`` when no computation runs anywhere else in the
    program's flow (a lambda's body is not part of it): the first such timeit, in source order, times the cold
    first kernel."""
    if region.how != "timeit":
        return []
    earlier = [other for other in ctx.timed_regions() if other.how == "timeit" and other.runs_kernels
               and (other.close.lineno, other.close.col_offset) < (region.close.lineno, region.close.col_offset)]
    return [] if earlier else [e for e in region.events if e.bits & (COMPUTE | KERNEL)][:1]


_BLAS_CALLS = frozenset({"mm", "matmul", "bmm", "addmm", "baddbmm", "einsum", "linear", "conv1d", "conv2d",
                         "conv3d", "conv_transpose2d", "scaled_dot_product_attention"})


def _uses_blas(ctx, region) -> bool:
    """Does the region multiply matrices or convolve (cuBLAS / cuDNN), directly or through a model?"""
    for event in region.events:
        node = event.node
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult) or event.callee is not None:
            return True
        if isinstance(node, ast.Call):
            name = ctx.qual(node.func) or (node.func.attr if isinstance(node.func, ast.Attribute) else "")
            if name.rsplit(".", 1)[-1] in _BLAS_CALLS or ctx.kind(node.func) & (MODEL | CUDA_MODEL):
                return True
    return False


def measured_cost(machine) -> Optional[str]:
    if not (machine.context_init_s or machine.first_matmul_s):
        return None
    parts = []
    if machine.context_init_s:
        parts.append(f"CUDA context creation and the first kernel took {machine.context_init_s:.2f} s")
    if machine.first_matmul_s:
        parts.append(f"the first cuBLAS matmul {machine.first_matmul_s:.2f} s")
    return (f"The first CUDA work of a process pays one-time start-up inside the timing: {' and '.join(parts)} "
            f"({machine.where}), plus lazy module loading and autotuning -- often 100x the time of the "
            "operation being measured.")


def _unseen_work(ctx, region) -> Optional[Hit]:
    first = _opaque_first_work(ctx, region)
    if first is None:
        return None
    kernels = ctx.first_kernel(region)
    if kernels and kernels[0].node.lineno < first.lineno:
        return None  # the program computed on CUDA before: warm
    return Hit(f"the timed region ends with torch.cuda.synchronize(), so it times GPU work, and its first call, "
               f"{short(first)} ({where(ctx, first)}), has no warm-up: nothing in the program ran it or any CUDA "
               "computation before, so the time includes CUDA start-up (context creation, kernel loading, "
               "cuBLAS/cuDNN set-up)", node=first,
               evidence={"timing": region.how, "first_cuda_call": short(first), "assumed_from_sync": True})


_NOT_WORK = frozenset(dir(builtins)) | {"tqdm", "trange"}


def _opaque_first_work(ctx, region) -> Optional[ast.Call]:
    """A region the author closes with ``torch.cuda.synchronize()`` says it times CUDA work, even when the
    file does not show what runs there (a snippet from an issue: ``outputs = model(inputs)`` with ``model``
    made elsewhere). The first call of such an unknown callable inside it is that work -- unless the same
    callable ran before the region (a warm-up) or the program computed on CUDA before it."""
    if region.how != "clock" or region.open is None:
        return None
    start = (region.open.lineno, region.open.col_offset)
    sync = next((e.node for e in region.events if e.bits & SYNC and not e.bits & HOST_READ
                 and isinstance(e.node, ast.Call) and ctx.qual(e.node.func) in api.SYNC_FUNCTIONS), None)
    if sync is None:
        return None
    end = (sync.lineno, sync.col_offset)
    calls = sorted(ctx.calls_in(region.scope), key=lambda c: (c.lineno, c.col_offset))
    first = next((c for c in calls if start < (c.lineno, c.col_offset) < end and _opaque(ctx, c)), None)
    if first is None:
        return None
    return None if _ran_before(ctx, first, start) else first


def _model_warmed_up(ctx, first: ast.AST, region) -> bool:
    """The model the region runs first (not a torch function) was called before the clock in the same function,
    outside any timed region, and not moved to a device since: a warm-up, whatever the pass could tell of its input there
    (``model(dummy_input)`` of a model handed in, on a dummy the file made without a device). A model timed on the
    CPU, then moved (``model.cuda()``), is not warm on the GPU."""
    if region.open is None or not isinstance(first, ast.Call) or (ctx.qual(first.func) or "").startswith("torch."):
        return False
    start, text = (region.open.lineno, region.open.col_offset), ast.unparse(first.func)
    name = last_identifier(first.func)  # (compared first: unparsing every call of a long module is slow)
    spans = [(other.open.lineno, other.close.lineno) for other in ctx.timed_regions()
             if other.open is not None and other.close is not None]
    earlier = [c for c in ctx.calls_in(region.scope) if (c.lineno, c.col_offset) < start
               and last_identifier(c.func) == name and ast.unparse(c.func) == text
               and not any(low <= c.lineno <= high for low, high in spans)]
    moves = [c.lineno for c in ctx.index.calls if isinstance(c.func, ast.Attribute) and c.func.attr in ("to", "cuda")
             and last_identifier(c.func.value) == name and ast.unparse(c.func.value) == text]
    return any(not any(call.lineno < line < start[0] for line in moves) for call in earlier)


def _ran_before(ctx, first: ast.Call, start: tuple[int, int]) -> bool:
    """The callable ``first`` calls ran (or was handed to a warm-up helper) before the clock started, whatever
    the pass could tell of its inputs there (a warm-up on a dummy input the file made without a device)."""
    text, name = ast.unparse(first.func), last_identifier(first.func)
    return any((call.lineno, call.col_offset) < start and (
        last_identifier(call.func) == name and ast.unparse(call.func) == text or any(
            isinstance(a, (ast.Name, ast.Attribute)) and last_identifier(a) == name and ast.unparse(a) == text
            for a in call.args)) for call in ctx.index.calls)


_JOB_METHODS = frozenset({"run", "predict", "infer", "inference", "evaluate", "test", "generate", "forward"})


def _runs_imported_job(ctx, call: ast.Call) -> bool:
    """``predict = Inference(config); predict.run()``: the job method of an object of a class the file imports
    (not torch's), with or without arguments: what a clock closed by torch.cuda.synchronize() is there to time."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in _JOB_METHODS and isinstance(func.value, ast.Name)):
        return False
    values = ctx.index.assigned_values.get(func.value.id, [])
    return len(values) == 1 and isinstance(values[0], ast.Call) and not ctx.callees(values[0]) \
        and not (ctx.qual(values[0].func) or "torch.").startswith("torch.")


def _opaque(ctx, call: ast.Call) -> bool:
    """``model(inputs)`` / ``self.net(x)`` / ``net.forward(x)``: a call with arguments of something the file
    does not define or import, whose result nothing is known about."""
    func = call.func
    if _runs_imported_job(ctx, call):
        return True
    if not call.args or ctx.kind(call) or ctx.kind(func) or ctx.qual(func) is not None or ctx.callees(call):
        return False
    if isinstance(func, ast.Name):  # a name the snippet never binds, or one named like a model
        return func.id not in _NOT_WORK and (func.id not in ctx.index.bound_names
                                             or bool(api.MODEL_NAME_HINT.search(func.id)))
    if not isinstance(func, ast.Attribute) or ctx.qual(func.value) is not None \
            or ctx.kind(func.value) & ~(MODEL | CUDA_MODEL):
        return False
    return func.attr == "forward" or bool(api.MODEL_NAME_HINT.search(last_identifier(func)))
