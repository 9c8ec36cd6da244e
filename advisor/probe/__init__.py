"""The probe: facts about this machine, no timing. ``collect_facts()`` (probe/collect.py) is the one entry point.

Importing this package imports nothing: not torch, not pynvml, not even the pydantic models, because the torch
child process (advisor/_torch_child.py) imports ``advisor.probe.torch_env`` and must stay light.
"""

from __future__ import annotations

from typing import Any

__all__ = ["collect_facts"]


def __getattr__(name: str) -> Any:
    if name == "collect_facts":
        from advisor.probe.collect import collect_facts

        return collect_facts
    raise AttributeError(f"module 'advisor.probe' has no attribute {name!r}")
