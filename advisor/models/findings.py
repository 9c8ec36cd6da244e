"""Findings: what a rule (or a lint check) concluded, with the evidence it read."""

from typing import Any, Literal, Optional

from pydantic import Field

from advisor.models.common import Confidence, Severity, StrictModel


class SourceLocation(StrictModel):
    """Where in the user's code a lint finding points (1-based line, 1-based column). In a notebook, ``path`` is
    the .ipynb file, ``cell`` the 1-based cell (markdown cells count, as editors number them) and ``line`` the
    line inside that cell: shown as ``path.ipynb:cellN:line:col`` everywhere (``text``)."""

    path: str
    line: int
    column: int
    end_line: Optional[int] = None
    end_column: Optional[int] = None
    cell: Optional[int] = None

    @property
    def text(self) -> str:
        """``path:line:col``, or ``path.ipynb:cellN:line:col`` in a notebook: the one way a place is written."""
        where = f"{self.path}:cell{self.cell}" if self.cell is not None else self.path
        return f"{where}:{self.line}:{self.column}"


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
