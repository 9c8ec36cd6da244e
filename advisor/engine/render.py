"""Filling ``{dotted.fact}`` placeholders in rule messages -- by lookup, never by str.format on objects.

``{path}`` inserts a value; ``{path:spec}`` formats a number. Besides Python's numeric specs (``.1f``, ``,d``)
a few units read better in prose: ``gib`` / ``mib`` (bytes), ``pct`` (a fraction as a percentage),
``x`` (a ratio, "3.2x"), ``us`` / ``ms`` (seconds as micro/milliseconds). ``{{`` and ``}}`` are literal braces.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from advisor.models.common import Unavailable

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][\w.\-]*)(?::([^{}]+))?\}")
_UNIT_SPECS: dict[str, Callable[[float], str]] = {
    "gib": lambda v: f"{v / 2**30:.1f} GiB",
    "mib": lambda v: f"{v / 2**20:.0f} MiB",
    "pct": lambda v: f"{v * 100:.0f}%",
    "x": lambda v: f"{v:.1f}x" if v < 100 else f"{v:.0f}x",
    "us": lambda v: f"{v * 1e6:.1f} us",
    "ms": lambda v: f"{v * 1e3:.2f} ms",
}


def placeholder_paths(template: str) -> list[str]:
    return [m.group(1) for m in PLACEHOLDER.finditer(template) if m.group(1)]


def placeholder_specs(template: str) -> list[str]:
    return [m.group(2) for m in PLACEHOLDER.finditer(template) if m.group(2)]


#: Widths and precisions a message could want; ``{x:999999999}`` would allocate a gigabyte of spaces.
MAX_SPEC_NUMBER = 64
_SPEC_NUMBERS = re.compile(r"\d+")


def check_spec(spec: str) -> None:
    """Raise ValueError for a format spec that would fail on every number, or pad/round absurdly."""
    if spec in _UNIT_SPECS:
        return
    _check_spec_size(spec)
    format(1.5, spec)


def _check_spec_size(spec: str) -> None:
    if len(spec) > 20 or any(int(n) > MAX_SPEC_NUMBER for n in _SPEC_NUMBERS.findall(spec[:20])):
        raise ValueError(f"format spec {spec[:20]!r} asks for a width or precision over {MAX_SPEC_NUMBER}")


def format_value(value: Any, spec: str | None = None) -> str:
    if isinstance(value, Unavailable):
        return "(not known here)"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(format_value(item) for item in value) or "none"
    if spec and isinstance(value, (int, float)):
        if spec in _UNIT_SPECS:
            try:
                return _UNIT_SPECS[spec](float(value))
            except OverflowError:  # an integer past float's range
                return str(value)
        try:
            _check_spec_size(spec)  # the loader refused these already; a rule built in code gets here too
            return format(value, spec)
        except (ValueError, OverflowError):
            return str(value)
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def render(template: str, lookup: Callable[[str], Any]) -> str:
    def substitute(match: re.Match[str]) -> str:
        if match.group(0) == "{{":
            return "{"
        if match.group(0) == "}}":
            return "}"
        return format_value(lookup(match.group(1)), match.group(2))

    return PLACEHOLDER.sub(substitute, template).strip()
