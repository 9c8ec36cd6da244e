"""Two profile reports of the same program, before and after a fix: step time, GPU busy, idle by cause.

"GPU busy 23% -> 91%, step 41 ms -> 12 ms" is the comparison a user wants after changing their code; the
numbers are the trace summaries' (ProfileFacts), judged with the same threshold as measurements.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from advisor.compare.judge import judge
from advisor.models.common import Unavailable
from advisor.models.comparison import MeasurementChange
from advisor.models.profile import ProfileFacts

GROUP = "Profiled program"
#: (name, unit, higher is better, how to read it, how to show it)
_NUMBERS: list[tuple[str, str, Optional[bool], Callable[[ProfileFacts], Any], Callable[[float], str]]] = [
    ("step time", "ms", False, lambda p: p.step_ms, lambda v: f"{v:.2f} ms"),
    ("GPU busy", "fraction", True, lambda p: p.gpu_busy_fraction, lambda v: f"{v * 100:.0f}%"),
    ("GPU idle: host launching", "ms", False, lambda p: p.idle.launch_bound_ms, lambda v: f"{v:.2f} ms"),
    ("GPU idle: after host syncs", "ms", False, lambda p: p.idle.host_sync_ms, lambda v: f"{v:.2f} ms"),
    ("waiting for data", "ms", False, lambda p: p.data.wait_ms_per_step, lambda v: f"{v:.2f} ms"),
    ("synchronisations per step", "count", False, lambda p: p.sync.per_step, lambda v: f"{v:g}"),
    ("kernels per step", "count", None, lambda p: p.kernels.per_step, lambda v: f"{v:g}"),
    ("pageable host->device copies per step", "count", False, lambda p: p.copies.h2d_pageable_per_step, lambda v: f"{v:g}"),
    ("profiling overhead", "fraction", None, lambda p: p.overhead_fraction, lambda v: f"{v * 100:.0f}%"),
]


def _number(value: Any) -> Optional[float]:
    if isinstance(value, Unavailable) or value is None or isinstance(value, bool):
        return None
    return float(value)


def diff_profiles(a: ProfileFacts, b: ProfileFacts, threshold: float) -> list[MeasurementChange]:
    changes = []
    for name, unit, higher, read, show in _NUMBERS:
        value_a, value_b = _number(read(a)), _number(read(b))
        if value_a is None and value_b is None:
            continue
        change = MeasurementChange(group=GROUP, name=name, unit=unit, higher_is_better=higher, a=value_a, b=value_b,
                                   a_text=show(value_a) if value_a is not None else "n/a",
                                   b_text=show(value_b) if value_b is not None else "n/a")
        if value_a is None or value_b is None:
            change.verdict = "only_a" if value_b is None else "only_b"
        elif value_a == 0 and value_b == 0:
            change.verdict = "similar"
        else:
            judge(change, threshold=threshold)
        changes.append(change)
    if a.run.command != b.run.command:
        changes[0].note = f"different commands: {a.run.command!r} vs {b.run.command!r}" if changes else ""
    return changes
