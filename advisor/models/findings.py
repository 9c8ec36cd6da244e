"""Findings: what a rule (or a lint check) concluded, with the evidence it read."""

from typing import Any, Literal, Optional

from pydantic import Field

from advisor.models.common import Confidence, Severity, StrictModel


class SourceLocation(StrictModel):
    """Where in the user's code a lint finding points (1-based line, 1-based column)."""

    path: str
    line: int
    column: int
    end_line: Optional[int] = None
    end_column: Optional[int] = None


class Finding(StrictModel):
    rule_id: str
    title: str
    category: str
    severity: Severity
    confidence: Confidence
    message: str
    remediation: str
    #: The fact and measurement values the rule read, by dotted path: the numbers behind the sentence.
    evidence: dict[str, Any] = Field(default_factory=dict)
    references: list[str] = Field(default_factory=list)
    #: Set for findings about one GPU (rules evaluated per GPU).
    gpu_index: Optional[int] = None
    #: Set for lint findings: the line in the user's code.
    location: Optional[SourceLocation] = None
    source: Literal["rules", "lint"] = "rules"


class SkippedRule(StrictModel):
    """A rule that could not be decided because a fact it needs is missing: a real result, not a pass."""

    rule_id: str
    title: str
    reason: str
    missing: list[str] = Field(default_factory=list)
    gpu_index: Optional[int] = None
