"""Measurement comparison: ratios, better/worse by unit, threshold and spread, noise, one-sided numbers."""

from __future__ import annotations

import pytest
from compare_helpers import crossover, measurements, report, scalar

from advisor.compare import compare_reports
from advisor.compare.crossover_diff import diff_crossovers
from advisor.compare.judge import worse_by
from advisor.compare.measurements_diff import diff_scalars
from advisor.models.common import missing
from advisor.models.measurements import UnsyncTimingDemo


def one(a, b, threshold=0.10):
    [change] = diff_scalars(a, b, threshold)
    return change


def test_worse_by_reads_the_same_for_rates_and_times():
    assert worse_by(100.0, 80.0, higher_is_better=True) == pytest.approx(0.2)  # lost a fifth of the bandwidth
    assert worse_by(10.0, 12.0, higher_is_better=False) == pytest.approx(0.2)  # a fifth more latency
    assert worse_by(10.0, 5.0, higher_is_better=False) == pytest.approx(-0.5)


def test_bandwidth_drop_is_worse_and_a_regression():
    change = one(measurements(transfer=[scalar("host->device pinned 256 MiB", 55.0, "GB/s")]),
                 measurements(transfer=[scalar("host->device pinned 256 MiB", 25.0, "GB/s")]))
    assert (change.group, change.verdict, change.higher_is_better, change.regression) == (
        "Host<->device bandwidth", "worse", True, True)
    assert change.ratio == pytest.approx(25 / 55) and change.worse_by == pytest.approx(30 / 55)
    assert (change.a_text, change.b_text) == ("55.0 GB/s", "25.0 GB/s")


def test_lower_latency_is_better():
    # Host-side latencies move by up to ~80% between idle runs (RUN_TO_RUN_BAND): 12 -> 4 us is beyond that.
    change = one(measurements(overheads=[scalar("launch of a tiny op (host)", 25.0, "us")]),
                 measurements(overheads=[scalar("launch of a tiny op (host)", 4.0, "us")]))
    assert (change.verdict, change.regression, change.higher_is_better) == ("better", False, False)
    assert change.worse_by == pytest.approx(-0.84)


def test_change_inside_the_threshold_is_similar():
    change = one(measurements(peaks=[scalar("GPU matmul float32", 51.0, "TFLOP/s")]),
                 measurements(peaks=[scalar("GPU matmul float32", 48.0, "TFLOP/s")]))
    assert (change.verdict, change.regression) == ("similar", False)
    assert one(measurements(peaks=[scalar("GPU matmul float32", 51.0, "TFLOP/s")]),
               measurements(peaks=[scalar("GPU matmul float32", 48.0, "TFLOP/s")]), threshold=0.05).verdict == "worse"


def test_change_inside_the_measured_spread_is_similar_even_past_the_threshold():
    # Each side's IQR is 40% of its median: a 15% drop cannot be told from noise.
    change = one(measurements(peaks=[scalar("CPU matmul float32", 100.0, "GFLOP/s", spread=0.4)]),
                 measurements(peaks=[scalar("CPU matmul float32", 85.0, "GFLOP/s", spread=0.4)]))
    assert change.verdict == "similar"


def test_noisy_numbers_are_flagged_and_never_regressions():
    change = one(measurements(peaks=[scalar("CPU matmul float32", 1600.0, "GFLOP/s", stable=False)]),
                 measurements(peaks=[scalar("CPU matmul float32", 800.0, "GFLOP/s")]))
    assert (change.verdict, change.noisy, change.regression, change.note) == ("worse", True, False, "did not settle in A")


def test_single_observations_are_noisy():
    # A one-off cost (context creation) moved 142 -> 266 ms between two idle H100 runs: no interval, no verdict.
    change = one(measurements(overheads=[scalar("CUDA context + first kernel", 0.16, "s", single=True)]),
                 measurements(overheads=[scalar("CUDA context + first kernel", 0.40, "s", single=True)]))
    assert (change.verdict, change.noisy, change.regression) == ("similar", True, False)
    assert change.note == "single observation on both sides"
    assert (change.a_text, change.b_text) == ("160.00 ms", "400.00 ms")
    change = one(measurements(overheads=[scalar("CUDA context + first kernel", 0.16, "s", single=True)]),
                 measurements(overheads=[scalar("CUDA context + first kernel", 0.90, "s", single=True)]))
    assert (change.verdict, change.regression) == ("unclear", False) and "rerun to confirm" in change.note


