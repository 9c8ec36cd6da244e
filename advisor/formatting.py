"""Turning values into short human text: one place, used by rule messages and every reporter."""

from __future__ import annotations

from typing import Any

from advisor.models.common import Unavailable


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


def human_value(value: Any) -> str:
    """A fact as table text: missing values say why, lists join, booleans read yes/no."""
    if isinstance(value, Unavailable):
        return f"unavailable: {value.unavailable}"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(human_value(item) for item in value) or "none"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)
