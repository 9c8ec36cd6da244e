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


def test_a_move_the_runs_own_launch_latency_explains_is_not_flagged():
    # Launch 6.5 -> 13.1 us between two idle processes: add resident 81k/98.1k -> 210k/250k (2.1x) is what it does.
    change = judged("add", "resident", (81_000, 98_100), (210_000, 250_000), (6.54, 4.28), (13.1, 4.3))
    assert change.verdict == "similar"
    assert "launch 6.5 -> 13.1 us" in change.note


def test_same_move_with_steady_latencies_is_flagged():
    change = judged("add", "resident", (81_000, 98_100), (210_000, 250_000), (6.54, 4.28), (6.6, 4.3))
    assert change.verdict == "worse"


def test_latency_only_excuses_a_move_in_its_own_direction():
    # B's launch is faster, yet its crossover came later: the latency explains nothing.
    change = judged("add", "resident", (81_000, 98_100), (210_000, 250_000), (13.1, 4.3), (6.54, 4.28))
    assert change.verdict == "worse"


def test_sync_mode_uses_launch_plus_synchronize():
    # H200 idle pair: add float64 sync 81k/98.1k -> 256k/552k (2.6x) while launch + sync went 10.8 -> 17.6 us
    # (1.62x): more than the latencies explain, still flagged (the CPU side moved too).
    change = judged("add", "sync", (81_000, 98_100), (256_000, 552_000), (6.54, 4.28), (9.93, 7.63))
    assert change.verdict == "worse"


def test_launch_blocking_control_still_flagged():
    # H100 control (CUDA_LAUNCH_BLOCKING=1): launch 9.8 -> 14.7 us, add float64 resident 17.4k/31k -> 66.8k/310k.
    change = judged("add", "resident", (17_400, 31_000), (66_800, 310_000), (9.77, 7.44), (14.72, 5.32))
    assert change.verdict == "worse"


def test_matmul_keeps_the_fixed_gap():
    change = judged("matmul", "resident", (31, 37), (97, 117), (6.54, 4.28), (13.1, 4.3))
    assert change.verdict == "worse"