def test_workload_difference_is_noted():
    change = one(measurements(peaks=[scalar("CPU matmul float64", 83.0, "GFLOP/s", workload="1024x1024")]),
                 measurements(peaks=[scalar("CPU matmul float64", 560.0, "GFLOP/s", workload="2048x2048")]))
    assert change.note == "workload differs: B ran '2048x2048'"


def test_one_sided_numbers_say_why_the_other_is_missing():
    a = measurements(peaks=[scalar("CPU matmul float32", 214.0, "GFLOP/s")],
                     notes=["GPU measurements skipped: Torch not compiled with CUDA enabled"])
    b = measurements(peaks=[scalar("CPU matmul float32", 1612.0, "GFLOP/s"), scalar("GPU matmul float32", 51.0, "TFLOP/s")],
                     overheads=[scalar("idle synchronize", None, "us", status="failed", reason="CUDA error: busy")])
    changes = diff_scalars(a, b, 0.1)
    assert [(c.name, c.verdict, c.a_text, c.b_text) for c in changes] == [
        ("CPU matmul float32", "better", "214 GFLOP/s", "1,612 GFLOP/s"),
        ("GPU matmul float32", "only_b", "not measured: GPU measurements skipped: Torch not compiled with CUDA enabled",
         "51.0 TFLOP/s"),
    ]  # the sync that failed in B and was absent in A is measured on neither side: left out


def test_failed_on_one_side_shows_the_failure():
    a = measurements(overheads=[scalar("idle synchronize", 4.0, "us")])
    b = measurements(overheads=[scalar("idle synchronize", None, "us", status="failed", reason="CUDA error: busy")])
    change = one(a, b)
    assert (change.verdict, change.a, change.b, change.b_text) == ("only_a", 4.0, None, "failed: CUDA error: busy")


def test_unit_mismatch_is_unclear():
    change = one(measurements(overheads=[scalar("launch", 6.0, "us")]),
                 measurements(overheads=[scalar("launch", 0.006, "ms")]))
    assert (change.verdict, change.note, change.ratio) == ("unclear", "units differ: us vs ms", None)


def test_unsync_factor_has_no_better_or_worse():
    a, b = measurements(), measurements()
    a.unsync_timing = UnsyncTimingDemo(naive_s=1e-4, correct_s=3e-3, underreport_factor=30.0)
    b.unsync_timing = UnsyncTimingDemo(naive_s=1e-4, correct_s=9e-3, underreport_factor=90.0)
    change = one(a, b)
    # It swings with launch latency (29x-110x between idle H100/H200 runs): only from 5x on is it a change.
    assert (change.name, change.higher_is_better, change.verdict, change.regression, change.ratio) == (
        "naive timer under-reports by", None, "similar", False, 3.0)
    b.unsync_timing = UnsyncTimingDemo(naive_s=3e-3, correct_s=3e-3, underreport_factor=1.0)  # CUDA_LAUNCH_BLOCKING=1
    assert one(a, b).verdict == "changed"
    b.unsync_timing = missing("no GPU measurement: no CUDA")
    change = one(a, b)
    assert (change.verdict, change.b_text) == ("only_a", "unavailable: no GPU measurement: no CUDA")


def crossover_change(result_a, result_b, threshold=0.10):
    [change] = diff_crossovers(measurements(crossovers=[result_a]), measurements(crossovers=[result_b]), threshold)
    return change


def test_crossover_ratio_smaller_is_better():
    change = crossover_change(crossover(size=142), crossover(size=300))
    assert (change.name, change.verdict, change.regression, change.ratio) == (
        "matmul float32 (resident)", "worse", True, pytest.approx(300 / 142))
    assert crossover_change(crossover(size=300), crossover(size=142)).verdict == "better"


def test_gpu_never_wins_is_a_bound_not_a_ratio():
    change = crossover_change(crossover(size=142), crossover(never=True, range_max=2088))
    assert (change.verdict, change.ratio, change.regression) == ("worse", None, True)
    assert change.worse_by == pytest.approx(2089 / 142 - 1)
    assert change.b_text == "GPU never wins (up to 2,088)" and change.note.startswith("from the bounds")
    better = crossover_change(crossover(never=True, range_max=2088), crossover(size=660))
    assert (better.verdict, better.regression) == ("better", False)


