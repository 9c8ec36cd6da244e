"""Which files `gpu-advisor lint PATH...` checks: files named on the command line whatever their suffix,
and under directories every *.py and *.ipynb, skipping hidden folders, caches, virtual environments
(a folder with pyvenv.cfg) and notebook checkpoints -- nobody means to lint site-packages.
"""

from __future__ import annotations

import os
from pathlib import Path

SUFFIXES = (".py", ".ipynb")
_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", ".ipynb_checkpoints", "build", "dist"})


class MissingPath(Exception):
    """A path on the command line does not exist: bad usage, not a finding."""


def discover(paths: list[str]) -> list[tuple[Path, str]]:
    """(file, path to show) pairs in a stable order, each file once."""
    found: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise MissingPath(raw)
        if path.is_dir():
            candidates = sorted(_walk(path))
        else:
            candidates = [path]
        for candidate in candidates:
            key = candidate.resolve()
            if key not in seen:
                seen.add(key)
                found.append((candidate, candidate.as_posix()))
    return found


def _walk(root: Path):
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith(".") and d not in _SKIPPED_DIRS
                            and not (Path(directory) / d / "pyvenv.cfg").exists())
        for name in files:
            if name.endswith(SUFFIXES):
                yield Path(directory) / name
