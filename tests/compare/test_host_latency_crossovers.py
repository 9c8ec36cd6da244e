"""Crossovers of add/sum in resident and sync modes are judged against the host latencies both runs measured.

Numbers from benchmarks/bench_repeatability.py on an H200 (sample_reports/h200/bench_repeatability_h200.json):
two idle runs whose launch/synchronize latencies differed by 1.5-1.8x, and the CUDA_LAUNCH_BLOCKING=1 control.
"""

from __future__ import annotations

from advisor.compare.crossover_diff import compare_crossover
from advisor.models.measurements import CrossoverResult
from tests.compare.compare_helpers import measurements


def stretch(op: str, mode: str, cpu_to: int, gpu_from: int, dtype: str = "float64") -> CrossoverResult:
    return CrossoverResult(op=op, dtype=dtype, mode=mode, size_unit="elements", crossover_size=gpu_from,
                           cpu_clear_to=cpu_to, gpu_clear_from=gpu_from, clear_factor=1.15, range_min=1024,
                           range_max=10_000_000)


def side(launch_us: float, sync_us: float, result: CrossoverResult):
    m = measurements(crossovers=[result])
    m.overheads.launch_us, m.overheads.sync_us = launch_us, sync_us
    return m


def judged(op, mode, a_stretch, b_stretch, a_latency, b_latency):
    a, b = stretch(op, mode, *a_stretch), stretch(op, mode, *b_stretch)
    return compare_crossover(a, b, side(*a_latency, a), side(*b_latency, b), 0.10)


def test_idle_runs_whose_latencies_differ_are_not_flagged():
    # H200 runs 1 and 2: add float64 sync 81k/98.1k -> 256k/552k while launch 6.5 -> 9.9 us, sync 4.3 -> 7.6 us.
    change = judged("add", "sync", (81_000, 98_100), (256_000, 552_000), (6.54, 4.28), (9.93, 7.63))
    assert change.verdict == "similar"
    assert "idle synchronize 4.3 -> 7.6 us" in change.note


def test_same_move_with_steady_latencies_is_flagged():
    change = judged("add", "sync", (81_000, 98_100), (256_000, 552_000), (6.54, 4.28), (6.6, 4.3))
    assert change.verdict == "worse"


def test_launch_blocking_control_still_flagged():
    # Control: launch 6.45 -> 15.4 us; sum float32 resident 25.6k/174k -> 810k/4.55M.
    change = judged("sum", "resident", (25_600, 174_000), (810_000, 4_550_000), (6.45, 4.3), (15.4, 4.3))
    assert change.verdict == "worse"


def test_matmul_keeps_the_fixed_gap():
    change = judged("matmul", "sync", (31, 37), (97, 117), (6.54, 4.28), (9.93, 7.63))
    assert change.verdict == "worse"
