"""Measured numbers on both sides: overheads, transfer bandwidths, peaks, the unsync demonstration.

The measurement code records each number it timed as a ScalarMeasurement (name, value, unit, stats) in the
``details``/``points`` lists; those are compared by name, so a new measurement is compared without a change
here. Whether a number is better higher or lower follows from its unit (data below).
"""

from __future__ import annotations

import re
from typing import Optional

from advisor.compare.judge import judge
from advisor.formatting import human_seconds
from advisor.models.common import Unavailable
from advisor.models.comparison import MeasurementChange
from advisor.models.measurements import Measurements, ScalarMeasurement, TimingStats

#: Units a larger value of is better (rates) or worse (times). A unit not listed is compared without a verdict.
HIGHER_IS_BETTER_BY_UNIT: dict[str, bool] = {
    "GB/s": True, "TFLOP/s": True, "GFLOP/s": True,
    "s": False, "ms": False, "us": False, "ns": False,
}

#: (title, where the measured numbers are) in the order a report shows them.
_GROUPS = (
    ("Peak throughput", lambda m: m.peaks.details),
    ("Host<->device bandwidth", lambda m: m.transfer.points),
    ("Overheads", lambda m: m.overheads.details),
)


def number_text(value: float, unit: str) -> str:
    if unit == "s":
        return human_seconds(value)
    if unit in ("us", "ns"):
        return f"{value:.2f} {unit}"
    digits = ",.0f" if abs(value) >= 100 else (".1f" if abs(value) >= 10 else ".2f")
    return f"{value:{digits}} {unit}".strip()


#: Run notes that say why something was not measured (others -- the budget's split, lint notes -- do not).
_WHY_ABSENT = re.compile(r"skipped|fail|interrupted|error|out of memory|no usable|not (?:measured|run)", re.I)


def absent_reason(measurements: Measurements) -> str:
    """Why a number a side lacks is missing, in that side's own words where it has them."""
    notes = "; ".join(note for note in measurements.run.notes if _WHY_ABSENT.search(note))
    return f"not measured: {notes}" if notes else "not measured"


def _noise(stats: Optional[TimingStats]) -> tuple[float, str]:
    """(relative half-spread, why it is noisy or ""): an unsettled timing or a one-off observation is noisy."""
    if stats is None or stats.method == "single_observation":
        return 0.0, "single observation"
    return stats.rel_spread / 2, "" if stats.stable else "did not settle"


def _side_text(item: Optional[ScalarMeasurement], measurements: Measurements) -> str:
    if item is None:
        return absent_reason(measurements)
    if item.status != "ok" or item.value is None:
        return f"{item.status}: {item.reason}" if item.reason else item.status
    return number_text(item.value, item.unit)


def compare_scalar(group: str, name: str, item_a: Optional[ScalarMeasurement], item_b: Optional[ScalarMeasurement],
                   a: Measurements, b: Measurements, threshold: float) -> MeasurementChange:
    ok_a = item_a is not None and item_a.status == "ok" and item_a.value is not None
    ok_b = item_b is not None and item_b.status == "ok" and item_b.value is not None
    unit = (item_b or item_a).unit  # type: ignore[union-attr]
    change = MeasurementChange(group=group, name=name, unit=unit, higher_is_better=HIGHER_IS_BETTER_BY_UNIT.get(unit),
                               a_text=_side_text(item_a, a), b_text=_side_text(item_b, b))
    if not (ok_a and ok_b):
        change.a = item_a.value if ok_a else None  # type: ignore[union-attr]
        change.b = item_b.value if ok_b else None  # type: ignore[union-attr]
        change.verdict = "only_a" if ok_a else "only_b"
        return change
    assert item_a is not None and item_b is not None
    if item_a.unit != item_b.unit:
        change.verdict, change.note = "unclear", f"units differ: {item_a.unit} vs {item_b.unit}"
        return change
    change.a, change.b = item_a.value, item_b.value
    spread_a, noisy_a = _noise(item_a.stats)
    spread_b, noisy_b = _noise(item_b.stats)
    notes = [f"{noisy_a} in A" if noisy_a else "", f"{noisy_b} in B" if noisy_b else ""]
    if noisy_a and noisy_a == noisy_b:
        notes = [f"{noisy_a} on both sides"]
    change.noisy = bool(noisy_a or noisy_b)
    if item_a.workload and item_b.workload and item_a.workload != item_b.workload:
        notes.append(f"workload differs: B ran {item_b.workload!r}")
    change.note = "; ".join(filter(None, notes))
    return judge(change, threshold=threshold, spread=spread_a + spread_b)


def _unsync(a: Measurements, b: Measurements, threshold: float) -> Optional[MeasurementChange]:
    demo_a, demo_b = a.unsync_timing, b.unsync_timing

    def factor(demo) -> Optional[float]:
        return None if isinstance(demo, Unavailable) or demo.status != "ok" else demo.underreport_factor

    def text(demo, value: Optional[float]) -> str:
        if value is not None:
            return f"{value:.0f}x"
        return f"unavailable: {demo.unavailable}" if isinstance(demo, Unavailable) else (demo.reason or demo.status)

    value_a, value_b = factor(demo_a), factor(demo_b)
    if value_a is None and value_b is None:
        return None
    # Neither better nor worse: it shows how far a timer without synchronize is off, which depends on the GPU.
    change = MeasurementChange(group="Timing without synchronize", name="naive timer under-reports by",
                               unit="x", higher_is_better=None, a=value_a, b=value_b,
                               a_text=text(demo_a, value_a), b_text=text(demo_b, value_b))
    if value_a is None or value_b is None:
        change.verdict = "only_a" if value_a is not None else "only_b"
        return change
    return judge(change, threshold=threshold)


def diff_scalars(a: Measurements, b: Measurements, threshold: float) -> list[MeasurementChange]:
    changes: list[MeasurementChange] = []
    for group, items in _GROUPS:
        by_name_a = {item.name: item for item in items(a)}
        by_name_b = {item.name: item for item in items(b)}
        for name in [*by_name_a, *(n for n in by_name_b if n not in by_name_a)]:
            item_a, item_b = by_name_a.get(name), by_name_b.get(name)
            usable = [i for i in (item_a, item_b) if i is not None and i.status == "ok" and i.value is not None]
            if usable:  # measured on neither side: nothing to say that each report does not say itself
                changes.append(compare_scalar(group, name, item_a, item_b, a, b, threshold))
    unsync = _unsync(a, b, threshold)
    if unsync is not None:
        changes.append(unsync)
    return changes
