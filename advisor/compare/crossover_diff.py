"""Crossover sizes on both sides, per op, dtype and mode: smaller is better (the GPU pays off sooner).

A crossover is not always a number: the GPU may win already at the smallest size tried, or never within the
range tried. Each side is therefore an interval the true crossover lies in, and B is only called better or
worse when the intervals say so for certain; "GPU never wins in range" is never turned into a ratio.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Optional

from advisor.compare.judge import judge
from advisor.compare.measurements_diff import absent_reason
from advisor.formatting import describe_crossover_bounds
from advisor.models.comparison import MeasurementChange
from advisor.models.measurements import CrossoverPoint, CrossoverResult, Measurements

#: Two runs' stretches must lie this far apart (nearest bounds) before a crossover counts as moved: the GPU side of
#: small ops is launch-bound, and the launch latency of one process differs from the next by up to ~50% on the
#: same idle machine (bench_repeatability.py on an H100 and an H200), which moves such crossovers by up to ~1.5x.
RUN_TO_RUN_GAP = 0.5
#: Copy-pageable crossovers rest on two numbers that each move between idle runs: the pageable copy rate (up to 30%,
#: RUN_TO_RUN_BAND) and the CPU's rate at that size (CPU matmul up to 25%; a float64 CPU matmul of n=660 took 1.3 to
#: 11 ms within one H100 run). Where the two sides grow alike (a copy of n^2 elements against an n^3 product
#: near n~1000, or both linear in the batch), the crossover moves by far more than either: matmul float64 went from
#: "GPU >= 660" to "CPU to 1,174 (largest tried)" and conv2d bfloat16 from "GPU >= 562" to "CPU to 1,024" between
#: back-to-back idle H100 runs, gaps of 1.78x and 1.82x. Such a move is not told apart from that below a factor 2.
PAGEABLE_RUN_TO_RUN_GAP = 1.0
#: Where both sides grow alike, the speed-up stays near one value over a long stretch of sizes, and the crossover
#: is wherever noise tips it: conv2d float64 copy-pageable on an idle H100 (session 4) read "GPU >= 18" and then
#: "CPU <= 83" (4.6x apart) while the two runs' speed-ups at the sizes both measured (100-215) were 1.06-1.66 and
#: agreed within 1.3x. So a moved copy-pageable crossover is a change only when the curves themselves disagree:
#: the median factor between the two runs' speed-ups at common sizes beyond the copy rate's and the CPU rate's
#: run-to-run bands together (1.3 x 1.25 ~ 1.6).
PAGEABLE_CURVE_BAND = 1.6
#: At least this many sizes measured by both runs before their curves are compared.
MIN_COMMON_SIZES = 3
#: A sync-per-op crossover of an elementwise op or a reduction sits where two fixed latencies cross, not two rates:
#: from ~20k to ~1M elements on an H100 the GPU side is launch + op + synchronize (15-34 us, flat in the size) and the
#: CPU side is mostly the thread pool's fork and join (13-40 us, nearly flat), so a few microseconds on either side
#: move the crossover by 5x or more (add bfloat16 on a fresh H100, session 4: "GPU >= 668k" then "GPU >= 119k").
#: Each side is then compared by itself, at the sizes both runs measured: across 67 pairs of idle H100 runs (two
#: machines, fixtures h100_repeat_r4/r5) the median per-side factor reached 1.92 (GPU) and 1.86 (CPU); a real change
#: of that round trip (another process on the GPU, a slower driver path) is milliseconds, far beyond this band.
TWO_LATENCY_OPS = ("add", "sum")
TWO_LATENCY_BAND = 2.3

#: Crossovers whose GPU side, near the crossover, is the host's launch latency (resident: back-to-back launches)
#: or launch + synchronize (sync per op), and whose CPU side grows linearly with the size: such a crossover moves by
#: the factor those latencies move. They differ by up to ~1.8x between two processes on one idle H100/H200
#: (bench_repeatability.py: launch 6.5-9.9 us, idle synchronize 4.3-7.6 us on an H200), beyond what the fixed gap
#: allows, so a move these crossovers make in the direction the two runs' own latencies moved is allowed that factor
#: times the CPU side's noise margin. Matmul and conv2d (CPU work growing with a power of the size) move far less
#: with the latency and keep the fixed gap. The CUDA_LAUNCH_BLOCKING=1 control on an H100 (launch 9.8 -> 14.7 us)
#: moved its add/sum crossovers by 1.8-11x: all still flagged.
HOST_LATENCY_BOUND = {("add", "resident"): ("launch_us",), ("sum", "resident"): ("launch_us",),
                      ("add", "sync"): ("launch_us", "sync_us"), ("sum", "sync"): ("launch_us", "sync_us")}
#: What the CPU side of a crossover may add on top of the latency's move: one clear-win margin (1.15x).
CPU_SIDE_MARGIN = 0.15

MODE_LABELS = {"resident": "resident", "sync": "sync per op", "transfer_pinned": "copy pinned",
               "transfer_pageable": "copy pageable"}


@dataclass(frozen=True)
class _Interval:
    low: float  # the true crossover is at least this
    high: float  # ... and at most this (inf: the GPU may never win)
    exact: bool


def _interval(result: Optional[CrossoverResult]) -> Optional[_Interval]:
    if result is None or result.status != "ok":
        return None
    if result.clear_factor is not None:
        return _reproducible_interval(result)
    if result.gpu_never_wins:
        return _Interval(result.range_max + 1, math.inf, False)
    if result.gpu_always_wins:
        return _Interval(0, result.range_min, False)
    if result.crossover_size is None:
        return None
    return _Interval(result.crossover_size, result.crossover_size, True)


#: More work never takes less time: a point whose CPU or GPU median is this much above the next larger size's, and
#: above the next smaller size's too (a lone peak), was timed through a stall (a descheduled thread, a late wake-up)
#: and contradicts its neighbours. On an idle H100 one run's GPU side of sum float32 sync per op read 64.9 us at
#: 2.56M elements between 30.0 us at 2.1M and 27.0 us at 3.1M; another's CPU side of a bfloat16 matmul of n=117 read
#: 180 us between 41.9 us at n=97 and 125 us at n=209; each alone moved its run's stretch ~3x, and compare flagged
#: both. A peak's neighbours are not judged by it: a launch-bound GPU side wobbles by ~30% from size to size.
OUTLIER_FACTOR = 1.3
#: Elementwise ops and reductions: time grows at most in proportion to the elements, so a point slower than the next
#: smaller one by more than the elements grew (times OUTLIER_FACTOR) is a stall too (run 2 of those H100 runs: the
#: CPU summed 809,543 floats in 21.6 us and 980,784 in 53.4 us; 20.9-22.5 us at 980,784 in runs 1 and 3). Matmul's
#: CPU side is not bounded so: its thread count changes with the size (n=172 took 29 us, n=209 85 us on that H100).
LINEAR_OPS = ("add", "sum")


def consistent_points(result: CrossoverResult) -> list[CrossoverPoint]:
    """The result's points without those that contradict their neighbours (OUTLIER_FACTOR, LINEAR_OPS)."""
    ordered = sorted(result.points, key=lambda p: p.size)
    if not ordered:
        return []

    def stalled(point: CrossoverPoint, smaller: Optional[CrossoverPoint], bigger: Optional[CrossoverPoint]) -> bool:
        for side in ("cpu", "gpu"):
            seconds = getattr(point, side).median_s
            before = getattr(smaller, side).median_s if smaller is not None else None
            if bigger is not None and seconds > OUTLIER_FACTOR * getattr(bigger, side).median_s \
                    and (before is None or seconds > before):
                return True
            if result.op in LINEAR_OPS and before is not None \
                    and seconds > OUTLIER_FACTOR * before * point.size / smaller.size:  # type: ignore[union-attr]
                return True
        return False

    return [p for p, smaller, bigger in zip(ordered, [None, *ordered[:-1]], [*ordered[1:], None], strict=True)
            if not stalled(p, smaller, bigger)]


