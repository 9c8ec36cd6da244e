"""Reading fixtures and dotted fact paths in the ingest tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from advisor.models.common import Unavailable

FIXTURES = Path(__file__).parent.parent / "fixtures"


def fixture(kind: str, name: str) -> str:
    return (FIXTURES / kind / name).read_text(encoding="utf-8")


def at(model: Any, path: str) -> Any:
    """``at(facts, "gpus.1.name")``: attribute steps, with integers indexing lists and keys indexing dicts."""
    value = model
    for step in path.split("."):
        if isinstance(value, list):
            value = value[int(step)]
        elif isinstance(value, dict):
            value = value[step]
        else:
            value = getattr(value, step)
    return value


def reason(value: object) -> str:
    """The reason of an Unavailable fact (failing the test if the fact has a value)."""
    assert isinstance(value, Unavailable), f"expected Unavailable, got {value!r}"
    return value.unavailable
