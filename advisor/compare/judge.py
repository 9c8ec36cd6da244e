"""Judging one change between two numbers: the ratio, how much worse, and the word for it.

Shared by scalar measurements and crossover sizes so both use the same threshold and noise rules.
"""

from __future__ import annotations

from typing import Optional

from advisor.models.comparison import MeasurementChange


def worse_by(a: float, b: float, higher_is_better: bool) -> float:
    """How much worse B is than A as a fraction of A: 0.2 is "20% worse", -0.5 "50% better".

    For a rate (higher is better) it is the share of A that was lost; for a time, the share added.
    """
    return (a - b) / a if higher_is_better else (b - a) / a


def judge(change: MeasurementChange, *, threshold: float, spread: float = 0.0) -> MeasurementChange:
    """Fill ratio, worse_by, verdict and regression on a change whose ``a`` and ``b`` are both numbers.

    ``spread`` is the combined relative spread of the two timings: a change inside it is not told apart
    from noise, however large the threshold allows it to be.
    """
    a, b = change.a, change.b
    assert a is not None and b is not None
    if a == 0:
        change.verdict = "similar" if b == 0 else "unclear"
        change.note = change.note or "A is zero: no ratio"
        return change
    change.ratio = b / a
    band = max(threshold, spread)
    if change.higher_is_better is None:
        change.verdict = "changed" if abs(change.ratio - 1) > band else "similar"
        return change
    change.worse_by = worse_by(a, b, change.higher_is_better)
    change.verdict = _word(change.worse_by, band)
    change.regression = change.verdict == "worse" and not change.noisy
    return change


def _word(amount: Optional[float], band: float) -> str:
    if amount is None:
        return "unclear"
    if amount > band:
        return "worse"
    if amount < -band:
        return "better"
    return "similar"
