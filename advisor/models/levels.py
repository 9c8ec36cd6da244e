"""Severity and confidence: the two scales every finding is graded on, by the rules and by the linter alike.

Plain enums (no pydantic), so the linter, which never imports pydantic, grades its findings on the same scale.
The meaning of each confidence is defined in docs/rules.md.
"""

from enum import Enum


class Severity(str, Enum):
    info = "info"
    low = "low"
    medium = "medium"
    high = "high"

    @property
    def rank(self) -> int:
        return _SEVERITY_RANK[self]


_SEVERITY_RANK = {Severity.info: 0, Severity.low: 1, Severity.medium: 2, Severity.high: 3}


class Confidence(str, Enum):
    """How sure a finding is: measured on this machine, inferred from facts, or a rule of thumb."""

    measured = "measured"
    inferred = "inferred"
    heuristic = "heuristic"
