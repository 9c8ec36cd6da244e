"""GA102: the timed region runs the program's first CUDA computation: no warm-up.

Reported at the first CUDA call inside the region (the copy or model move that creates the context, or
the first computation).

Must match:   x = torch.load("x.pt").cuda(); t0 = time.perf_counter(); y = x @ x;
              torch.cuda.synchronize(); print(time.perf_counter() - t0)       (a copy is not a computation)
              t0 = time.time(); model.to("cuda"); out = model(x); print(time.time() - t0)
Must not:     the same with `for _ in range(3): x @ x` (a warm-up) before t0; a computation or a filling
              factory (torch.randn(..., device="cuda")) before t0; timeit / %timeit (repeated by design); a
              timed training run over a DataLoader (start-up is noise next to an epoch).
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint.checks.common import short, where
from advisor.lint.flow import CUDA_MODEL, MODEL, WORK
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
    for region in ctx.timed_regions():
        if region.repeated or not region.has_work or ctx.region_trains(region):
            continue
        inside = {id(event.node) for event in region.events}
        kernels = ctx.first_kernel(region)
        if not any(id(event.node) in inside for event in kernels):
            continue  # a computation (or a filling factory) ran before the region: CUDA is warm
        offending = next((event.node for event in region.events if event.bits & WORK), kernels[-1].node)
        started = ctx.first_work(region)
        before = started[-1].node if started and not any(id(e.node) in inside for e in started) else None
        first = kernels[-1].node
        blas = _uses_blas(ctx, region)
        if before is not None:
            message = (f"the timed region runs the program's first CUDA computation, {short(first)} "
                       f"({where(ctx, first)}), with no warm-up: CUDA was initialised by a copy before it "
                       f"({short(before)}, {where(ctx, before)}), but the timing still includes kernel loading"
                       + (" and cuBLAS/cuDNN set-up" if blas else ""))
        else:
            message = (f"the timed region runs the program's first CUDA work, {short(offending)} "
                       f"({where(ctx, offending)}), with no warm-up: the time includes CUDA start-up (context "
                       "creation, kernel loading" + (", cuBLAS/cuDNN set-up)" if blas else ")"))
        evidence = {"timing": region.how, "first_compute": short(first), "first_cuda_call": short(offending),
                    "cuda_initialised_before": before is not None}
        if region.line is not None:
            yield Hit(message, line=region.line, column=region.column, evidence=evidence)
        else:
            yield Hit(message, node=offending, evidence=evidence)


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
