"""Crossover search logic on synthetic winner patterns, and the comparison rule on timing statistics."""

from __future__ import annotations

import pytest

from advisor.measure.search import (
    bracket_search, compare, crossover_from_winners, dense_search, log_grid, settle,
)
from advisor.models.measurements import TimingStats


def test_log_grid_has_twelve_points_per_decade():
    grid = log_grid(10, 10_000)
    assert grid[0] == 10 and grid[-1] == 10_000
    assert len(grid) == 37
    assert all(b > a for a, b in zip(grid, grid[1:]))


def test_log_grid_rejects_bad_ranges():
    with pytest.raises(ValueError):
        log_grid(0, 10)


def pattern(crossover_size):
    return lambda size: "gpu" if crossover_size is not None and size >= crossover_size else "cpu"


@pytest.mark.parametrize("crossover", [8, 9, 40, 100, 777, 2048, 4096, None])
def test_bracket_search_agrees_with_dense_on_monotone_data(crossover):
    grid = log_grid(8, 4096)
    dense = dense_search(grid, pattern(crossover))
    fast = bracket_search(grid, pattern(crossover))
    assert fast.crossover_index == dense.crossover_index
    assert fast.evaluations <= len(grid) // 3


def test_bracket_search_never_wins():
    grid = log_grid(8, 4096)
    outcome = bracket_search(grid, lambda size: "cpu")
    assert outcome.crossover_index is None and outcome.evaluations == 1


def test_a_loss_above_the_crossover_moves_it_up():
    grid = log_grid(8, 4096)
    losing = {grid[-2]}  # the GPU loses just below the top: only the top counts as "from here on"
    evaluate = lambda size: "cpu" if size in losing or size < 50 else "gpu"  # noqa: E731
    assert dense_search(grid, evaluate).crossover_index == len(grid) - 1


def test_a_tie_is_not_a_gpu_win():
    assert crossover_from_winners(3, {0: "cpu", 1: "tie", 2: "gpu"}) == 2


def stats(median, spread):
    return TimingStats(median_s=median, q1_s=median * (1 - spread), q3_s=median * (1 + spread), min_s=median * 0.9,
                       max_s=median * 1.1, samples=5, rel_spread=2 * spread, stable=True, method="cpu_clock")


def test_compare_uses_the_spreads():
    assert compare(stats(1.0, 0.01), stats(0.5, 0.01)) == "gpu"
    assert compare(stats(0.5, 0.01), stats(1.0, 0.01)) == "cpu"
    assert compare(stats(1.0, 0.2), stats(0.9, 0.2)) == "ambiguous"
    assert compare(stats(1.0, 0.001), stats(0.99, 0.001)) == "tie"
    assert settle("ambiguous", stats(1.0, 0.2), stats(0.9, 0.2)) == "tie"


@pytest.mark.parametrize("truth, wrong_at", [(100, 95), (100, 105), (40, 40), (3000, 4000), (8, 10)])
def test_confirmation_corrects_a_noisy_decision_at_the_boundary(truth, wrong_at):
    """The quick measurement is wrong at one size near the answer; the careful one is right."""
    grid = log_grid(8, 4096)
    noisy_index = min(range(len(grid)), key=lambda i: abs(grid[i] - wrong_at))

    def quick(size):
        correct = "gpu" if size >= truth else "cpu"
        if size == grid[noisy_index]:
            return "cpu" if correct == "gpu" else "gpu"
        return correct

    careful = pattern(truth)
    outcome = bracket_search(grid, quick, confirm=careful)
    expected = dense_search(grid, careful).crossover_index
    assert outcome.crossover_index == expected


def test_a_never_wins_verdict_is_confirmed_before_it_is_reported():
    grid = log_grid(8, 4096)
    outcome = bracket_search(grid, lambda size: "cpu", confirm=pattern(1000))
    assert outcome.crossover_index is not None
    assert grid[outcome.crossover_index] >= 1000
