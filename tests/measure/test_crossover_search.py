"""Crossover search logic on synthetic winner patterns, and the comparison rule on timing statistics."""

from __future__ import annotations

import pytest

from advisor.measure.search import (
    SAFE_SPEEDUP,
    Look,
    bracket_search,
    crossover_from_winners,
    decide,
    dense_search,
    log_grid,
    relative_standard_error,
    settle,
)


def test_log_grid_has_twelve_points_per_decade():
    grid = log_grid(10, 10_000)
    assert grid[0] == 10 and grid[-1] == 10_000
    assert len(grid) == 37
    assert all(b > a for a, b in zip(grid, grid[1:], strict=False))


def test_log_grid_rejects_bad_ranges():
    with pytest.raises(ValueError):
        log_grid(0, 10)


def pattern(crossover_size):
    """A monotone race: the CPU wins below the crossover, the GPU clearly wins from it on."""
    return lambda size: Look("gpu", 10.0) if crossover_size is not None and size >= crossover_size else Look("cpu", 0.1)


@pytest.mark.parametrize("crossover", [8, 9, 40, 100, 777, 2048, 4096, None])
def test_bracket_search_agrees_with_dense_on_monotone_data(crossover):
    grid = log_grid(8, 4096)
    dense = dense_search(grid, pattern(crossover))
    fast = bracket_search(grid, pattern(crossover))
    assert fast.crossover_index == dense.crossover_index
    assert fast.evaluations <= len(grid) // 3


def test_bracket_search_never_wins():
    grid = log_grid(8, 4096)
    outcome = bracket_search(grid, lambda size: Look("cpu", 0.5))
    assert outcome.crossover_index is None and outcome.evaluations == 1


def test_a_loss_above_the_crossover_moves_it_up():
    grid = log_grid(8, 4096)
    losing = {grid[-2]}  # the GPU loses just below the top: only the top counts as "from here on"
    evaluate = lambda size: Look("cpu", 0.9) if size in losing or size < 50 else Look("gpu", 10.0)  # noqa: E731
    assert dense_search(grid, evaluate).crossover_index == len(grid) - 1


def test_a_tie_between_narrow_wins_is_found():
    # A plateau of narrow GPU wins with one tie inside, as sum/float64 shows on an H200: the search must
    # measure the plateau point by point, or it reports a crossover below the tie.
    grid = log_grid(8, 4096)
    tie_at = grid[20]

    def evaluate(size):
        if size < grid[10]:
            return Look("cpu", 0.5)
        if size == tie_at:
            return Look("tie", 1.02)
        return Look("gpu", 1.25 if size < grid[25] else 20.0)

    assert dense_search(grid, evaluate).crossover_index == 21
    outcome = bracket_search(grid, evaluate)
    assert outcome.crossover_index == 21
    assert outcome.evaluations < len(grid) // 2


def test_clear_wins_are_not_filled_in():
    grid = log_grid(8, 4096)
    outcome = bracket_search(grid, lambda size: Look("gpu", SAFE_SPEEDUP * 2) if size >= 100 else Look("cpu", 0.5))
    assert outcome.crossover_index == dense_search(grid, pattern(100)).crossover_index
    assert outcome.evaluations <= 8


def test_a_tie_is_not_a_gpu_win():
    assert crossover_from_winners(3, {0: "cpu", 1: "tie", 2: "gpu"}) == 2


def samples(median, spread, n, seed):
    """Deterministic pseudo-samples around a median with a given relative spread."""
    import random

    rng = random.Random(seed)
    return [median * (1 + rng.uniform(-spread, spread)) for _ in range(n)]


def test_decide_calls_a_clear_race_from_a_few_samples():
    assert decide(samples(1.0, 0.02, 5, 1), samples(0.5, 0.02, 5, 2)) == "gpu"
    assert decide(samples(0.5, 0.02, 5, 3), samples(1.0, 0.02, 5, 4)) == "cpu"


def test_decide_asks_for_more_samples_in_a_close_race_and_more_samples_settle_it():
    cpu, gpu = samples(1.10, 0.2, 5, 5), samples(1.0, 0.2, 5, 6)
    assert decide(cpu, gpu) == "ambiguous"
    assert decide(samples(1.10, 0.2, 400, 7), samples(1.0, 0.2, 400, 8)) == "gpu"


def test_equal_medians_are_a_tie_once_the_interval_is_tight():
    assert decide(samples(1.0, 0.01, 50, 9), samples(1.01, 0.01, 50, 10)) == "tie"


def test_settle_uses_the_point_estimate_outside_the_tie_band():
    assert settle([1.2] * 5, [1.0] * 5) == "gpu"
    assert settle([1.0] * 5, [1.03] * 5) == "tie"
    assert settle([1.0] * 5, [1.2] * 5) == "cpu"


def test_three_slow_samples_decide_only_a_clear_race():
    assert relative_standard_error([1.0]) == float("inf")
    assert decide([0.010, 0.0105, 0.0098], [0.0001, 0.00011, 0.0001]) == "gpu"
    assert decide([0.010, 0.012, 0.009], [0.0095, 0.011, 0.0099]) == "ambiguous"


def test_a_single_impossible_point_is_measured_again_before_it_stops_the_walk():
    # add float32 resident on an H100: 0.089x at one size, 2.96x one step up -- a 33x flip that stopped the walk.
    grid = log_grid(256, 1 << 20)
    truth = 20  # index of the true crossover
    glitch = {32: True}  # the first look at index 30 is wrong (the GPU clock still ramping up)

    def evaluate(size):
        index = grid.index(size)
        if glitch.pop(index, False) and index > truth:
            return Look("cpu", 0.089)
        return Look("gpu", 3.0) if index >= truth else Look("cpu", 0.5)

    with_recheck = bracket_search(grid, evaluate, remeasure=evaluate)
    assert with_recheck.crossover_index == truth
    glitch[32] = True
    without = bracket_search(grid, evaluate)
    assert without.crossover_index == 33


def test_sync_per_op_beating_resident_is_a_contradiction():
    from advisor.measure.crossover import contradiction
    from advisor.models.measurements import CrossoverResult

    def result(mode, cpu_to, gpu_from):
        return CrossoverResult(op="add", dtype="float32", mode=mode, size_unit="elements", crossover_size=gpu_from,
                               gpu_clear_from=gpu_from, cpu_clear_to=cpu_to, clear_factor=1.15)

    assert contradiction(result("sync", 100_000, 200_000), result("resident", 20_000, 40_000)) is None
    assert contradiction(result("sync", 5_000, 10_000), result("resident", 20_000, 40_000)) is not None
