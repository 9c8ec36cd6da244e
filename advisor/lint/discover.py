"""Which files `gpu-advisor lint PATH...` checks: files named on the command line whatever their suffix,
and under directories every *.py and *.ipynb, skipping hidden folders, caches, virtual environments
(a folder with pyvenv.cfg) and notebook checkpoints -- nobody means to lint site-packages.

A folder walk follows no symlinked folder (so a link loop cannot make it endless) and no symlinked file whose
target lies outside the folder given (a repository cannot make the linter read ~/.ssh or /dev/zero). Devices,
FIFOs and sockets named *.py are still listed: ``source.read_source`` refuses them with a note, without ever
blocking on them.
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
        try:
            exists, is_dir = path.exists(), path.is_dir()
        except (OSError, ValueError):  # a name too long for the file system, a NUL byte
            exists = is_dir = False
        if not exists:
            raise MissingPath(raw)
        if is_dir:
            candidates = sorted(_walk(path))
        else:
            candidates = [path]
        for candidate in candidates:
            try:
                key = candidate.resolve()
            except (OSError, RuntimeError):
                key = candidate.absolute()
            if key not in seen:
                seen.add(key)
                found.append((candidate, candidate.as_posix()))
    return found


def _walk(root: Path):
    try:
        real_root = root.resolve()
    except (OSError, RuntimeError):
        return
    for directory, subdirs, files in os.walk(root):  # os.walk does not descend into symlinked folders
        subdirs[:] = sorted(d for d in subdirs if not d.startswith(".") and d not in _SKIPPED_DIRS
                            and not (Path(directory) / d / "pyvenv.cfg").exists())
        for name in files:
            if name.endswith(SUFFIXES):
                candidate = Path(directory) / name
                if candidate.is_symlink() and not _inside(candidate, real_root):
                    continue
                yield candidate


def _inside(link: Path, real_root: Path) -> bool:
    """Whether a symlink resolves to a file inside the folder being walked (a loop or dangling link: no)."""
    try:
        target = link.resolve(strict=True)
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop, on Pythons before 3.13
        return False
    return target == real_root or real_root in target.parents


def output_clash(output: str, paths: list[str]) -> bool:
    """Whether writing ``output`` would overwrite a file this run lints: a file named on the command line,
    or a *.py / *.ipynb inside a folder named there."""
    from advisor.safe_io import is_dir, same_file

    out = Path(output)
    if any(same_file(out, raw) for raw in paths if not is_dir(raw)):
        return True
    if not out.name.endswith(SUFFIXES):
        return False
    try:
        real_out = out.resolve()
    except (OSError, RuntimeError):
        return False
    for raw in paths:
        try:
            folder = Path(raw).resolve()
        except (OSError, RuntimeError):
            continue
        if is_dir(raw) and folder in real_out.parents:
            return True
    return False
