"""Where a notebook finding sits in the .ipynb file itself, for SARIF.

Findings in a notebook are written ``path.ipynb:cellN:line:col`` (source.py documents the scheme): N counts
every cell, as editors number them; line and column are inside that cell. SARIF has no notion of cells, and
its consumers (GitHub code scanning, SARIF viewers) open the .ipynb as the text file it is, so a SARIF result
points at the line of the .ipynb's JSON that holds that source line -- Jupyter writes one JSON string per
source line -- and keeps the cell and the line inside it as properties.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

_CELL_TYPE = re.compile(r'^\s*"cell_type"\s*:')
_SOURCE_LIST = re.compile(r'^(\s*)"source"\s*:\s*\[\s*$')
_SOURCE_TEXT = re.compile(r'^(\s*)"source"\s*:\s*"')
_STRING_LINE = re.compile(r'^(\s*)"')


@lru_cache(maxsize=64)
def _raw_lines(path: str) -> tuple[str, ...]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return tuple(handle.read().splitlines())
    except OSError:
        return ()


def file_position(path: str, cell: int, line: int, column: int) -> Optional[tuple[int, int]]:
    """(1-based line, 1-based column) in the .ipynb text of ``line``/``column`` of cell ``cell``, or None when
    the file is not laid out one source line per JSON string (then only the cell can be named)."""
    cells_seen = 0
    lines = _raw_lines(path)
    for number, text in enumerate(lines):
        if _CELL_TYPE.match(text):
            cells_seen += 1
            continue
        if cells_seen != cell:
            continue
        listed = _SOURCE_LIST.match(text)
        if listed:
            target = number + line  # the line-th string after "source": [
            if target < len(lines) and _STRING_LINE.match(lines[target]):
                indent = len(_STRING_LINE.match(lines[target]).group(1))
                return target + 1, indent + 1 + column  # past the opening quote
            return None
        single = _SOURCE_TEXT.match(text)
        if single and line == 1:
            return number + 1, text.index('"', text.index(":")) + 1 + column
        if single or cells_seen > cell:
            return None
    return None
