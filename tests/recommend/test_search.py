"""The search, driven by recorded and synthetic memory profiles: it must land within tolerance of the true
maximum with few trials of large batches, and bisect only where the prediction was wrong."""

from __future__ import annotations

from typing import Callable, Optional

import pytest

from advisor.recommend.search import BatchSearch, SearchConfig
from advisor.recommend.trials import Trial

MIB = 2**20
GIB = 2**30


def run(search: BatchSearch, peak_of: Callable[[int], float], limit: float,
        error_at: Optional[int] = None) -> BatchSearch:
    while (batch := search.propose()) is not None:
        need = peak_of(batch)
        phase = "fit" if search.phase == "fit" else "search"
        if error_at is not None and batch >= error_at:
            search.record(Trial(batch, False, failure="error", message="RuntimeError: boom", phase=phase))
        elif need > limit:
            search.record(Trial(batch, False, peak_allocated=int(limit), peak_reserved=int(limit), failure="oom",
                                phase=phase))
        else:
            reserved = -(-int(need) // (2 * MIB)) * 2 * MIB
            search.record(Trial(batch, True, peak_allocated=int(need), peak_reserved=reserved, steps=3, phase=phase))
        assert len(search.trials) < 60, "search does not terminate"
    return search


def true_max(peak_of: Callable[[int], float], limit: float) -> int:
    batch = 0
    while peak_of(batch + 1) <= limit:
        batch += 1
    return batch


# ResNet-50, float32, Adam, 224x224 on an 80 GB H100 (orders of magnitude of a real run): ~0.4 GiB fixed,
# ~90 MiB per sample, a cuDNN workspace step, the allocator's 2 MiB rounding.
def resnet_like(batch: int) -> float:
    workspace = 512 * MIB if batch > 300 else 128 * MIB
    return 0.45 * GIB + batch * 89.7 * MIB + workspace


LIMIT = 79 * GIB


def search_trials(search: BatchSearch) -> list[Trial]:
    return [t for t in search.trials if t.phase == "search"]


def test_linear_profile_converges_with_three_large_trials():
    search = run(BatchSearch(LIMIT), lambda b: 0.45 * GIB + b * 89.7 * MIB, LIMIT)
    exact = true_max(lambda b: 0.45 * GIB + b * 89.7 * MIB, LIMIT)
    assert search.state.reason == "converged"
    assert exact * 0.995 <= search.state.largest_fit <= exact
    assert len(search_trials(search)) <= 3


def test_a_workspace_step_is_caught_by_the_real_trials():
    search = run(BatchSearch(LIMIT), resnet_like, LIMIT)
    exact = true_max(resnet_like, LIMIT)
    assert exact * 0.995 <= search.state.largest_fit <= exact
    assert len(search_trials(search)) <= 6


@pytest.mark.parametrize("curvature", [0.0, 2e-4, -1e-4])
def test_mildly_nonlinear_profiles_still_land_within_half_a_percent(curvature):
    def peak(b: int) -> float:
        return 2 * GIB + b * 40 * MIB * (1 + curvature * b)

    limit = 60 * GIB
    search = run(BatchSearch(limit), peak, limit)
    exact = true_max(peak, limit)
    assert exact * 0.995 <= search.state.largest_fit <= exact
    assert len(search_trials(search)) <= 10


def test_prediction_far_off_falls_back_to_bisection():
    # Memory grows slowly at small batches and fast later (e.g. attention switching kernels): the prediction
    # from small batches is far too optimistic.
    def peak(b: int) -> float:
        return 1 * GIB + b * 10 * MIB + (b - 200) * 200 * MIB * (b > 200)

    limit = 40 * GIB
    search = run(BatchSearch(limit), peak, limit)
    exact = true_max(peak, limit)
    assert exact * 0.995 <= search.state.largest_fit <= exact
    assert search.state.initial_prediction > 1.3 * exact
    assert len(search_trials(search)) <= 8


def test_tiny_model_huge_batch_and_the_cap():
    peak = lambda b: 200 * MIB + b * 20 * 1024  # noqa: E731 -- an MLP: 20 KiB per sample
    search = run(BatchSearch(70 * GIB), peak, 70 * GIB)
    exact = true_max(peak, 70 * GIB) if False else int((70 * GIB - 200 * MIB) // (20 * 1024))
    assert exact * 0.995 <= search.state.largest_fit <= exact
    capped = run(BatchSearch(70 * GIB, SearchConfig(max_batch=5000)), peak, 70 * GIB)
    assert capped.state.reason == "capped" and capped.state.largest_fit == 5000
    assert max(t.batch for t in capped.trials) == 5000


def test_model_too_large_for_batch_one():
    search = run(BatchSearch(10 * GIB), lambda b: 12 * GIB + b * MIB, 10 * GIB)
    assert search.state.reason == "too_large"
    assert search.state.largest_fit is None and len(search.trials) == 1


def test_an_error_at_the_first_batch_is_not_a_memory_answer():
    search = run(BatchSearch(10 * GIB), lambda b: b * MIB, 10 * GIB, error_at=1)
    assert search.state.reason == "error"


def test_an_error_at_a_large_batch_bounds_the_search_and_is_noted():
    search = run(BatchSearch(80 * GIB), lambda b: GIB + b * 10 * MIB, 80 * GIB, error_at=3000)
    assert search.state.largest_fit < 3000
    assert search.state.largest_fit >= 2985
    assert any("not out-of-memory" in note for note in search.state.notes)


def test_failure_during_the_fit_phase_uses_the_bracket():
    # Max is 5: the fit phase 1, 2, 4 runs, 8 fails.
    search = run(BatchSearch(10 * GIB), lambda b: 4 * GIB + b * 1.1 * GIB, 10 * GIB)
    assert search.state.largest_fit == 5
    assert search.state.smallest_fail == 6


def test_a_flaky_limit_is_noted_not_fatal():
    search = BatchSearch(10 * GIB)
    search.record(Trial(1, True, peak_allocated=GIB, peak_reserved=GIB, phase="fit"))
    search.phase = "refine"
    search.record(Trial(100, False, failure="oom"))
    search.record(Trial(120, True, peak_allocated=5 * GIB, peak_reserved=5 * GIB))
    assert search.state.smallest_fail is None and search.state.largest_fit == 120
    assert any("not sharp" in note for note in search.state.notes)


def test_proposals_stay_inside_the_bracket():
    search = run(BatchSearch(LIMIT), resnet_like, LIMIT)
    lo, hi = 0, None
    for trial in search.trials:
        if trial.phase == "search":
            assert trial.batch > lo and (hi is None or trial.batch < hi)
        if trial.fits:
            lo = max(lo, trial.batch)
        else:
            hi = trial.batch if hi is None else min(hi, trial.batch)
