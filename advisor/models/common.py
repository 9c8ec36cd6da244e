"""Building blocks shared by every part of the report: missing values, severities, confidences."""

from enum import Enum
from typing import Any, TypeVar, Union

from pydantic import BaseModel, ConfigDict


class Unavailable(BaseModel):
    """A fact or measurement that could not be obtained, and why.

    Missing is a value: rules that need it are skipped with this reason instead of silently passing.
    Serialised as ``{"unavailable": "<reason>"}`` so it cannot be mistaken for a real value.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    unavailable: str

    def __str__(self) -> str:  # used when a placeholder falls back to text
        return f"unavailable ({self.unavailable})"


T = TypeVar("T")

#: ``Fact[int]`` reads "an int, or the reason it could not be obtained".
Fact = Union[T, Unavailable]


def missing(reason: str) -> Unavailable:
    return Unavailable(unavailable=reason)


NOT_COLLECTED = missing("not collected")


def is_missing(value: Any) -> bool:
    return isinstance(value, Unavailable)


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


class StrictModel(BaseModel):
    """Base for report parts: unknown keys in a saved report are an error, not silently dropped."""

    # Validators are built on first use, not at import: the rule loader checks fact paths against these classes'
    # fields and never validates a report, and `rules list` would otherwise build ~30 schemas (about 25 ms).
    model_config = ConfigDict(extra="forbid", validate_assignment=False, defer_build=True)
