"""`# gpu-advisor: ignore[GA101]` comments: a finding on that line (or on the last line of a multi-line
statement it starts) is dropped. `# gpu-advisor: ignore` with no list silences every check there.
Several ids are comma-separated: `# gpu-advisor: ignore[GA101, GA102]`.
"""

from __future__ import annotations

import re
from typing import Optional

_MARKER = "gpu-advisor"
_PATTERN = re.compile(r"#\s*gpu-advisor\s*:\s*ignore\b(?:\s*\[([^\]]*)\])?", re.IGNORECASE)

# line -> the ids silenced there; None means every id
Suppressions = dict[int, Optional[frozenset[str]]]


def find_suppressions(lines: list[str]) -> Suppressions:
    found: Suppressions = {}
    for number, line in enumerate(lines, start=1):
        if _MARKER not in line and _MARKER not in line.lower():
            continue
        match = _PATTERN.search(line)
        if match is None:
            continue
        ids = match.group(1)
        if ids is None:
            found[number] = None
        else:
            found[number] = frozenset(part.strip().upper() for part in ids.split(",") if part.strip())
    return found


def is_suppressed(check_id: str, lines: tuple[int, ...], suppressions: Suppressions) -> bool:
    for line in lines:
        if line in suppressions:
            ids = suppressions[line]
            if ids is None or check_id.upper() in ids:
                return True
    return False