def _clear_bounds(result: CrossoverResult) -> tuple[Optional[int], Optional[int]]:
    """(gpu_clear_from, cpu_clear_to) as measure/crossover.clear_bounds draws them, from the consistent points;
    the recorded ones where the result has no points (a report that kept none)."""
    if not result.points:
        return result.gpu_clear_from, result.cpu_clear_to
    factor = result.clear_factor or 1.15
    points = consistent_points(result)
    gpu_from = None
    for point in reversed(points):
        if not (point.winner == "gpu" and point.speedup > factor):
            break
        gpu_from = point.size
    cpu_to = next((p.size for p in reversed(points)
                   if (gpu_from is None or p.size < gpu_from) and p.winner == "cpu" and p.speedup < 1 / factor), None)
    return gpu_from, cpu_to


def _reproducible_interval(result: CrossoverResult) -> _Interval:
    """Where the switch from CPU to GPU lies, as far as a rerun reproduces it: above the largest size where the CPU
    won clearly (or anywhere down to the range's start), at or below the first size from which the GPU wins
    clearly (or anywhere above, up to "never" when it does not win clearly at the top)."""
    gpu_clear_from, cpu_clear_to = _clear_bounds(result)
    if result.gpu_always_wins and gpu_clear_from == result.range_min:
        return _Interval(0, result.range_min, False)
    low = float(cpu_clear_to) if cpu_clear_to is not None else 0.0
    if result.gpu_never_wins and cpu_clear_to == result.range_max:
        low = result.range_max + 1  # the CPU wins clearly at the top: the switch is beyond the range
    high = float(gpu_clear_from) if gpu_clear_from is not None else math.inf
    return _Interval(low, high, low == high)


