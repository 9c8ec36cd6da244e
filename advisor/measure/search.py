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
    #: Measurements taken, re-checks included.
    evaluations: int = 0


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
    return SearchOutcome(crossover_from_winners(len(grid), winners), winners, len(grid))


def bracket_search(grid: list[int], evaluate: Callable[[int], Winner], coarse_step: int = COARSE_STEP,
                   confirm: Optional[Callable[[int], Winner]] = None) -> SearchOutcome:
    """Top-down coarse walk to the first size where the GPU does not win, then bisection inside that bracket.

    Every step re-derives the bracket from all decisions so far, so a decision that changes is simply taken
    into account. With ``confirm`` (a slower, more careful measurement), the two sizes either side of the
    answer -- where noise decides -- are measured again before the answer stands, as is a "GPU never wins".
    """
    winners: dict[int, Winner] = {}
    confirmed: set[int] = set()
    calls = 0
    top = len(grid) - 1

    def check(index: int, careful: bool = False) -> None:
        nonlocal calls
        calls += 1
        if careful:
            confirmed.add(index)
            winners[index] = confirm(grid[index])  # type: ignore[misc]
        else:
            winners[index] = evaluate(grid[index])

    check(top)
    while True:
        upper = crossover_from_winners(len(grid), winners)
        if upper is None:
            if confirm is not None and top not in confirmed:
                check(top, careful=True)
                continue
            return SearchOutcome(None, winners, calls)
        below = [index for index in winners if index < upper]
        if upper > 0 and not below:  # walk down: the GPU won everywhere tried so far
            check(max(0, upper - coarse_step))
            continue
        lower = max(below) if below else None
        if lower is not None and upper - lower > 1:
            check((lower + upper) // 2)
            continue
        pending = [i for i in (upper, lower) if i is not None and i not in confirmed] if confirm else []
        if pending:
            check(pending[0], careful=True)
            continue
        return SearchOutcome(upper, winners, calls)
