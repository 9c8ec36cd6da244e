"""All-reduce and all-gather over a range of message sizes, timed the same way on every rank.

Every rank must issue the same collectives the same number of times, or the job deadlocks: so the iteration
count is fixed per size (no adaptive stopping here), and the one timer runs in its fixed-count mode
(``Sampler(..., ops=k).add(samples)``): CUDA events for NCCL on a GPU, the host clock for gloo on CPU.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from advisor.distributed.bandwidth import algbw_gbps, busbw_gbps
from advisor.measure.timer import TimerConfig, cpu_sampler, cuda_events_sampler
from advisor.models.fleet import CollectiveOp, CollectiveResult, CollectiveTiming, RankSummary

KIB, MIB = 1 << 10, 1 << 20
#: Message sizes per tier and device. gloo on CPU stops early: its large messages cost seconds, not insight.
SIZES = {
    ("quick", "cuda"): (1 * MIB, 32 * MIB),
    ("standard", "cuda"): (64 * KIB, 1 * MIB, 16 * MIB, 128 * MIB, 512 * MIB),
    ("quick", "cpu"): (64 * KIB, 1 * MIB),
    ("standard", "cpu"): (64 * KIB, 1 * MIB, 4 * MIB),
}
SAMPLES = {"quick": 3, "standard": 5}
OPS: tuple[CollectiveOp, ...] = ("all_reduce", "all_gather")


def _ops_per_sample(size: int) -> int:
    """Small messages are batched so one sample rises above clock noise; the count depends on size only."""
    return 20 if size <= 1 * MIB else 5 if size <= 32 * MIB else 1


def _workload(op: CollectiveOp, size: int, world: int, device: str, group: Any) -> Callable[[], Any]:
    import torch
    import torch.distributed as dist

    if op == "all_reduce":
        buffer = torch.ones(size // 4, dtype=torch.float32, device=device)
        return lambda: dist.all_reduce(buffer, group=group)
    # nccl-tests' all-gather "size" is the whole output: each rank contributes size / world.
    piece = torch.ones(max(1, size // 4 // world), dtype=torch.float32, device=device)
    output = torch.empty(piece.numel() * world, dtype=torch.float32, device=device)
    gather = getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor  # renamed in torch 2.13
    return lambda: gather(output, piece, group=group)


def time_collectives(device: str, tier: str, world: int, *, group: Any = None,
                     on_size: Optional[Callable[[str], None]] = None, max_bytes: Optional[int] = None) -> list[CollectiveTiming]:
    kind = "cuda" if device.startswith("cuda") else "cpu"
    sizes = [s for s in SIZES[(tier, kind)] if max_bytes is None or s <= max_bytes] or [SIZES[(tier, kind)][0]]
    samples = SAMPLES[tier]
    config = TimerConfig()
    timings = []
    for op in OPS:
        for size in sizes:
            if on_size is not None:
                on_size(f"collectives {op} {size}")
            fn = _workload(op, size, world, device, group)
            ops = _ops_per_sample(size)
            sampler = (cuda_events_sampler if kind == "cuda" else cpu_sampler)(fn, config, ops=ops)
            stats = sampler.add(samples).stats()
            timings.append(CollectiveTiming(op=op, size_bytes=size, median_s=stats.median_s,
                                            iterations=samples * ops))
    return timings


def combine(ranks: list[RankSummary]) -> list[CollectiveResult]:
    """One result per (op, size) over the ranks that reported it, converted as nccl-tests does."""
    by_key: dict[tuple[str, int], list[float]] = {}
    for summary in ranks:
        for timing in summary.collectives:
            by_key.setdefault((timing.op, timing.size_bytes), []).append(timing.median_s)
    results = []
    for (op, size), times in sorted(by_key.items()):
        n = len(times)
        mean = sum(times) / n
        results.append(CollectiveResult(
            op=op, size_bytes=size, ranks=n, time_s=mean, algbw_gbps=algbw_gbps(size, mean),  # type: ignore[arg-type]
            busbw_gbps=busbw_gbps(op, size, mean, n), rank_time_ratio=max(times) / min(times) if min(times) > 0 else 1.0,
        ))
    return results
