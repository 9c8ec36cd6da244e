"""How long this rank spent in collectives (all-reduce, broadcast, ...) per recorded step, and how much of that
was waiting: the collective running with none of the rank's own compute beside it.

In a data-parallel job (DDP, FSDP) gradients are all-reduced every step, so every rank's step lasts as long as
the slowest rank's: step times agree and cannot show a straggler. What differs is the wait: the ranks that are
ahead sit in the collective until the last one joins it. Each rank measures its own here, from its own trace;
rank 0 compares them (app/profile_ranks.py).

What a collective looks like in a trace (recorded, torch 2.x):
- NCCL (GPU): kernels named ``ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)`` (``ncclKernel_...`` in older NCCL),
  on NCCL's own stream. A rank ahead launches its kernel early and the kernel spins until its peers join, so the
  kernel's length includes the wait. Beside them the host has ``c10d::allreduce_`` and ``nccl:all_reduce``:
  enqueue calls of a few us, not the collective.
- gloo (CPU): ``gloo:all_reduce`` (``gloo:broadcast``, ...) annotations on gloo's worker thread, from the
  collective's start to its end, wait included. The training thread launches it with ``c10d::allreduce_`` and,
  in DDP, blocks with no op recorded at all until it completes (the reducer's wait at the end of backward), then
  copies the buckets back (``torch.distributed.ddp.reducer::copy_bucket_to_grad``).

Only the part of a collective with no compute of the rank's own beside it is waiting (DDP overlaps the
all-reduce of early buckets with the rest of backward by design): on the GPU, no other kernel or copy ran; on
the CPU, the training thread ran no op. Each collective's wait counts in the step that launched it (the host
call, found by its correlation id on the GPU, whose kernels run later than the host's step), so rank 0 can ask
whether the same rank waited least in every step, not only on average.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from advisor.models.profile import CollectiveStats
from advisor.profile.trace_events import Span, Trace, union_length

NCCL_KERNEL_PREFIXES = ("ncclDevKernel", "ncclKernel")
GLOO_PREFIX = "gloo:"


def collective_stats(trace: Trace, windows: list[tuple[float, float]], step_ms: float) -> CollectiveStats:
    """The collectives in the recorded steps (``windows``: each step's start and end, trace microseconds)."""
    lo, hi = windows[0][0], windows[-1][1]
    gpu = [s for s in trace.gpu if s.end > lo and s.start < hi]
    nccl = [s for s in gpu if s.name.startswith(NCCL_KERNEL_PREFIXES)]
    if nccl:
        compute = [s for s in gpu if not s.name.startswith(NCCL_KERNEL_PREFIXES)]
        launches = trace.runtime_by_correlation()
        launched = [launches[s.args["correlation"]].start if s.args.get("correlation") in launches else s.start
                    for s in nccl]
        return _stats("nccl", nccl, launched, compute, windows, step_ms)
    gloo = [s for s in trace.annotations if s.name.startswith(GLOO_PREFIX) and s.end > lo and s.start < hi]
    if gloo:
        main = _training_thread(trace)
        compute = [s for s in trace.cpu_ops if s.tid == main and s.end > lo and s.start < hi]
        # gloo's worker starts the collective as soon as the training thread hands it over, in the same step.
        return _stats("gloo", gloo, [s.start for s in gloo], compute, windows, step_ms)
    return CollectiveStats(work_ms_per_step=round(step_ms, 3))


def _training_thread(trace: Trace) -> Any:
    """The thread that ran the steps: the one gpu-advisor's step marks were recorded on."""
    return trace.marks[0].tid if trace.marks else None


def _stats(backend: str, collectives: list[Span], launched: list[float], compute: list[Span],
           windows: list[tuple[float, float]], step_ms: float) -> CollectiveStats:
    lo, hi = windows[0][0], windows[-1][1]
    busy = [(s.start, s.end) for s in compute]
    starts = [start for start, _ in windows]
    wait_us = [0.0] * len(windows)
    covered_to = lo
    for span, launch in sorted(zip(collectives, launched, strict=True), key=lambda pair: pair[0].start):
        # Overlapping collectives (gloo's worker threads, NCCL streams) count once: from where the last ended.
        start, end = max(span.start, covered_to, lo), min(span.end, hi)
        if end <= start:
            continue
        covered_to = end
        step = min(max(bisect_right(starts, launch) - 1, 0), len(windows) - 1)
        wait_us[step] += (end - start) - union_length(busy, start, end)
    steps = len(windows)
    total_us = union_length([(s.start, s.end) for s in collectives], lo, hi)
    wait_ms = sum(wait_us) / 1e3 / steps
    return CollectiveStats(
        backend=backend, calls_per_step=round(len(collectives) / steps, 2),
        ms_per_step=round(total_us / 1e3 / steps, 3), wait_ms_per_step=round(wait_ms, 3),
        wait_fraction=round(wait_ms / step_ms, 4) if step_ms else 0.0,
        work_ms_per_step=round(max(step_ms - wait_ms, 0.0), 3),
        wait_ms_steps=[round(us / 1e3, 3) for us in wait_us],
        names=sorted({_short_name(s.name) for s in collectives}))


def _short_name(name: str) -> str:
    """``ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)`` -> ``AllReduce``."""
    if name.startswith(GLOO_PREFIX):
        return name
    parts = name.split("(")[0].split("_")
    return parts[1] if len(parts) > 1 else parts[0]