def sync_floor_ratio(result_a: CrossoverResult, result_b: CrossoverResult) -> tuple[float, str]:
    """(B's GPU-side floor over A's, in words) for a sync-per-op crossover: the least time one launch + op +
    synchronize took over the points either run kept. That round trip is what such a crossover rests on, and it
    moves between processes more than the idle figures the overheads step times: three idle H100 runs' sum
    bfloat16 sync floors were 20.4, 33.9 and 36.1 us while their idle synchronize read 8.1, 8.5 and 4.9 us."""
    floors = [min((p.gpu.median_s for p in consistent_points(r)), default=0.0) for r in (result_a, result_b)]
    if not all(floors):
        return 1.0, ""
    return floors[1] / floors[0], f"launch + op + synchronize {floors[0] * 1e6:.1f} -> {floors[1] * 1e6:.1f} us"


def host_latency_ratio(op: str, mode: str, a: Measurements, b: Measurements) -> tuple[float, str]:
    """(B's host latency this crossover rests on over A's, in words); (1, "") when the crossover does not rest on
    it or a side lacks the number. Sync per op pays launch + synchronize, so their sums are compared."""
    fields = HOST_LATENCY_BOUND.get((op, mode), ())
    values_a = [getattr(a.overheads, f) for f in fields]
    values_b = [getattr(b.overheads, f) for f in fields]
    if not fields or not all(isinstance(v, (int, float)) and v > 0 for v in [*values_a, *values_b]):
        return 1.0, ""
    total_a, total_b = sum(values_a), sum(values_b)
    words = " + ".join("launch" if f == "launch_us" else "idle synchronize" for f in fields)
    return total_b / total_a, f"{words} {total_a:.1f} -> {total_b:.1f} us"


def _text(result: Optional[CrossoverResult], measurements: Measurements) -> str:
    if result is None:
        return absent_reason(measurements)
    if result.status != "ok":
        return f"{result.status}: {result.reason}" if result.reason else result.status
    if result.clear_factor is not None:
        return describe_crossover_bounds(result)
    if result.gpu_never_wins:
        return f"GPU never wins (up to {result.range_max:,})"
    if result.gpu_always_wins:
        return f"<= {result.range_min:,} (GPU wins from the smallest tried)"
    return f"{result.crossover_size:,}" if result.crossover_size is not None else "no result"


