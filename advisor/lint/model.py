"""Plain records that flow through the linter: what a check is, what it hit, what the user sees.

Stdlib dataclasses only: the lint package never needs pydantic (bridge.py converts to the report model).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Optional

from advisor.models.levels import Confidence, Severity


@dataclass(frozen=True)
class CheckDoc:
    """A check's page, as data (the ruff rule-page model): what it finds, why that is bad, code it reports and
    the same code fixed. `lint --explain ID` prints it; tests lint both examples."""

    what: str
    why: str
    bad: str  # a complete script the check reports
    good: str  # the same script, fixed: the check stays quiet


@dataclass(frozen=True)
class CheckInfo:
    """The stable, user-facing description of one check: id, what it costs, how to fix it."""

    id: str  # stable: GA101 ... never renumbered
    name: str  # kebab-case slug, also accepted by --select/--ignore
    title: str
    severity: Severity  # a check may write the value ("medium"): it is converted
    confidence: Confidence  # inferred (follows from the code) | heuristic (a rule of thumb)
    cost: str
    fix: str
    references: tuple[str, ...] = ()
    doc: Optional[CheckDoc] = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "severity", Severity(self.severity))
        object.__setattr__(self, "confidence", Confidence(self.confidence))


@dataclass
class Hit:
    """One place a check fired. Located by an AST node, or by an explicit 0-based column (notebook magics)."""

    message: str
    node: Optional[ast.AST] = None
    line: Optional[int] = None
    column: Optional[int] = None  # 0-based, like ast's col_offset
    fix: Optional[str] = None  # a fix written for this very line; falls back to CheckInfo.fix
    cost: Optional[str] = None  # what this particular pattern costs; falls back to CheckInfo.cost
    evidence: dict[str, Any] = field(default_factory=dict)
    severity: Optional[Severity] = None  # overrides the check's own for this hit

    def __post_init__(self) -> None:
        if self.severity is not None:
            self.severity = Severity(self.severity)


@dataclass(frozen=True)
class LintFinding:
    check_id: str
    title: str
    path: str
    line: int  # 1-based; inside the cell for notebooks
    column: int  # 1-based, in characters
    end_line: Optional[int]
    end_column: Optional[int]
    cell: Optional[int]  # 1-based position of the notebook cell, None for .py files
    message: str
    cost: str
    fix: str
    severity: Severity
    confidence: Confidence
    references: tuple[str, ...] = ()
    evidence: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def location(self) -> str:
        """`path:line:col`, or `path:cellN:line:col` in a notebook (the scheme source.py documents)."""
        where = f"{self.path}:cell{self.cell}" if self.cell is not None else self.path
        return f"{where}:{self.line}:{self.column}"

    def sort_key(self) -> tuple:
        return (self.path, self.cell or 0, self.line, self.column, self.check_id)


@dataclass(frozen=True)
class Note:
    """A file the linter could not check (and why), or one it checked only in part."""

    path: str
    reason: str


@dataclass
class LintRun:
    findings: list[LintFinding] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    files_checked: int = 0
    lines_checked: int = 0
