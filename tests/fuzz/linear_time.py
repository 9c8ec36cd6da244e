"""Timing helpers for the linear-time tests: robust on a loaded machine (ratios, best of several, generous)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Callable

from fuzz_helpers import REPO

#: Input grows 4x; a linear parser's time grows ~4x, a quadratic one's ~16x, a cubic one's ~64x.
GROWTH = 4
MAX_RATIO = 9.0
#: A larger input parsed faster than this passes: at these durations the ratio is noise.
NOISE_FLOOR_S = 0.2
#: The smaller input's time is taken as at least this, for the same reason.
_SMALL_FLOOR_S = 0.02


def best_time(call: Callable[[], object], repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - started)
    return best


def assert_ratio_linear(t_small: float, t_large: float, what: str = "") -> None:
    """For timings of an input and GROWTH times it: pass below the noise floor, else the ratio must be small."""
    if t_large < NOISE_FLOOR_S:
        return
    ratio = t_large / max(t_small, _SMALL_FLOOR_S)
    assert ratio < MAX_RATIO, f"{what}{GROWTH}x the input took {ratio:.1f}x the time ({t_small:.3f}s -> {t_large:.3f}s)"


def assert_linear(parse: Callable[[str], object], make: Callable[[int], str], size: int) -> None:
    small = make(size)
    large = make(size * GROWTH)
    t_small = best_time(lambda: parse(small))
    t_large = best_time(lambda: parse(large))
    if t_large < NOISE_FLOOR_S:
        return
    ratio = t_large / max(t_small, _SMALL_FLOOR_S)
    assert ratio < MAX_RATIO, f"{GROWTH}x the input took {ratio:.1f}x the time ({t_small:.3f}s -> {t_large:.3f}s)"


_CHILD = """
import json, sys, time
sys.setrecursionlimit(10000)
from advisor.ingest import facts_from_text
from advisor.ingest.errors import UnrecognisedInput
texts = json.loads(sys.stdin.read())
times = []
for text in texts:
    best = float("inf")
    for _ in range(2):
        started = time.perf_counter()
        try:
            facts_from_text(text, "<paste>")
        except UnrecognisedInput:
            pass
        best = min(best, time.perf_counter() - started)
    times.append(best)
print(json.dumps(times))
"""


def assert_ingest_linear(make: Callable[[int], str], size: int) -> None:
    """The ingest parsers on ``make(size)`` and ``make(GROWTH * size)``, each in a child process. The larger one
    gets a deadline from the smaller one's time (what a linear parser needs, times 3), so a super-linear parser
    fails in seconds rather than running for minutes."""
    (t_small,) = ingest_times([make(size)], timeout=10)
    deadline = min(max(3 * MAX_RATIO * t_small, 5.0), 15.0)
    (t_large,) = ingest_times([make(size * GROWTH)], timeout=deadline)
    if t_large < NOISE_FLOOR_S:
        return
    ratio = t_large / max(t_small, _SMALL_FLOOR_S)
    assert ratio < MAX_RATIO, f"{GROWTH}x the input took {ratio:.1f}x the time ({t_small:.3f}s -> {t_large:.3f}s)"


def ingest_times(texts: list[str], timeout: float) -> list[float]:
    """facts_from_text's best time for each text, in a child process killed after ``timeout`` seconds (a
    super-linear parser fails the test instead of hanging the suite)."""
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(texts), capture_output=True,
                              text=True, timeout=timeout, cwd=REPO, env={"PYTHONPATH": str(REPO)})
    except subprocess.TimeoutExpired:
        raise AssertionError(f"parsing did not finish in {timeout:.0f}s (super-linear)") from None
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)
