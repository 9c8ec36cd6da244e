"""Sync-per-op crossovers of elementwise ops sit where two nearly flat latencies cross (the GPU's launch + op +
synchronize, the CPU thread pool's fork and join), so they move by several times between idle runs. Judged here on
real idle H100 runs of two device sessions (fixtures h100_repeat_r4 and h100_repeat_r5), pairs the old rule
flagged: add bfloat16 read "GPU >= 668k" in one and "GPU >= 98.1k" in the other, the move a fresh H100 showed in
session 4 (r6: 668k -> 119k)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from advisor.compare.crossover_diff import TWO_LATENCY_BAND, compare_crossover, side_gaps
from advisor.models.load import load_report_json

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "reports"


def load(round_name: str, name: str):
    path = FIXTURES / f"h100_repeat_{round_name}" / f"{name}.json.gz"
    return load_report_json(gzip.decompress(path.read_bytes()).decode(), name)


def crossover(report, op: str, dtype: str, mode: str = "sync"):
    return next(r for r in report.measurements.crossover if (r.op, r.dtype, r.mode) == (op, dtype, mode))


@pytest.fixture(scope="module")
def idle_pair():
    return load("r4", "repeat_3"), load("r5", "repeat_2")


def test_a_crossover_of_two_flat_latencies_that_moved_6x_is_no_change(idle_pair):
    a, b = idle_pair
    result_a, result_b = crossover(a, "add", "bfloat16"), crossover(b, "add", "bfloat16")
    assert result_a.crossover_size >= 3 * result_b.crossover_size  # the stretches lie far apart (668k vs 98.1k)...
    cpu, gpu = side_gaps(result_a, result_b)
    assert 1 / TWO_LATENCY_BAND < cpu < 1 and 1 / TWO_LATENCY_BAND < gpu < 1  # ...each side moved less than the band
    change = compare_crossover(result_a, result_b, a.measurements, b.measurements, 0.25)
    assert change.verdict == "similar" and not change.regression
    assert "fixed latencies" in change.note


def slower_gpu(result, factor: float):
    """The same curve with every GPU time `factor` times longer: what another process on the GPU does."""
    points = []
    for p in result.points:
        gpu = p.gpu.model_copy(update={"median_s": p.gpu.median_s * factor})
        points.append(p.model_copy(update={"gpu": gpu, "speedup": p.speedup / factor}))
    return result.model_copy(update={"points": points})


def test_a_round_trip_that_really_got_slower_is_still_flagged(idle_pair):
    a, b = idle_pair
    result_a = crossover(b, "add", "bfloat16")
    result_b = slower_gpu(result_a, 4.0)
    from advisor.compare.crossover_diff import _two_latency_note

    assert side_gaps(result_a, result_b)[1] == pytest.approx(4.0)
    assert _two_latency_note(result_a, result_b) is None  # a 4x round trip is no idle noise


def test_matmul_sync_crossovers_keep_the_rate_rules(idle_pair):
    # Their CPU side grows with n^3: a moved crossover there is a moved rate, not two latencies.
    a, b = idle_pair
    change = compare_crossover(crossover(a, "matmul", "float32"), crossover(b, "matmul", "float32"),
                               a.measurements, b.measurements, 0.25)
    assert "fixed latencies" not in (change.note or "")
