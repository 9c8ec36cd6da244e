"""Package versions from collect_env's "[pip3] name==version" and "[conda] name  version  build  channel" lines.

Names are normalised as PEP 503 does (and as the live probe records them), so ``torch`` and ``nvidia-cudnn-cu12``
read the same from either source. pip's line wins over conda's for one name: pip lists what the running
Python imports, while conda may list a base environment beside it.
"""

from __future__ import annotations

import re

from advisor.models.common import Fact, missing

_NORMALISE = re.compile(r"[-_.]+")
_PIP = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*(?P<version>\S+)$")
_CONDA = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s+(?P<version>\d\S*)(?:\s+\S+)*$")
_NOTHING = ("could not collect", "no relevant packages")


def normalise_name(name: str) -> str:
    return _NORMALISE.sub("-", name).lower()


def packages_fact(lines: list[tuple[str, str]], section_printed: bool) -> Fact[dict[str, str]]:
    if not section_printed:
        return missing("not in collect_env output")
    pip: dict[str, str] = {}
    conda: dict[str, str] = {}
    for manager, rest in lines:
        if rest.lower() in _NOTHING:
            continue
        pattern, found = (_PIP, pip) if manager.startswith("pip") else (_CONDA, conda)
        # "name @ file:///..." (a direct-URL install) carries no version: skipped rather than guessed.
        if (match := pattern.match(rest)) is not None:
            # conda's build string and channel are columns of their own and are dropped with the match;
            # pip's local version ("+cu121", "+rocm6.2") is part of the version and is kept.
            found.setdefault(normalise_name(match["name"]), match["version"])
    merged = {**conda, **pip}
    if not merged:
        return missing("collect_env could not list pip or conda packages")
    return dict(sorted(merged.items()))
