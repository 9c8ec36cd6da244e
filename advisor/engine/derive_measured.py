"""Derived facts from measurements: ratios and summaries the performance rules read as ``derived.*``.

Pure functions of a Measurements model; each value is Unavailable, with the reason, when the numbers it
needs were not measured (no GPU, a failed or skipped measurement, a report from before it existed).
"""

from __future__ import annotations

from typing import Literal, Optional, Union

from advisor.models.clock_events import SLOWDOWN_REASONS
from advisor.models.common import Fact, Unavailable, missing
from advisor.models.measurements import CrossoverMode, CrossoverResult, DType, Measurements, Op

#: A crossover that did not happen in the range tried: a value rules compare with (``eq: never``), which
#: orders above every size (engine/conditions.py), never a None that means "unknown" elsewhere.
Never = Literal["never"]
NEVER: Never = "never"
CrossoverSize = Union[int, Never]

_MODE_WORDS = {"resident": "data resident", "sync": "synchronized per op", "transfer_pinned": "pinned copies",
               "transfer_pageable": "pageable copies"}


def crossover_map(measurements: Measurements) -> dict[Op, dict[DType, dict[CrossoverMode, Fact[CrossoverSize]]]]:
    """op -> dtype -> mode -> crossover size ("never": the GPU never won in the range tried), or why a crossover
    the run attempted has none (skipped, failed)."""
    table: dict = {}
    for result in measurements.crossover:
        if result.status == "ok":
            value: Fact[CrossoverSize] = NEVER if result.gpu_never_wins else result.crossover_size  # type: ignore[assignment]
        else:
            value = missing(result.reason or f"{result.op} {result.dtype} {result.mode} crossover {result.status}")
        table.setdefault(result.op, {}).setdefault(result.dtype, {})[result.mode] = value
    return table


def _find(measurements: Measurements, op: str, dtype: str, mode: str) -> Optional[CrossoverResult]:
    return next((r for r in measurements.crossover
                 if (r.op, r.dtype, r.mode) == (op, dtype, mode) and r.status == "ok"), None)


def _describe(result: CrossoverResult) -> str:
    if result.gpu_never_wins:
        return f"never up to {result.range_max:,}"
    if result.gpu_always_wins:
        return f"at or below {result.range_min:,}"
    return f"{result.crossover_size:,}"


def crossover_summary(measurements: Measurements, op: str, dtype: str) -> Fact[str]:
    """One line: "142 (data resident), 209 (synchronized per op), ..." for one op and dtype."""
    parts = [f"{_describe(r)} ({_MODE_WORDS[r.mode]})" for r in measurements.crossover
             if r.op == op and r.dtype == dtype and r.status == "ok"]
    if not parts:
        return missing(f"no {op} {dtype} crossover was measured")
    return ", ".join(parts)


def transfer_ratio(measurements: Measurements, op: str, dtype: str) -> Fact[Union[float, Never]]:
    """Pinned-copy crossover over resident crossover; "never" when the GPU never wins once copies are counted."""
    resident, copied = _find(measurements, op, dtype, "resident"), _find(measurements, op, dtype, "transfer_pinned")
    if resident is None or copied is None:
        return missing(f"{op} {dtype} resident and pinned-copy crossovers were not both measured")
    if resident.gpu_never_wins:
        return missing(f"the GPU never won {op} {dtype} even with data resident")
    if copied.gpu_never_wins:
        return NEVER
    return copied.crossover_size / resident.crossover_size  # type: ignore[operator]


def copy_share(measurements: Measurements, op: str, dtype: str) -> Fact[float]:
    """Share of the copied op's GPU-side time spent moving data, at the largest size both modes measured."""
    resident, copied = _find(measurements, op, dtype, "resident"), _find(measurements, op, dtype, "transfer_pinned")
    if resident is None or copied is None:
        return missing(f"{op} {dtype} resident and pinned-copy timings were not both measured")
    common = {p.size: p for p in resident.points}
    shared = [p for p in copied.points if p.size in common]
    if not shared:
        return missing("no size was measured in both modes")
    point = max(shared, key=lambda p: p.size)
    return max(0.0, 1.0 - common[point.size].gpu.median_s / point.gpu.median_s)


def ratio(numerator: object, denominator: object, why: str) -> Fact[float]:
    if isinstance(numerator, Unavailable):
        return numerator
    if isinstance(denominator, Unavailable):
        return denominator
    if not isinstance(numerator, (int, float)) or not isinstance(denominator, (int, float)) or not denominator:
        return missing(why)
    return float(numerator) / float(denominator)


def peak_ratio(measurements: Measurements, dtype: DType, base: DType = "float32") -> Fact[float]:
    tflops = measurements.peaks.matmul_tflops
    return ratio(tflops.get(dtype, missing(f"{dtype} matmul peak not measured")),
                  tflops.get(base, missing(f"{base} matmul peak not measured")), "peak not measured")


def gpu_cpu_ratio(measurements: Measurements) -> Fact[float]:
    """GPU fp32 matmul TFLOP/s over the CPU's (at the threads a program gets): the "weak GPU" evidence."""
    gpu = measurements.peaks.matmul_tflops.get("float32", missing("GPU fp32 matmul peak not measured"))
    cpu = measurements.peaks.cpu_matmul_gflops.get("float32", missing("CPU fp32 matmul peak not measured"))
    if isinstance(gpu, (int, float)) and not isinstance(gpu, bool):
        gpu = gpu * 1000  # TFLOP/s -> GFLOP/s
    return ratio(gpu, cpu, "peaks not measured")


def link_degraded(measurements: Measurements) -> Fact[bool]:
    transfer = measurements.transfer
    values = (transfer.link_gen_under_load, transfer.link_width_under_load, transfer.link_gen_max,
              transfer.link_width_max)
    gone = next((v for v in values if isinstance(v, Unavailable)), None)
    if gone is not None:
        return gone
    gen, width, gen_max, width_max = values
    return gen < gen_max or width < width_max  # type: ignore[operator]


def slowdown_seen(measurements: Measurements) -> Fact[list[str]]:
    seen = measurements.gpu_state.clock_event_reasons_seen
    if isinstance(seen, Unavailable):
        return seen
    return [reason for reason in seen if reason in SLOWDOWN_REASONS]


def close_call_fraction(measurements: Measurements) -> Fact[float]:
    """Share of crossover comparisons that sampling could not settle within its time cap.

    Only sizes right at a crossover should be close calls (about 2% of comparisons on an idle H200); many more
    mean something else was using the CPU or GPU. (A timing's own spread target is not the signal: the first
    look at a size is deliberately short, and a clear race is decided long before its spread is small.)
    """
    points = [p for r in measurements.crossover if r.status == "ok" for p in r.points]
    if not points:
        return missing("no crossover was measured")
    return sum(1 for p in points if p.close_call) / len(points)
