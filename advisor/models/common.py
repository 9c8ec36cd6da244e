"""Building blocks shared by every part of the report: missing values, severities, confidences."""

from typing import Any, TypeVar, Union

from pydantic import BaseModel, ConfigDict

from advisor.models.levels import Confidence, Severity

__all__ = ["Confidence", "Fact", "NOT_COLLECTED", "Severity", "StrictModel", "Unavailable", "is_missing", "missing"]


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


class StrictModel(BaseModel):
    """Base for report parts: unknown keys in a saved report are an error, not silently dropped."""

    # Validators are built on first use, not at import: the rule loader checks fact paths against these classes'
    # fields and never validates a report, and `rules list` would otherwise build ~30 schemas (about 25 ms).
    model_config = ConfigDict(extra="forbid", validate_assignment=False, defer_build=True)
