"""Finding a crossover size by search instead of a dense sweep. Pure logic: no torch, no timing.

The crossover is the smallest size on a log grid from which the GPU wins at every larger size tried. The
search walks a coarse subset of the grid from the top down until the GPU stops winning, then bisects the
bracket on the fine grid. It evaluates about a fifth of the grid, and skips most of the large sizes, where a
dense sweep spends most of its time (CPU time grows with size).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Callable, Literal, Optional, Sequence

Winner = Literal["gpu", "cpu", "tie"]
Verdict = Literal["gpu", "cpu", "tie", "ambiguous"]

POINTS_PER_DECADE = 12
COARSE_STEP = 6  # every 6th grid point: two per decade
#: The GPU must be this much faster to count as winning: within it, the two are a tie (not a GPU win).
TIE_MARGIN = 0.05
#: Standard errors of margin a winner needs (about 95% confidence).
CONFIDENCE_Z = 2.0


def log_grid(low: int, high: int, per_decade: int = POINTS_PER_DECADE) -> list[int]:
    """Integer sizes from low to high, ``per_decade`` per factor of ten (duplicates removed at the low end)."""
    if low < 1 or high < low:
        raise ValueError(f"bad grid range {low}..{high}")
    steps = round(math.log10(high / low) * per_decade)
    sizes = sorted({round(low * 10 ** (i / per_decade)) for i in range(steps + 1)} | {low, high})
    return [s for s in sizes if low <= s <= high]


def relative_standard_error(samples: Sequence[float]) -> float:
    """Standard error of the median over the median, from the IQR (robust to the odd slow sample).

    For roughly normal data the median's standard error is 1.2533 sigma / sqrt(n) and sigma is IQR / 1.349.
    """
    if len(samples) < 2:
        return math.inf
    ordered = sorted(samples)
    if len(ordered) < 4:  # slow ops give 2-3 samples: their full range stands in for the IQR (conservative)
        q1, median, q3 = ordered[0], statistics.median(ordered), ordered[-1]
    else:
        q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    if median <= 0:
        return math.inf
    return 0.929 * (q3 - q1) / math.sqrt(len(ordered)) / median


def decide(cpu: Sequence[float], gpu: Sequence[float], *, tie: float = TIE_MARGIN, z: float = CONFIDENCE_Z) -> Verdict:
    """Which side is faster, with a confidence interval on the ratio of medians.

    The GPU (or CPU) wins when it is faster by more than ``tie`` with ``z`` standard errors to spare; the
    medians are a tie when the whole interval lies within ``tie`` of equal; anything else needs more samples
    ("ambiguous"). Comparing the medians' uncertainty -- not the spreads themselves -- lets more samples
    settle a close race.
    """
    log_ratio = math.log(statistics.median(cpu) / statistics.median(gpu))
    error = z * math.hypot(relative_standard_error(cpu), relative_standard_error(gpu))
    band = math.log1p(tie)
    if log_ratio - error > band:
        return "gpu"
    if log_ratio + error < -band:
        return "cpu"
    if abs(log_ratio) + error <= band:
        return "tie"
    return "ambiguous"


def settle(cpu: Sequence[float], gpu: Sequence[float], *, tie: float = TIE_MARGIN) -> Winner:
    """The call when sampling must stop while still ambiguous: the point estimate, outside the tie band."""
    ratio = statistics.median(cpu) / statistics.median(gpu)
    if ratio > 1 + tie:
        return "gpu"
    if ratio < 1 / (1 + tie):
        return "cpu"
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
