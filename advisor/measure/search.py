"""Finding a crossover size by search instead of a dense sweep. Pure logic: no torch, no timing.

The crossover is the smallest size on a log grid from which the GPU wins at every larger size tried. The
search walks a coarse subset of the grid from the top down until the GPU stops winning, then bisects the
bracket on the fine grid. It evaluates about a fifth of the grid, and skips most of the large sizes, where a
dense sweep spends most of its time (CPU time grows with size).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Literal, Optional

from advisor.models.measurements import TimingStats

Winner = Literal["gpu", "cpu", "tie"]
Verdict = Literal["gpu", "cpu", "tie", "ambiguous"]

POINTS_PER_DECADE = 12
COARSE_STEP = 6  # every 6th grid point: two per decade
#: Medians closer than this (relative) are a tie even when the spreads separate them.
TIE_MARGIN = 0.03


def log_grid(low: int, high: int, per_decade: int = POINTS_PER_DECADE) -> list[int]:
    """Integer sizes from low to high, ``per_decade`` per factor of ten (duplicates removed at the low end)."""
    if low < 1 or high < low:
        raise ValueError(f"bad grid range {low}..{high}")
    steps = round(math.log10(high / low) * per_decade)
    sizes = sorted({round(low * 10 ** (i / per_decade)) for i in range(steps + 1)} | {low, high})
    return [s for s in sizes if low <= s <= high]


def compare(cpu: TimingStats, gpu: TimingStats) -> Verdict:
    """Which side is faster, judged on the spreads, not the medians alone.

    A side wins when its third quartile is under the other's first quartile and the medians differ by more
    than TIE_MARGIN; overlapping spreads are "ambiguous" (the caller re-measures with a bigger budget).
    """
    ratio = cpu.median_s / gpu.median_s
    if abs(ratio - 1) <= TIE_MARGIN:
        return "tie"
    if gpu.q3_s < cpu.q1_s:
        return "gpu"
    if cpu.q3_s < gpu.q1_s:
        return "cpu"
    return "ambiguous"


def settle(verdict: Verdict, cpu: TimingStats, gpu: TimingStats) -> Winner:
    """The final call after re-measuring: still-overlapping spreads count as a tie, never as a GPU win."""
    if verdict in ("gpu", "cpu", "tie"):
        return verdict  # type: ignore[return-value]
    return "tie"


@dataclass
class SearchOutcome:
    #: Index into the grid of the crossover size; None when the GPU does not win at the top of the grid.
    crossover_index: Optional[int]
    winners: dict[int, Winner] = field(default_factory=dict)

    @property
    def evaluations(self) -> int:
        return len(self.winners)


def crossover_from_winners(grid_length: int, winners: dict[int, Winner]) -> Optional[int]:
    """Smallest evaluated index from which every evaluated index above wins for the GPU."""
    answer = None
    for index in sorted(winners, reverse=True):
        if winners[index] != "gpu":
            break
        answer = index
    if answer is None or max(winners) != grid_length - 1:
        return None
    return answer


def dense_search(grid: list[int], evaluate: Callable[[int], Winner]) -> SearchOutcome:
    """The reference: every grid point, smallest first."""
    winners = {index: evaluate(size) for index, size in enumerate(grid)}
    return SearchOutcome(crossover_from_winners(len(grid), winners), winners)


def bracket_search(grid: list[int], evaluate: Callable[[int], Winner], coarse_step: int = COARSE_STEP) -> SearchOutcome:
    """Top-down coarse walk to the first size where the GPU does not win, then bisection inside that bracket."""
    winners: dict[int, Winner] = {}

    def winner(index: int) -> Winner:
        if index not in winners:
            winners[index] = evaluate(grid[index])
        return winners[index]

    top = len(grid) - 1
    if winner(top) != "gpu":
        return SearchOutcome(None, winners)
    upper = top
    lower: Optional[int] = None
    for index in range(top - coarse_step, -1, -coarse_step):
        if winner(index) != "gpu":
            lower = index
            break
        upper = index
    if lower is None:
        if upper == 0:
            return SearchOutcome(0, winners)
        # The coarse walk ended above index 0: the last bracket is [0, upper].
        if winner(0) == "gpu":
            return SearchOutcome(0, winners)  # the GPU wins at the smallest size too
        lower = 0
    while upper - lower > 1:
        middle = (lower + upper) // 2
        if winner(middle) == "gpu":
            upper = middle
        else:
            lower = middle
    return SearchOutcome(upper, winners)
