"""GA102: the timed region runs the program's first CUDA computation: no warm-up.

Must match:   x = torch.randn(4096, 4096, device="cuda"); t0 = time.perf_counter(); y = x @ x;
              torch.cuda.synchronize(); print(time.perf_counter() - t0)
Must not:     the same with `for _ in range(3): x @ x` (a warm-up) before t0; timeit / %timeit (repeated
              by design); a timed training run over a DataLoader (start-up is noise next to an epoch).
"""

from __future__ import annotations

from typing import Iterator

from advisor.lint.checks.common import short, where
from advisor.lint.model import CheckInfo, Hit

INFO = CheckInfo(
    id="GA102", name="timing-first-call", title="Timing the first CUDA call (no warm-up)",
    severity="medium", confidence="inferred",
    cost="The first CUDA work of a process pays one-time start-up inside the timing: CUDA context creation "
         "(~0.3 s), lazy module loading, cuBLAS/cuDNN handle creation (~0.1 s for the first matmul) and "
         "autotuning -- often 100x the time of the operation being measured.",
    fix="Run the timed code a few times before starting the clock (e.g. `for _ in range(3): f(x)` then "
        "torch.cuda.synchronize()), and report the median of several timed runs; torch.utils.benchmark.Timer"
        "(...).blocked_autorange() does both.",
    references=("https://pytorch.org/tutorials/recipes/recipes/benchmark.html",),
)


def run(ctx) -> Iterator[Hit]:
    timings = ctx.timings
    for region in timings.regions:
        if region.repeated or not region.has_work:
            continue
        chain = timings.first_compute_chain(region)
        inside = {id(event.node) for event in region.events}
        if not any(id(event.node) in inside for event in chain) or timings.trains(region):
            continue
        first = chain[-1].node
        message = (f"the timed region runs the program's first CUDA computation, {short(first)} "
                   f"({where(ctx, first)}), with no warm-up: the time includes CUDA start-up")
        evidence = {"timing": region.how, "first_compute": short(first)}
        if region.line is not None:
            yield Hit(message, line=region.line, column=region.column, evidence=evidence)
        else:
            yield Hit(message, node=region.open, evidence=evidence)
