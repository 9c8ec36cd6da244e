"""Turning values into short human text, and the titled table they are shown in: one place, used by rule
messages, every reporter and the comparison."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from advisor.models.common import Unavailable


def _counted(noun: str) -> Callable[[float], str]:
    """A count with its noun, singular for exactly one: "1 GPU", "8 GPUs" (rules never write "GPU(s)")."""
    return lambda v: f"{v:.0f} {noun}" if v == 1 else f"{v:.0f} {noun}s"


#: Format specs for numbers in prose, besides Python's own (``.1f``, ``,d``): bytes, shares, ratios, durations,
#: counts with their noun.
UNIT_SPECS: dict[str, Callable[[float], str]] = {
    "gib": lambda v: f"{v / 2**30:.1f} GiB",
    "mib": lambda v: f"{v / 2**20:.0f} MiB",
    "pct": lambda v: f"{v * 100:.0f}%",
    "x": lambda v: f"{v:.1f}x" if v < 100 else f"{v:.0f}x",
    "us": lambda v: f"{v * 1e6:.1f} us",
    "ms": lambda v: f"{v * 1e3:.2f} ms",
    **{spec: _counted(noun) for spec, noun in (("gpus", "GPU"), ("errors", "error"), ("ranks", "rank"),
                                               ("steps", "step"))},
    "times": lambda v: "once" if v == 1 else f"{v:.1f} times",
}


def human_bytes(value: float) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if abs(value) >= size:
            return f"{value / size:.1f} {unit}"
    return f"{value:.0f} B"


def human_seconds(value: float) -> str:
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.2f} ms"
    return f"{value * 1e6:.1f} us"


def human_value(value: Any, spec: Optional[str] = None) -> str:
    """A value as text, for a table cell or a rule's message: missing values say why, lists join, booleans read
    yes/no, and a number follows ``spec`` (a Python format spec or one of UNIT_SPECS) when one is given."""
    if isinstance(value, Unavailable):
        return f"unavailable: {value.unavailable}"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(human_value(item) for item in value) or "none"
    if spec and isinstance(value, (int, float)):
        if spec in UNIT_SPECS:
            try:
                return UNIT_SPECS[spec](float(value))
            except OverflowError:  # an integer past float's range
                return str(value)
        try:
            if spec_too_large(spec):  # {x:999999999} would allocate a gigabyte of spaces
                return str(value)
            return format(value, spec)
        except (ValueError, OverflowError):
            return str(value)
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


#: Widths and precisions a message or a table could want; more is an attack (or a typo), never a layout.
MAX_SPEC_NUMBER = 64


def spec_too_large(spec: str) -> bool:
    """Whether a format spec asks for a width or precision over MAX_SPEC_NUMBER (or is absurdly long)."""
    return len(spec) > 20 or any(int(number) > MAX_SPEC_NUMBER for number in re.findall(r"\d+", spec))


@dataclass
class Section:
    """A titled table of plain-text cells, the one shape the terminal and Markdown renderers draw: a report's
    facts, measurements and recommendations, and a comparison's tables. Two columns (label, value) unless
    ``header`` names more; ``chart`` is preformatted text shown under it."""

    title: str
    rows: list[tuple[str, ...]] = field(default_factory=list)
    note: str = ""
    header: tuple[str, ...] = ()
    chart: str = ""

    def add(self, label: str, value: Any, *, unit: str = "") -> None:
        text = human_value(value)
        if unit and not isinstance(value, Unavailable) and value is not None:
            text = f"{text} {unit}"
        self.rows.append((label, text))

    def add_bytes(self, label: str, value: Any) -> None:
        self.rows.append((label, human_bytes(value) if isinstance(value, (int, float)) else human_value(value)))


def compact_count(value: float) -> str:
    """A size at a glance: 980 -> "980", 9,807 -> "9,807", 980,784 -> "981k", 1,188,247 -> "1.19M"."""
    if value < 10_000:
        return f"{value:,.0f}"
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            scaled = value / scale
            return f"{scaled:.3g}{suffix}" if scaled < 1000 else f"{scaled:,.0f}{suffix}"
    return f"{value:,.0f}"


def describe_crossover_bounds(result: Any) -> str:
    """A CrossoverResult as what reruns reproduce, in size order: "CPU <= 211k, even 376k-455k, GPU >= 552k".

    "CPU <= X": up to X the CPU wins clearly (by more than result.clear_factor); "GPU >= Y": from Y the GPU does,
    at every larger size tried; "even": sizes measured in between, where neither wins clearly (a single crossover
    size there moves from run to run).
    """
    factor = result.clear_factor or 1.15
    if result.gpu_always_wins and result.gpu_clear_from == result.range_min:
        return f"GPU at every size tried (from {compact_count(result.range_min)})"
    if result.gpu_never_wins and result.cpu_clear_to == result.range_max:
        return f"CPU to {compact_count(result.range_max)} (largest tried)"
    sizes = [p.size for p in result.points]
    low = result.cpu_clear_to if result.cpu_clear_to is not None else None
    high = result.gpu_clear_from
    parts = []
    if low is not None:
        parts.append(f"CPU <= {compact_count(low)}")
    between = [s for s in sizes if (low is None or s > low) and (high is None or s < high)]
    if between:
        span = compact_count(min(between)) if min(between) == max(between) else \
            f"{compact_count(min(between))}-{compact_count(max(between))}"
        parts.append(f"even {span}")
    if high is not None:
        parts.append(f"GPU >= {compact_count(high)}")
    elif result.gpu_never_wins:
        parts.append(f"GPU never ahead (to {compact_count(result.range_max)})")
    else:
        parts.append(f"GPU ahead by under {factor:.2f}x at the top ({compact_count(result.range_max)})")
    return ", ".join(parts)


def plural(count: int, noun: str, plural_form: str = "") -> str:
    """``1 GPU``, ``2 GPUs``, ``1 way``: a real plural, never "GPU(s)"."""
    return f"{count} {noun}" if count == 1 else f"{count} {plural_form or noun + 's'}"
