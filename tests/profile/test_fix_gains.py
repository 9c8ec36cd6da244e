"""The gain of a fix as an interval: TF32 off/on sample pairs (recorded shape of the bootstrap's trial), and the
pinned-copy measurement falling back to a labelled estimate where CUDA cannot be used (this CPU machine)."""

import pytest

from advisor.models.profile import CopyStats, MatmulStats, ProfileFacts, ProgramRun
from advisor.profile.op_stats import _tf32_gain


def _samples(pairs):
    return [{"tf32": on, "step_s": s} for off, on_s in pairs for on, s in ((False, off), (True, on_s))]


def test_tf32_gain_is_the_median_of_paired_samples_with_their_range() -> None:
    stats = MatmulStats()
    _tf32_gain(stats, {"baseline_step_s": 0.0177, "tf32_trial": {"steps": 3, "step_s": 0.0122, "samples": _samples(
        [(0.0177, 0.0122), (0.0180, 0.0119), (0.0125, 0.0123), (0.0176, 0.0121)])}})
    assert stats.tf32_saved_range[0] == pytest.approx(1 - 0.0123 / 0.0125, abs=1e-4)
    assert stats.tf32_saved_range[0] <= stats.tf32_saved_fraction <= stats.tf32_saved_range[1]
    assert stats.fix_gain.startswith("measured: gpu-advisor switched TF32 off and on in turn")
    assert "straddles zero" not in stats.fix_gain


def test_a_range_across_zero_says_there_is_no_clear_gain() -> None:
    stats = MatmulStats()
    _tf32_gain(stats, {"tf32_trial": {"steps": 1, "step_s": 0.12, "samples": _samples(
        [(0.11, 0.12), (0.13, 0.10), (0.12, 0.125), (0.11, 0.115)])}})
    assert "slower" in stats.fix_gain and "straddles zero: no clear gain" in stats.fix_gain


def test_pinning_gain_without_cuda_stays_an_estimate_and_says_why() -> None:
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("measured for real on a GPU (tests/profile/test_gpu_programs.py)")
    from advisor.app.profile_service import _measure_pinning

    profile = ProfileFacts(run=ProgramRun(command="x.py", outcome="stopped"), mode="steps", cuda_available=True,
                           copies=CopyStats(h2d_per_step=2, h2d_pageable_per_step=2, h2d_bytes_per_step=1024))
    _measure_pinning(profile)
    assert profile.copies.fix_gain.startswith("estimated, not measured (pinned copies could not be timed here")
