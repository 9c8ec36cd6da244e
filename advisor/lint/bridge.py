"""Lint findings as report findings, for `diagnose --code PATH`: the one lint module that imports pydantic.

Notebook findings keep the path of the .ipynb in ``location.path`` and the cell in ``location.cell`` (line and
column are inside that cell), so a report writes the same ``nb.ipynb:cell3:4:5`` `gpu-advisor lint` does. A file that does not parse is a
GA000 finding (high: nothing in it was checked, and --fail-on must see that); skipped files come back as notes.
Bad usage -- a path that does not exist, an unknown check id -- raises discover.MissingPath or
registry.UnknownCheck for the caller to turn into exit code 2.
"""

from __future__ import annotations

from typing import Iterable, Optional

from advisor.lint.model import LintFinding
from advisor.lint.runner import lint_paths
from advisor.models.common import Confidence, Severity
from advisor.models.findings import Finding, SourceLocation


def lint_paths_to_findings(paths: list[str], select: Optional[Iterable[str]] = None,
                           ignore: Optional[Iterable[str]] = None) -> tuple[list[Finding], list[str]]:
    run = lint_paths(paths, select=select, ignore=ignore, jobs=1)  # diagnose may hold CUDA and torch's threads: no fork
    findings = [to_finding(f) for f in run.findings]
    notes = [f"{note.path}: {note.reason}" for note in run.notes]
    return findings, notes


def to_finding(finding: LintFinding) -> Finding:
    evidence = {"cost": finding.cost, **finding.evidence}
    if finding.cell is not None:
        evidence["notebook_cell"] = finding.cell
    return Finding(
        rule_id=finding.check_id, title=finding.title, category="code", severity=Severity(finding.severity),
        confidence=Confidence(finding.confidence), message=finding.message, remediation=finding.fix,
        evidence=evidence, references=list(finding.references),
        location=SourceLocation(path=finding.path, line=finding.line, column=finding.column,
                                end_line=finding.end_line, end_column=finding.end_column, cell=finding.cell),
        source="lint")
