"""The checks, by stable id, and what --select / --ignore pick from them."""

from __future__ import annotations

from typing import Iterable, Optional

from advisor.lint.checks import CHECK_MODULES
from advisor.lint.model import CheckDoc, CheckInfo

SYNTAX_ERROR = CheckInfo(
    id="GA000", name="syntax-error", title="File could not be parsed", severity="high", confidence="inferred",
    cost="Nothing in this file (or notebook cell) was checked.",
    fix="Fix the syntax error (the file must parse with this Python version); the other cells and files were "
        "still checked.",
    doc=CheckDoc(
        what="Reports a file (or notebook cell) that Python cannot parse.",
        why="Nothing in it can be checked: the other checks need the syntax tree. In a notebook the other cells "
            "are still checked.",
        bad="import torch\nfor i in range(3)\n    print(i)\n",
        good="import torch\nfor i in range(3):\n    print(i)\n"))


# Checks whose finding is a cost paid on the GPU. A file with no sign of CUDA at all (cuda_signs.py) is CPU code:
# they stay silent on it (the convention of issue 12; the timing checks and GA108/GA109 decide for themselves).
GPU_COST_CHECKS = frozenset({"GA103", "GA104", "GA105", "GA106", "GA107", "GA110"})


class UnknownCheck(ValueError):
    """--select/--ignore named a check that does not exist: bad usage."""


def all_checks() -> list:
    return list(CHECK_MODULES)


def all_infos() -> list[CheckInfo]:
    return [SYNTAX_ERROR] + [module.INFO for module in CHECK_MODULES]


def find_info(token: str) -> CheckInfo:
    """The check an id (GA101, ga101) or a name (timing-without-sync) names. Raises UnknownCheck."""
    for info in all_infos():
        if token.strip().upper() == info.id or token.strip().lower() == info.name:
            return info
    known = ", ".join(info.id for info in all_infos())
    raise UnknownCheck(f"unknown check {token.strip()!r} (known: {known})")


def _matches(token: str, info: CheckInfo) -> bool:
    token = token.strip()
    return info.id.upper().startswith(token.upper()) or token.lower() == info.name


def selected_ids(select: Optional[Iterable[str]] = None, ignore: Optional[Iterable[str]] = None) -> set[str]:
    """Ids left after --select (ids, id prefixes such as GA1, or names) and --ignore."""
    infos = all_infos()
    chosen = {info.id for info in infos}
    if select:
        chosen = _pick(select, infos)
    if ignore:
        chosen -= _pick(ignore, infos)
    return chosen


def _pick(tokens: Iterable[str], infos: list[CheckInfo]) -> set[str]:
    picked: set[str] = set()
    for token in tokens:
        if not token.strip():
            continue
        hits = {info.id for info in infos if _matches(token, info)}
        if not hits:
            known = ", ".join(info.id for info in infos)
            raise UnknownCheck(f"unknown check {token.strip()!r} (known: {known})")
        picked |= hits
    return picked
