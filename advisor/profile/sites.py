"""User lines and what they cost over the recorded window, reported per step (the "Your lines" table)."""

from __future__ import annotations

from collections import defaultdict
from typing import Optional

from advisor.models.profile import SourceSite
from advisor.profile.attribution import UserCall, UserFiles, resolve_line


class Sites:
    """User lines and what they cost, accumulated over the window, reported per step."""

    def __init__(self, files: UserFiles, hot_lines: dict[tuple[str, int], float], steps: int,
                 module_lines: Optional[dict[tuple[str, int], float]] = None) -> None:
        self.files, self.hot_lines, self.steps = files, hot_lines, max(steps, 1)
        self.module_lines = module_lines or {}
        self.totals: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
        self.details: dict[tuple[str, str, str], str] = {}
        self.resolved: dict[UserCall, tuple[str, str]] = {}

    def site_of(self, call: Optional[UserCall]) -> Optional[tuple[str, str]]:
        if call is None:
            return None
        if call not in self.resolved:  # thousands of launches share a handful of calls
            line = resolve_line(call, self.hot_lines, self.module_lines)
            self.resolved[call] = (f"{self.files.display(call.path)}:{line}", call.function)
        return self.resolved[call]

    def add(self, what: str, where: Optional[tuple[str, str]], ms: float, count: float = 1.0, detail: str = "") -> None:
        if where is None:
            return
        key = (what, *where)
        self.totals[key][0] += ms
        self.totals[key][1] += count
        if detail:
            self.details[key] = detail

    def top(self, what: str) -> tuple[str, float]:
        """(site, count per step) of the costliest line for ``what``; ("", 0) when none."""
        rows = [(key, value) for key, value in self.totals.items() if key[0] == what]
        if not rows:
            return "", 0.0
        key, value = max(rows, key=lambda row: (row[1][0], row[1][1]))
        return key[1], value[1] / self.steps

    def rows(self, limit_per_kind: int = 3) -> list[SourceSite]:
        result = []
        for what in dict.fromkeys(key[0] for key in self.totals):
            rows = sorted(((k, v) for k, v in self.totals.items() if k[0] == what), key=lambda kv: -kv[1][0])
            for key, (ms, count) in rows[:limit_per_kind]:
                result.append(SourceSite(site=key[1], function=key[2], what=what, ms_per_step=round(ms / self.steps, 3),
                                         count_per_step=round(count / self.steps, 2), detail=self.details.get(key, "")))
        return result
