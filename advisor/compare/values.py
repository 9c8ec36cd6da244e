"""Comparing single fact values: redaction placeholders, list items, and short summaries of big values."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

#: Placeholders ``advisor.redact`` writes (``{uuid-1}``; reports saved by earlier versions spell them ``<uuid-1>``).
#: Numbered ones are numbered per redaction run, so numbers from two separately redacted reports can be neither
#: matched nor told apart: only the kind counts.
_NUMBERED = re.compile(r"[<{](uuid|ip|mac|email|serial|host)-\d+[>}]")
_PLACEHOLDER = re.compile(r"[<{](?:(?:uuid|ip|mac|email|serial|host)-\d+|redacted|user|token|credentials)[>}]")


def normalize(value: Any) -> Any:
    """The value with numbered placeholders reduced to their kind: ``<uuid-1>`` and ``<uuid-2>`` compare equal."""
    if isinstance(value, str):
        return _NUMBERED.sub(r"{\1}", value)
    if isinstance(value, list):
        return [normalize(item) for item in value]
    return value


def has_placeholder(value: Any) -> bool:
    if isinstance(value, str):
        return bool(_PLACEHOLDER.search(value))
    if isinstance(value, list):
        return any(has_placeholder(item) for item in value)
    return False


def same(a: Any, b: Any, *, exact: bool = False) -> bool:
    """Equal values; placeholders compared by kind unless ``exact``."""
    # bool is an int in Python: True == 1 must not make a boolean fact equal to a count.
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    return a == b if exact else normalize(a) == normalize(b)


def item_label(item: BaseModel) -> str:
    """How a list item (a GPU, a torch device) is named in a summary: its name, else its index."""
    name = getattr(item, "name", None)
    return name if isinstance(name, str) else f"#{getattr(item, 'index', '?')}"


def summarize(value: Any) -> Any:
    """A fact value small enough to show in one table cell and keep in the JSON comparison."""
    if isinstance(value, list) and value and isinstance(value[0], BaseModel):
        return ", ".join(item_label(item) for item in value)
    if isinstance(value, dict):
        return f"{len(value)} listed"
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return value