def curve_gap(result_a: CrossoverResult, result_b: CrossoverResult) -> Optional[float]:
    """The median factor between two runs' speed-ups at the sizes both measured (None: too few in common)."""
    speedups_a = {p.size: p.speedup for p in result_a.points if p.speedup > 0}
    gaps = sorted(max(speedups_a[p.size], p.speedup) / min(speedups_a[p.size], p.speedup)
                  for p in result_b.points if p.size in speedups_a and p.speedup > 0)
    return statistics.median(gaps) if len(gaps) >= MIN_COMMON_SIZES else None


def side_gaps(result_a: CrossoverResult, result_b: CrossoverResult) -> Optional[tuple[float, float]]:
    """(CPU, GPU): the median factor B's time over A's, per side, at the sizes both runs kept (None: too few)."""
    kept_a = {p.size: p for p in consistent_points(result_a)}
    pairs = [(p, kept_a[p.size]) for p in consistent_points(result_b) if p.size in kept_a]
    if len(pairs) < MIN_COMMON_SIZES or any(min(b.cpu.median_s, b.gpu.median_s, a.cpu.median_s, a.gpu.median_s) <= 0
                                            for b, a in pairs):
        return None
    return (statistics.median(b.cpu.median_s / a.cpu.median_s for b, a in pairs),
            statistics.median(b.gpu.median_s / a.gpu.median_s for b, a in pairs))


def _two_latency_note(result_a: CrossoverResult, result_b: CrossoverResult) -> Optional[str]:
    """Why a moved sync-per-op crossover of an elementwise op is no change, or None when a side did move."""
    gaps = side_gaps(result_a, result_b)
    if gaps is None or any(abs(math.log(g)) > math.log(TWO_LATENCY_BAND) for g in gaps):
        return None
    cpu, gpu = gaps
    return (f"at the sizes both runs measured the CPU side took {cpu:.2f}x and the GPU side {gpu:.2f}x the time, "
            f"within the {TWO_LATENCY_BAND:g}x two idle runs differ by: both sides are fixed latencies here (thread "
            "pool, launch + synchronize), so where they cross is noise; ")


