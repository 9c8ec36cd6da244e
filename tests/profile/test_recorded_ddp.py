"""A straggler in a real data-parallel job, from traces recorded under torchrun (tests/fixtures/profile/ddp, kept
with --trace-out and trimmed of their Python frames by benchmarks/trim_rank_traces.py): each rank's trace is
summarised as its gpu-advisor would, the summaries are gathered as rank 0 would, and the rules judge them.

- h100_*: benchmarks/profile_programs/ddp_straggler.py on two H100s (NCCL), balanced and with SLOW_RANK=1 SLOW_MS=20.
- cpu_*: the same program on 2 CPU cores (gloo), with SLOW_RANK=1 SLOW_MS=30, and a balanced run whose
  scheduling noise made one rank wait 43% of the step longer in 4 of its 5 steps.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from advisor.app.profile_ranks import rank_summary, with_ranks
from advisor.app.profile_service import build_profile_report, report_from_kept_trace

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "profile" / "ddp"


@cache
def gathered(name: str):
    """Rank 0's report after gathering every rank's own summary of its own trace."""
    reports = [report_from_kept_trace(path, max_overhead=50) for path in sorted((FIXTURES / name).glob("rank*"))]
    ranks = [rank_summary(rank, report.profile, None) for rank, report in enumerate(reports)]
    profile = with_ranks(reports[0].profile, ranks)
    report = build_profile_report(profile)
    return profile, [finding.rule_id for finding in report.findings], report


@pytest.mark.parametrize("name, backend", [("h100_straggler", "nccl"), ("cpu_straggler", "gloo")])
def test_the_straggler_is_the_rank_that_waits_least(name: str, backend: str) -> None:
    profile, rules, report = gathered(name)
    skew = profile.rank_skew
    # The step times agree (the all-reduce ties the ranks together): step-time skew alone sees nothing.
    assert skew.ratio < 1.1 and "profile-rank-skew" not in rules
    assert skew.synchronised and skew.collective_backend == backend
    assert skew.straggler_rank == 1 and skew.straggler_steps == skew.steps_compared == 5
    waits = {rank.rank: rank.collective_wait_ms_per_step for rank in profile.ranks}
    # rank 1 slept 20 ms (H100) / 30 ms (CPU) per step before its forward; rank 0 waited for it.
    assert waits[0] - waits[1] > 10 and skew.extra_wait_ms > 10 and skew.extra_wait_fraction > 0.3
    assert skew.straggler_work_ms > skew.others_work_ms + 10
    assert "profile-rank-straggler" in rules
    message = next(f.message for f in report.findings if f.rule_id == "profile-rank-straggler")
    assert message.startswith("Rank 1 holds the job back: the other ranks wait")


def test_the_waiting_gpu_is_not_called_healthy() -> None:
    """An NCCL kernel spinning while it waits keeps rank 0's GPU 'busy' most of the step."""
    profile, rules, _ = gathered("h100_straggler")
    assert profile.gpu_busy_fraction > 0.9 and profile.collectives.wait_fraction > 0.5
    assert "profile-healthy-gpu-busy" not in rules


def test_balanced_h100_ranks_wait_alike() -> None:
    profile, rules, _ = gathered("h100_balanced")
    skew = profile.rank_skew
    assert skew.synchronised and skew.extra_wait_fraction < 0.05
    assert profile.collectives.backend == "nccl" and profile.collectives.names == ["AllReduce"]
    assert "profile-rank-straggler" not in rules and "profile-healthy-gpu-busy" in rules


def test_noise_that_moves_between_steps_is_not_a_straggler() -> None:
    profile, rules, _ = gathered("cpu_balanced_noisy")
    skew = profile.rank_skew
    assert skew.extra_wait_fraction > 0.1  # large on average...
    assert skew.straggler_steps < skew.steps_compared  # ...but not the same rank waiting least in every step
    assert "profile-rank-straggler" not in rules


def test_device_side_waits_are_no_host_synchronisation() -> None:
    # DDP's reducer orders its NCCL stream after the compute stream with cudaStreamWaitEvent, 24 times a step on
    # these H100 ranks: the GPU waits, the host does not. Counted as host syncs they made this balanced rank read
    # 27.2 synchronisations a step; what is left are its real host waits (cudaEventSynchronize, ~3 a step).
    profile, _, _ = gathered("h100_balanced")
    assert profile.sync.per_step <= 4, profile.sync
