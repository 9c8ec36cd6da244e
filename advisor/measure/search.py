"""Finding a crossover size by search instead of a dense sweep. Pure logic: no torch, no timing.

The crossover is the smallest size on a log grid from which the GPU wins at every larger size tried. The
search walks a coarse subset of the grid from the top down until the GPU stops winning, then bisects the
bracket on the fine grid. Where the GPU wins only narrowly, every point is measured: speedup curves are not
monotone (CPU threading thresholds, cache sizes) and a tie between two narrow wins would move the answer.
It skips most of the large sizes, where a dense sweep spends most of its time (CPU time grows with size).
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


#: Student's t at 97.5% by degrees of freedom: a median and IQR from five samples are far less certain than
#: the normal approximation says, and five tightly clustered samples must not prove a tie or a win.
_T_975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23, 12: 2.18,
          15: 2.13, 20: 2.09, 30: 2.04}


def _small_sample_factor(count: int) -> float:
    """How much wider than the normal approximation a confidence interval from ``count`` samples is."""
    degrees = max(1, count - 1)
    t = next((value for df, value in sorted(_T_975.items(), reverse=True) if degrees >= df), 12.71)
    return (t if degrees <= 30 else 1.96) / 1.96


def decide(cpu: Sequence[float], gpu: Sequence[float], *, tie: float = TIE_MARGIN, z: float = CONFIDENCE_Z) -> Verdict:
    """Which side is faster, with a confidence interval on the ratio of medians.

    The GPU (or CPU) wins when it is faster by more than ``tie`` with ``z`` standard errors to spare; the
    medians are a tie when the whole interval lies within ``tie`` of equal; anything else needs more samples
    ("ambiguous"). Comparing the medians' uncertainty -- not the spreads themselves -- lets more samples
    settle a close race; Student's t widens the interval of a handful of samples.
    """
    log_ratio = math.log(statistics.median(cpu) / statistics.median(gpu))
    error = z * math.hypot(relative_standard_error(cpu) * _small_sample_factor(len(cpu)),
                           relative_standard_error(gpu) * _small_sample_factor(len(gpu)))
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


#: A GPU win at least this clear at both ends of a gap means no tie hides inside it: on recorded H200 curves,
#: the speedup moves by at most about 30% between neighbouring grid points (CPU threading thresholds, cache
#: sizes), so 1.5x cannot fall to a tie (1.05x) within a gap. Closer wins get every point in between measured.
SAFE_SPEEDUP = 1.5


#: How far the speedup can move per grid step (a factor of 1.21 in size) on a real machine: on recorded H200
#: curves at most 5.7x (CPU threading thresholds, a working set leaving the cache), typically 1.1-1.5x. A point
#: that differs from every measured neighbour within two steps by more than this per step cannot be the op's
#: physics (an H100 run once recorded 482x between neighbours at 1.03x and 1.35x): it is re-measured.
PLAUSIBLE_STEP = 8.0


def implausible(looks: dict[int, "Look"], index: int) -> list[int]:
    """The points to re-measure when ``index`` contradicts every measured neighbour within two grid steps
    beyond what the op allows: the point itself and those neighbours (either side may be the glitch)."""
    neighbours = [j for j in looks if j != index and abs(j - index) <= 2]
    if not neighbours:
        return []
    jump = {j: abs(math.log(looks[j].speedup / looks[index].speedup)) for j in neighbours}
    if all(jump[j] > math.log(PLAUSIBLE_STEP) * abs(j - index) for j in neighbours):
        return [index, *sorted(neighbours)]
    return []


@dataclass(frozen=True)
class Look:
    """What one evaluation of a size found: who won, and by how much (CPU time / GPU time)."""

    winner: Winner
    speedup: float


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


def dense_search(grid: list[int], evaluate: Callable[[int], Look]) -> SearchOutcome:
    """The reference: every grid point, smallest first."""
    winners = {index: evaluate(size).winner for index, size in enumerate(grid)}
    return SearchOutcome(crossover_from_winners(len(grid), winners), winners, len(grid))


def _next_index(looks: dict[int, Look], answer: int, coarse_step: int) -> Optional[int]:
    """The next size to measure given everything measured so far, or None when the answer stands.

    Highest first, because a GPU loss found high up makes everything below it irrelevant:
    1. a gap above the answer whose ends are not both clear wins (a tie could hide inside) is split;
    2. with no loss found yet, walk down: a coarse step from a clear win, one step from a close one;
    3. otherwise bisect between the highest loss and the answer.
    """
    above = sorted(index for index in looks if index >= answer)
    for low, high in reversed(list(zip(above, above[1:], strict=False))):
        if high - low > 1 and min(looks[low].speedup, looks[high].speedup) < SAFE_SPEEDUP:
            return (low + high) // 2
    below = [index for index in looks if index < answer]
    if not below:
        if answer == 0:
            return None
        return max(0, answer - (coarse_step if looks[answer].speedup >= SAFE_SPEEDUP else 1))
    lower = max(below)
    return (lower + answer) // 2 if answer - lower > 1 else None


#: Below the answer the walk goes on down, this many grid steps at a time, for at most MAX_CLEAR_STEPS points,
#: until the CPU wins clearly (by more than the clear factor): where the two are even, that size is what a rerun
#: reproduces, not the first GPU win.
CLEAR_STEP = 3
MAX_CLEAR_STEPS = 4


def _walk_to_clear_cpu_win(grid: list[int], looks: dict[int, Look], answer: int, clear_factor: float,
                           measure: Callable[[int], None]) -> None:
    """Go down from the highest point below the answer (measured points first, else CLEAR_STEP grid steps at a
    time) until one is a clear CPU win, the grid ends, or MAX_CLEAR_STEPS points were added."""
    index = max((i for i in looks if i < answer), default=answer)
    added = 0
    while True:
        if index < answer:
            speedup = looks[index].speedup
            if speedup < 1 / clear_factor:
                return
        if index == 0 or added >= MAX_CLEAR_STEPS:
            return
        lower = [i for i in looks if max(0, index - CLEAR_STEP) <= i < index]
        index = max(lower) if lower else max(0, index - CLEAR_STEP)
        if index not in looks:
            measure(index)
            added += 1


def bracket_search(grid: list[int], evaluate: Callable[[int], Look], coarse_step: int = COARSE_STEP,
                   remeasure: Optional[Callable[[int], Look]] = None,
                   clear_factor: Optional[float] = None) -> SearchOutcome:
    """Top-down coarse walk to the first size where the GPU does not win, then bisection inside that bracket,
    measuring every point of a stretch where the GPU wins only narrowly (a tie may hide there).

    Every step re-derives the answer from all decisions so far, so a decision that changes is simply taken
    into account. Replayed on recorded H200 curves (tests/measure/crossover_replay.py), its answer is as close
    to a dense sweep's as a second dense sweep's is; re-measuring the close calls next to the answer did not
    make it closer, so it is not done.
    """
    looks: dict[int, Look] = {}
    rechecked: set[int] = set()
    evaluations = 0

    def measure(index: int) -> None:
        nonlocal evaluations
        looks[index] = evaluate(grid[index])
        evaluations += 1
        if remeasure is None:
            return
        for suspect in implausible(looks, index):
            if suspect not in rechecked:
                rechecked.add(suspect)
                looks[suspect] = remeasure(grid[suspect])
                evaluations += 1

    top = len(grid) - 1
    measure(top)
    while True:
        winners = {index: look.winner for index, look in looks.items()}
        answer = crossover_from_winners(len(grid), winners)
        following = None if answer is None else _next_index(looks, answer, coarse_step)
        if following is None:
            # The answer rests on the highest point where the GPU did not win (or, with none, on the top): it
            # is measured afresh once before it decides anything, so no single sample pool stops the search.
            # A GPU losing at the top by more than 2x is left as it is (a top that close to a tie is re-measured).
            losses = [index for index in looks if answer is None or index < answer]
            deciding = max(losses) if losses else None
            if answer is None and deciding is not None and looks[deciding].speedup < 0.5:
                deciding = None
            if remeasure is not None and deciding is not None and deciding not in rechecked:
                rechecked.add(deciding)
                looks[deciding] = remeasure(grid[deciding])
                evaluations += 1
                continue
            if clear_factor is not None and answer is not None:
                _walk_to_clear_cpu_win(grid, looks, answer, clear_factor, measure)
                winners = {index: look.winner for index, look in looks.items()}
                if crossover_from_winners(len(grid), winners) != answer:
                    continue  # a point measured on the way down changed the answer (re-derived above)
            return SearchOutcome(answer, winners, evaluations)
        measure(following)
