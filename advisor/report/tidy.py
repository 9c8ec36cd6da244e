"""Saying each thing once: the tables a report shows, tidied before any renderer draws them.

- A long reason a value is unavailable (an NVML error, say) is written in full the first time only; later
  cells that would repeat it say ``unavailable (as above)``.
- A column that is empty in every row is dropped, header and all.
"""

from __future__ import annotations

import re

from advisor.formatting import Section, plural
from advisor.models.report import Report

#: Reasons shorter than this ("not collected") read fine repeated; longer ones are said once.
LONG_REASON = 30
_UNAVAILABLE = re.compile(r"unavailable: (.+)")


def tidy_sections(sections: list[Section]) -> list[Section]:
    seen: set[str] = set()
    for section in sections:
        rows = []
        for row in section.rows:
            cells = []
            for cell in row:
                match = _UNAVAILABLE.fullmatch(cell)
                if match and len(match.group(1)) >= LONG_REASON:
                    reason = match.group(1)
                    cell = "unavailable (as above)" if reason in seen else cell
                    seen.add(reason)
                elif len(cell) >= LONG_REASON:
                    seen.add(cell)  # a row that states the reason itself ("NVML error: ...")
                cells.append(cell)
            rows.append(tuple(cells))
        section.rows = rows
        _drop_empty_columns(section)
    return sections


def _drop_empty_columns(section: Section) -> None:
    if not section.rows:
        return
    width = max(len(row) for row in section.rows)
    keep = [index for index in range(width)
            if any(index < len(row) and row[index].strip() for row in section.rows)]
    if len(keep) == width:
        return
    section.rows = [tuple(row[i] for i in keep if i < len(row)) for row in section.rows]
    if section.header:
        section.header = tuple(section.header[i] for i in keep if i < len(section.header))


def skipped_summary(report: Report) -> str:
    """The one line a report says about the rules it could not decide (the list: --verbose, and the JSON)."""
    rules = len({s.rule_id for s in report.skipped})
    return (f"{plural(rules, 'rule')} not evaluated for missing facts; --verbose lists them and why "
            "(the JSON report always does).")


def skipped_by_reason(report: Report) -> list[tuple[str, list[str]]]:
    """(reason, the rules it stopped) -- each reason said once, however many rules and GPUs it stopped."""
    grouped: dict[str, list[str]] = {}
    for skipped in report.skipped:
        label = skipped.rule_id + (f" (GPU {skipped.gpu_index})" if skipped.gpu_index is not None else "")
        grouped.setdefault(skipped.reason, []).append(label)
    return list(grouped.items())
