"""Pydantic models of the report. Importing this package never imports torch or pynvml.

The names below are loaded on first use, each from its own module: code that needs only the facts (the rule
loader checking fact paths) does not pay for building the findings, recommendations and report classes.

Modules that define models (here, and in engine/) leave out ``from __future__ import annotations``: pydantic
reads every field's annotation when a class is created, and from strings it must evaluate each one (some 250
fields, about 8 ms of every command's start).
"""

from importlib import import_module
from typing import Any

_MODULE_OF = {
    **dict.fromkeys(("Confidence", "Fact", "Severity", "Unavailable", "is_missing", "missing"), "common"),
    **dict.fromkeys(("DriverFacts", "EnvFacts", "Facts", "GpuFacts", "GpuProcess", "HostFacts", "TorchDevice",
                     "TorchFacts", "TorchSettings"), "facts"),
    **dict.fromkeys(("Finding", "SkippedRule", "SourceLocation"), "findings"),
    "Measurements": "measurements",
    "Recommendation": "recommendations",
    **dict.fromkeys(("SCHEMA_VERSION", "Report", "ReportMeta"), "report"),
}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
    globals()[name] = value
    return value
