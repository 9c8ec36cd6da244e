"""Reading fixtures and dotted fact paths in the ingest tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