def test_gpu_always_wins_against_a_number():
    change = crossover_change(crossover(always=True, range_min=8), crossover(size=142))
    assert (change.verdict, change.a_text) == ("worse", "<= 8 (GPU wins from the smallest tried)")
    assert crossover_change(crossover(always=True, range_min=8), crossover(size=4)).verdict == "unclear"


def test_the_same_bound_on_both_sides_is_similar():
    change = crossover_change(crossover(never=True), crossover(never=True, range_max=8192))
    assert (change.verdict, change.regression, change.ratio) == ("similar", False, None)
    assert change.note == "the GPU never wins in the range tried on either side"
    change = crossover_change(crossover(always=True, range_min=1), crossover(always=True, range_min=1))
    assert (change.verdict, change.note) == ("similar", "the GPU wins from the smallest size tried on both sides")


def test_crossover_skipped_on_one_side_and_on_both():
    skipped = crossover(status="skipped", reason="time budget reached before this crossover (raise --budget)")
    change = crossover_change(crossover(size=142), skipped)
    assert (change.verdict, change.b_text) == ("only_a", "skipped: time budget reached before this crossover (raise --budget)")
    assert diff_crossovers(measurements(crossovers=[skipped]), measurements(crossovers=[skipped]), 0.1) == []


def test_regressions_list_names_the_measurement():
    a = report(measurements=measurements(transfer=[scalar("host->device pinned 256 MiB", 55.0, "GB/s")],
                                         crossovers=[crossover(size=142)]))
    b = report(measurements=measurements(transfer=[scalar("host->device pinned 256 MiB", 25.0, "GB/s")],
                                         crossovers=[crossover(size=142)]))
    comparison = compare_reports(a, b)
    assert comparison.regressions == [
        "Host<->device bandwidth: host->device pinned 256 MiB 55% worse (55.0 GB/s -> 25.0 GB/s)"]
    assert [c.verdict for c in comparison.measurements] == ["worse", "similar"]


def test_a_side_without_measurements_is_said_once_not_listed():
    a = report()  # an env report or pasted text: no measurement run
    b = report(measurements=measurements(peaks=[scalar("GPU matmul float32", 51.0, "TFLOP/s")]))
    comparison = compare_reports(a, b)
    assert comparison.measurements == []
    assert comparison.measurements_note.startswith("A holds no measurements")


def test_a_contended_cpu_timing_is_never_a_regression():
    from advisor.compare.measurements_diff import compare_scalar
    from advisor.models.measurements import Measurements, ScalarMeasurement, TimingStats

    def peak(value, median, contended):
        stats = TimingStats(median_s=median, q1_s=median * 0.98, q3_s=median * 1.02, min_s=median * 0.97,
                            max_s=median * 1.05, samples=5, rel_spread=0.04, stable=not contended,
                            method="cpu_clock", contended=contended)
        return ScalarMeasurement(name="CPU matmul float32", value=value, unit="GFLOP/s", stats=stats)

    quiet, busy = peak(185.0, 0.01, False), peak(2.0, 0.9, True)
    change = compare_scalar("Peak throughput", "CPU matmul float32", quiet, busy, Measurements(), Measurements(), 0.1)
    assert change.verdict == "unclear" and not change.regression
    assert "other processes" in change.note


def test_overlapping_interquartile_ranges_are_similar():
    from advisor.compare.measurements_diff import compare_scalar
    from advisor.models.measurements import Measurements, ScalarMeasurement, TimingStats

    def launch(value, spread):
        stats = TimingStats(median_s=value, q1_s=value * (1 - spread), q3_s=value * (1 + spread), min_s=value * 0.5,
                            max_s=value * 2, samples=20, rel_spread=2 * spread, stable=True, method="cpu_clock")
        return ScalarMeasurement(name="launch", value=value, unit="us", stats=stats)

    change = compare_scalar("Overheads", "launch", launch(5.0, 0.1), launch(5.8, 0.1), Measurements(), Measurements(), 0.1)
    assert change.verdict == "similar"
    change = compare_scalar("Overheads", "launch", launch(5.0, 0.01), launch(15.0, 0.01), Measurements(), Measurements(), 0.1)
    assert change.verdict == "worse" and change.regression
