"""GA101: a host clock read after CUDA work with no synchronization in between.

Must match:   t0 = time.perf_counter(); y = a @ b; print(time.perf_counter() - t0)   (a on CUDA)
              %timeit model(x)   (notebook, model on CUDA)
              t0 = time.time(); b = torch.bernoulli(p_gpu); end = time.time()   (draws from a CUDA tensor compute)
              a clock pair inside Net.forward, net = Net().cuda(); net(x_gpu)   (the call runs forward)
              def timeit(f): def wrapper(*a): t0 = clock(); r = f(*a); print(clock() - t0) ... and
              @timeit def run(): ... CUDA work ...   (the wrapper's clock pair times run's body)
              with timer("step"): y = x @ x   (@contextmanager with a clock pair around its yield, or a class
              whose __enter__ stores self.start = time.time() and whose __exit__ subtracts it)
              self.start = time.time(); out = self.a @ self.a; self.elapsed = time.time() - self.start
Must not:     ...; y = a @ b; torch.cuda.synchronize(); t1 = time.perf_counter()
              ...; loss = model(x).sum(); print(loss.item()); elapsed = time.time() - t0  (.item() waits)
              CUDA events with end.synchronize(); torch.utils.benchmark.Timer
              progress and epoch times around a DataLoader loop (what is still queued when the clock is read is
              a small part of an epoch; a loop of optimizer steps over batches sliced by hand is reported, with
              that said: the sixth corpus's labels and the fifth's 551), or around
              model.fit(train_loader) / train(net, loader=...): a training run the file does not show
              a job timed in minutes (elapsed // 60, divmod(elapsed, 60), elapsed / 3600)
              out = model.translate(sentences): a model's method fed only text returns text, so it waited
              an evaluation pass whose loop reads a result every batch, then torch.cat(preds): the clock misses
              at most the last batch's tail and the join
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.common import short, where
from advisor.lint.checks.measured_time import times_a_job
from advisor.lint.flow import SYNC, WORK
from advisor.lint.model import CheckDoc, CheckInfo, Hit

DOC = CheckDoc(
    what=('Finds a host clock (time.time(), time.perf_counter(), timeit, %time / %timeit) read after CUDA '
          'work was queued, with no synchronization between the work and the clock read -- also a clock closed '
          'in a helper the start is handed to (report(name, start) reading time.time() - start).'),
    why=('CUDA calls return as soon as the work is queued. Without torch.cuda.synchronize() (or a host read '
         'such as .item()) before the closing clock read, the clock stops while the GPU is still working: '
         'the number is the cost of launching the kernels, often 10-100x smaller than the real run time.'),
    bad="""\
import time
import torch

a = torch.randn(4096, 4096, device="cuda")
a @ a  # warm-up
torch.cuda.synchronize()
start = time.perf_counter()
b = a @ a
elapsed = time.perf_counter() - start  # the matmul is still running
""",
    good="""\
import time
import torch

