"""The profiler's overhead from comparable steps: one stalled step in the window (a library or the GPU's tracing
loaded on first use, a cold machine) is not read as every step slowed by thousands of %, and a TF32 trial the
program ended in the middle of keeps its finished pairs and says so."""

from advisor.models.profile import MatmulStats, ProfileFacts, ProgramRun
from advisor.profile.op_stats import _tf32_gain
from advisor.profile.summarise import _overhead


def _facts() -> ProfileFacts:
    return ProfileFacts(run=ProgramRun(command="x.py", outcome="stopped"), mode="steps", cuda_available=True)


def _window(recorded_times, baseline_times):
    return {"baseline_step_s": sum(baseline_times) / len(baseline_times),
            "recorded_step_s": sum(recorded_times) / len(recorded_times),
            "baseline_step_times_s": baseline_times, "recorded_step_times_s": recorded_times}


def test_one_stalled_step_is_left_out_of_the_overhead() -> None:
    # sync_every_step on a fresh H100: 18 ms steps, one recorded step stalled 4.6 s (5092% by the means).
    facts = _facts()
    _overhead(facts, _window([4.6, 0.021, 0.022, 0.021, 0.022], [0.018] * 5), 0.25)
    assert facts.conclusive and 0.1 < facts.overhead_fraction < 0.25
    assert facts.overhead_ms_per_step < 5
    assert any("one-time stall" in note for note in facts.notes)


def test_a_steady_slowdown_stays_inconclusive() -> None:
    facts = _facts()
    _overhead(facts, _window([0.18, 0.17, 0.19, 0.18, 0.18], [0.11] * 5), 0.25)
    assert not facts.conclusive and facts.overhead_fraction > 0.5
    assert not any("stall" in note for note in facts.notes)


def test_without_step_times_the_means_are_compared() -> None:
    facts = _facts()
    _overhead(facts, {"baseline_step_s": 0.1, "recorded_step_s": 0.12}, 0.25)
    assert facts.conclusive and abs(facts.overhead_fraction - 0.2) < 1e-6


def test_a_tf32_trial_cut_short_keeps_its_pairs_and_says_so() -> None:
    stats = MatmulStats()
    samples = [{"tf32": False, "step_s": 0.018}, {"tf32": True, "step_s": 0.012}]
    _tf32_gain(stats, {"tf32_trial": {"steps": 3, "samples": samples, "cut_short": True, "pairs_asked": 4}})
    assert stats.fix_gain.startswith("measured") and "1 of the 4 pairs" in stats.fix_gain
    stats = MatmulStats()
    _tf32_gain(stats, {"baseline_step_s": 0.018, "tf32_trial": {"steps": 3, "samples": [], "cut_short": True}})
    assert stats.fix_gain.startswith("estimated, not measured (the program ended before the TF32 trial")
