"""GA102: the timed region runs the program's first CUDA computation: no warm-up.

Must match:   x = torch.randn(4096, 4096, device="cuda"); t0 = time.perf_counter(); y = x @ x;
              torch.cuda.synchronize(); print(time.perf_counter() - t0)
Must not:     the same with `for _ in range(3): x @ x` (a warm-up) before t0; timeit / %timeit (repeated
              by design); a timed training run over a DataLoader (start-up is noise next to an epoch);
              a timed loop of thousands of iterations once CUDA is already initialised (amortised).
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint.checks.common import short, where
from advisor.lint.flow import COMPUTE, CUDA_MODEL, MODEL
from advisor.lint.model import CheckDoc, CheckInfo, Hit

DOC = CheckDoc(
    what=("Finds a timed region that runs the program's first CUDA computation, with no warm-up before the "
          'clock starts.'),
    why=('The first CUDA work of a process creates the CUDA context, loads kernels and sets up cuBLAS/cuDNN '
         '(and may autotune): one-time costs of tenths of a second that land inside the measurement and can '
         'be 100x the time of the operation itself.'),
    bad="""\
import time
import torch

x = torch.randn(4096, 4096, device="cuda")
start = time.perf_counter()
y = x @ x
torch.cuda.synchronize()
print(time.perf_counter() - start)
""",
    good="""\
import time
import torch

x = torch.randn(4096, 4096, device="cuda")
for _ in range(3):  # warm-up: context, kernels, cuBLAS
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
_AMORTISED_ITERATIONS = 1_000


def run(ctx) -> Iterator[Hit]:
    for region in ctx.timed_regions():
        if region.repeated or not region.has_work:
            continue
        chain = ctx.first_compute(region)
        inside = {id(event.node) for event in region.events}
        if not any(id(event.node) in inside for event in chain) or ctx.region_trains(region):
            continue
        first = chain[-1].node
        started = ctx.first_work(region)
        initialised = bool(started) and not started[-1].bits & COMPUTE and not any(
            id(event.node) in inside for event in started)
        if initialised and _amortised(ctx, first, region):
            continue
        if initialised:
            init = started[-1].node
            message = (f"the timed region runs {short(first)} ({where(ctx, first)}) for the first time, with no "
                       f"warm-up: CUDA was already initialised ({short(init)}, {where(ctx, init)}), but the first "
                       "call of each operation still loads its kernels"
                       + (", and the first matmul or convolution sets up cuBLAS/cuDNN," if _uses_blas(ctx, region)
                          else "") + " inside the timing")
        else:
            start = started[-1].node if started else first  # the first work may be a copy or a factory
            message = (f"the timed region runs the program's first CUDA work, {short(start)} ({where(ctx, start)}), "
                       "with no warm-up: the time includes CUDA start-up (context creation, kernel loading)")
        evidence = {"timing": region.how, "first_compute": short(first), "cuda_initialised_before": initialised}
        if region.line is not None:
            yield Hit(message, line=region.line, column=region.column, evidence=evidence)
        else:
            yield Hit(message, node=region.open, evidence=evidence)


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


def _amortised(ctx, first: ast.AST, region) -> bool:
    """The first computation runs inside a long loop of the timed region: its one-time cost is noise."""
    lines = (getattr(region.open, "lineno", 0), getattr(region.close, "end_lineno", 0) or 0)
    for loop in ctx.index.enclosing_loops(first):
        if lines[0] <= loop.lineno <= lines[1]:
            count = ctx.loop_iterations(loop)
            return count is not None and count >= _AMORTISED_ITERATIONS
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