a = torch.randn(4096, 4096, device="cuda")
a @ a  # warm-up
torch.cuda.synchronize()
start = time.perf_counter()
b = a @ a
torch.cuda.synchronize()  # wait for the GPU before reading the clock
elapsed = time.perf_counter() - start
""",
)

INFO = CheckInfo(
    id="GA101", name="timing-without-sync", title="Timing CUDA work without synchronizing",
    severity="high", confidence="inferred",
    cost="CUDA calls return as soon as the work is queued, so the clock stops before the GPU has finished: "
         "the number is launch overhead, not run time (a 4096x4096 fp32 matmul reads ~0.1-0.4 ms instead of "
         "~2.7 ms on an H100).",
    fix="Call torch.cuda.synchronize() right before the closing clock read (and before the opening one), or "
        "time with CUDA events: start, end = torch.cuda.Event(enable_timing=True), "
        "torch.cuda.Event(enable_timing=True); start.record(); ...; end.record(); end.synchronize(); "
        "ms = start.elapsed_time(end). torch.utils.benchmark.Timer does this for you.",
    references=("https://pytorch.org/docs/stable/notes/cuda.html#asynchronous-execution",
                "https://pytorch.org/tutorials/recipes/recipes/benchmark.html"),
    doc=DOC,
)

_MAGIC_FIX = ("Synchronize inside the timed statement: `%timeit f(x); torch.cuda.synchronize()` (or end the "
              "cell with torch.cuda.synchronize()), or use torch.utils.benchmark.Timer(stmt=..., globals=...)"
              ".blocked_autorange().")
_TIMEIT_FIX = ("Synchronize inside the timed callable: timeit.timeit(lambda: (f(x), torch.cuda.synchronize()), "
               "number=100), or use torch.utils.benchmark.Timer, which synchronizes and warms up.")


def measured_cost(machine) -> Optional[str]:
    if not (machine.unsync_naive_s and machine.unsync_correct_s):
        return None
    return ("CUDA calls return as soon as the work is queued, so the clock stops before the GPU has finished: "
            f"the number is launch overhead, not run time (a 4096x4096 float32 matmul read "
            f"{machine.unsync_naive_s * 1e3:.3f} ms unsynchronized instead of {machine.unsync_correct_s * 1e3:.2f} "
            f"ms, {machine.where}).")


def _copies_only(region) -> bool:
    """Only copies to the GPU, no kernel: a copy from pageable memory returns once it is done, so the clock after
    it is right (a data loader's __getitem__ timing its .cuda() calls)."""
    if region.how != "clock" or not region.events:
        return False  # (timeit of a string, %timeit: the work is assumed, not seen)
    return not region.runs_kernels




def _waits_every_iteration(ctx, region) -> bool:
    """An evaluation pass timed as a whole whose loop reads a result on every batch (``loss.item()``), then joins
    the collected predictions (``torch.cat(preds)``): the GPU is caught up once per batch, so the clock misses
    at most the last batch's tail and the join -- noise next to the pass."""
    if region.how != "clock" or region.open is None:
        return False
    reads = [e for e in region.events if e.bits & SYNC]
    if not reads:
        return False
    loops = [loop for loop in ctx.index.enclosing_loops(reads[-1].node) if loop.lineno > region.open.lineno]
    if not loops or _conditional(ctx, reads[-1].node, loops[0]):
        return False
    end = loops[-1].end_lineno or loops[-1].lineno
    after = [e for e in region.events if e.bits & WORK and e.node.lineno > end]
    return all(isinstance(e.node, ast.Call) and ctx.qual(e.node.func) in api.JOINS for e in after)


def _conditional(ctx, node: ast.AST, loop: ast.AST) -> bool:
    for parent in ctx.index.ancestors(node):
        if parent is loop:
            return False
        if isinstance(parent, (ast.If, ast.IfExp, ast.Try)):
            return True
    return False


def run(ctx) -> Iterator[Hit]:
    for region in ctx.timed_regions(carried=True):
        if not region.has_work or region.synchronized or ctx.region_trains(region, over_loaders_only=True) \
                or times_a_job(ctx, region) or ctx.region_calls_training_run(region, evaluation=True) \
                or _copies_only(region) \
                or _waits_every_iteration(ctx, region):
            continue  # (a job timed in minutes, or a whole run over data: the kernels still queued are noise)
        last = region.last_work
        work = f"{short(last.node)} ({where(ctx, last.node)})" if last is not None else "CUDA work"
        evidence = {"timing": region.how, "last_gpu_work": short(last.node) if last else None}
        if region.how == "clock" and ctx.region_trains(region):
            # optimizer steps over batches sliced by hand: most of the run is in the number, the queued tail is not
            yield Hit(f"{short(region.close)} stops the clock after {work} with no torch.cuda.synchronize() in "
                      "between: the training steps still queued on the GPU (up to the launch queue's depth) are "
                      "not in the time", node=region.close, evidence=evidence)
        elif region.how == "clock":
            yield Hit(f"{short(region.close)} stops the clock after {work} with no torch.cuda.synchronize() "
                      "in between: it measures the kernel launch, not the GPU work",
                      node=region.close, evidence=evidence)
        elif region.how == "timeit":
            yield Hit(f"timeit times {work} without torch.cuda.synchronize(): it measures kernel launches, "
                      "not the GPU work", node=region.close, fix=_TIMEIT_FIX, evidence=evidence)
        else:
            yield Hit(f"{region.how} times {work} without torch.cuda.synchronize(): it measures kernel "
                      "launches, not the GPU work", line=region.line, column=region.column, fix=_MAGIC_FIX,
                      evidence=evidence)