def compare_crossover(result_a: Optional[CrossoverResult], result_b: Optional[CrossoverResult],
                      a: Measurements, b: Measurements, threshold: float) -> MeasurementChange:
    sample = result_b or result_a
    assert sample is not None
    change = MeasurementChange(
        group="Crossover sizes", name=f"{sample.op} {sample.dtype} ({MODE_LABELS.get(sample.mode, sample.mode)})",
        unit=sample.size_unit, higher_is_better=False, a_text=_text(result_a, a), b_text=_text(result_b, b))
    range_a, range_b = _interval(result_a), _interval(result_b)
    if range_a is None or range_b is None:
        change.verdict = "only_b" if range_b is not None else "only_a"
        change.a = range_a.low if range_a and range_a.exact else None
        change.b = range_b.low if range_b and range_b.exact else None
        return change
    fixed_threshold, latency_words = threshold, ""
    reproducible = result_a.clear_factor is not None and result_b.clear_factor is not None  # type: ignore[union-attr]
    if range_a.exact and range_b.exact and not reproducible:
        change.a, change.b = range_a.low, range_b.low
        return judge(change, threshold=threshold)
    if reproducible:
        # Each side is the stretch a rerun reproduces (CPU clearly faster below it, GPU clearly faster above it);
        # sizes inside both stretches are an answer either run could have given.
        change.a = float(result_a.crossover_size) if result_a.crossover_size is not None else None  # type: ignore[union-attr]
        change.b = float(result_b.crossover_size) if result_b.crossover_size is not None else None  # type: ignore[union-attr]
        if range_a.low <= range_b.high and range_b.low <= range_a.high:
            change.verdict, change.note = "similar", "the stretches where CPU and GPU are even overlap"
            return change
        threshold = max(threshold, PAGEABLE_RUN_TO_RUN_GAP if sample.mode == "transfer_pageable" else RUN_TO_RUN_GAP)
        latency_ratio, latency_words = host_latency_ratio(sample.op, sample.mode, a, b)
        if sample.mode == "sync" and latency_words:
            floor_ratio, floor_words = sync_floor_ratio(result_a, result_b)  # type: ignore[arg-type]
            if abs(math.log(floor_ratio)) > abs(math.log(latency_ratio)):
                latency_ratio, latency_words = floor_ratio, floor_words
        fixed_threshold = threshold
        if latency_ratio > 1 and range_b.low > range_a.high:  # later on B, whose host latency is higher
            threshold = max(threshold, (1 + CPU_SIDE_MARGIN) * latency_ratio - 1)
        elif latency_ratio < 1 and range_b.high < range_a.low:  # earlier on B, whose host latency is lower
            threshold = max(threshold, 1 - 1 / ((1 + CPU_SIDE_MARGIN) / latency_ratio))
    else:
        change.a = range_a.low if range_a.exact else None
        change.b = range_b.low if range_b.exact else None
    if range_b.low > range_a.high:
        # Certainly later on B; the ratio of the nearest bounds is the least it got worse by.
        change.worse_by = range_b.low / range_a.high - 1 if range_a.high > 0 else None
        change.verdict = "worse" if change.worse_by is None or change.worse_by > threshold else "similar"
        change.note = "from the bounds of the ranges tried, not a measured ratio"
    elif range_b.high < range_a.low:
        change.worse_by = range_b.high / range_a.low - 1
        change.verdict = "better" if -change.worse_by > threshold else "similar"
        change.note = "from the bounds of the ranges tried, not a measured ratio"
    elif math.isinf(range_a.high) and math.isinf(range_b.high):
        change.verdict, change.note = "similar", "the GPU never wins in the range tried on either side"
    elif range_a.low == range_b.low == 0:
        change.verdict, change.note = "similar", "the GPU wins from the smallest size tried on both sides"
    else:
        change.verdict = "unclear"
        change.note = "the ranges tried overlap: no order can be told"
    if latency_words and change.verdict == "similar" and change.worse_by is not None and abs(change.worse_by) > fixed_threshold:
        change.note = (f"moved {abs(change.worse_by):.0%}, within what the host latency it rests on moved between "
                       f"the runs ({latency_words}) explains; " + change.note)
    if sample.mode == "transfer_pageable" and change.verdict in ("worse", "better"):
        gap = curve_gap(result_a, result_b)  # type: ignore[arg-type]
        if gap is not None and gap <= PAGEABLE_CURVE_BAND:
            change.verdict = "similar"
            change.note = (f"the speed-up curves agree at the sizes both runs measured (median gap {gap - 1:.0%}, "
                           f"within the copy and CPU rates' run-to-run band): the ratio stays near 1 over a long "
                           f"stretch, so where it tips is noise; " + change.note)
    if sample.mode == "sync" and sample.op in TWO_LATENCY_OPS and change.verdict in ("worse", "better"):
        note = _two_latency_note(result_a, result_b)  # type: ignore[arg-type]
        if note is not None:
            change.verdict, change.note = "similar", note + change.note
    contended = [side for side, r in (("A", result_a), ("B", result_b)) if r is not None and r.cpu_contended]
    if contended and change.verdict in ("worse", "better"):
        change.noisy, change.verdict = True, "unclear"
        change.note = f"CPU side timed under load from other processes in {' and '.join(contended)}; " + change.note
    change.regression = change.verdict == "worse" and not change.noisy
    return change


def diff_crossovers(a: Measurements, b: Measurements, threshold: float) -> list[MeasurementChange]:
    def key(result: CrossoverResult) -> tuple[str, str, str]:
        return result.op, result.dtype, result.mode

    by_key_a = {key(r): r for r in a.crossover}
    by_key_b = {key(r): r for r in b.crossover}
    changes = []
    for item in [*by_key_a, *(k for k in by_key_b if k not in by_key_a)]:
        result_a, result_b = by_key_a.get(item), by_key_b.get(item)
        if _interval(result_a) is None and _interval(result_b) is None:
            continue  # measured on neither side
        changes.append(compare_crossover(result_a, result_b, a, b, threshold))
    return changes
