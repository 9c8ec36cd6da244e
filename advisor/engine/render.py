"""Filling ``{dotted.fact}`` placeholders in rule messages -- by lookup, never by str.format on objects.

``{path}`` inserts a value; ``{path:spec}`` formats a number. Besides Python's numeric specs (``.1f``, ``,d``)
a few units read better in prose: ``gib`` / ``mib`` (bytes), ``pct`` (a fraction as a percentage),
``x`` (a ratio, "3.2x"), ``us`` / ``ms`` (seconds as micro/milliseconds). ``{{`` and ``}}`` are literal braces.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from advisor.formatting import MAX_SPEC_NUMBER, UNIT_SPECS, human_value, spec_too_large
from advisor.models.common import Unavailable

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][\w.\-]*)(?::([^{}]+))?\}")


def placeholder_paths(template: str) -> list[str]:
    return [m.group(1) for m in PLACEHOLDER.finditer(template) if m.group(1)]


def placeholder_specs(template: str) -> list[str]:
    return [m.group(2) for m in PLACEHOLDER.finditer(template) if m.group(2)]


def check_spec(spec: str) -> None:
    """Raise ValueError for a format spec that would fail on every number, or pad/round absurdly."""
    if spec in UNIT_SPECS:
        return
    _check_spec_size(spec)
    format(1.5, spec)


def _check_spec_size(spec: str) -> None:
    if spec_too_large(spec):
        raise ValueError(f"format spec {spec[:20]!r} asks for a width or precision over {MAX_SPEC_NUMBER}")


def format_value(value: Any, spec: str | None = None) -> str:
    """A fact in a rule's message. A missing one reads as prose ("not known here"), not as a table's reason."""
    if isinstance(value, Unavailable):
        return "(not known here)"
    return human_value(value, spec)


def render(template: str, lookup: Callable[[str], Any]) -> str:
    def substitute(match: re.Match[str]) -> str:
        if match.group(0) == "{{":
            return "{"
        if match.group(0) == "}}":
            return "}"
        return format_value(lookup(match.group(1)), match.group(2))

    return PLACEHOLDER.sub(substitute, template).strip()
