"""The environment a test's `python -m advisor ...` child runs in: this checkout first on PYTHONPATH, and
whatever PYTHONPATH the machine already relies on after it (the GPU machine carries pydantic there)."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def child_env(**extra: str) -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}
