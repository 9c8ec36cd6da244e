"""Findings that appeared in B, disappeared from A, or persist, matched by rule id and GPU index.

A finding missing on one side only means "fixed" when that side evaluated the rule; when the rule was
skipped there for missing facts (pasted text often lacks them), the finding is marked undecided instead.
"""

from __future__ import annotations

from typing import Optional

from advisor.models.common import Severity
from advisor.models.comparison import FindingChange
from advisor.models.findings import Finding, SkippedRule
from advisor.models.report import Report

_Key = tuple[str, Optional[int], Optional[str]]


def _location(finding: Finding) -> Optional[str]:
    return finding.location.text if finding.location is not None else None


def _key(finding: Finding) -> _Key:
    return finding.rule_id, finding.gpu_index, _location(finding)


def _skipped_reason(skipped: list[SkippedRule], rule_id: str, gpu_index: Optional[int]) -> Optional[str]:
    for rule in skipped:
        # A rule skipped as a whole (gpu_index None) covers its per-GPU findings too.
        if rule.rule_id == rule_id and rule.gpu_index in (gpu_index, None):
            return rule.reason
    return None


def diff_findings(a: Report, b: Report, regression_severity: Severity) -> list[FindingChange]:
    by_key_a = {_key(f): f for f in a.findings}
    by_key_b = {_key(f): f for f in b.findings}
    changes: list[FindingChange] = []
    for key in [*by_key_b, *(k for k in by_key_a if k not in by_key_b)]:
        found_a, found_b = by_key_a.get(key), by_key_b.get(key)
        shown = found_b or found_a
        assert shown is not None
        rule_id, gpu_index, location = key
        change = FindingChange(
            rule_id=rule_id, gpu_index=gpu_index, location=location, title=shown.title, message=shown.message,
            change="persists" if found_a and found_b else ("appeared" if found_b else "disappeared"),
            severity_a=found_a.severity if found_a else None, severity_b=found_b.severity if found_b else None)
        if change.change == "appeared":
            change.undecided_reason = _skipped_reason(a.skipped, rule_id, gpu_index)
        elif change.change == "disappeared":
            change.undecided_reason = _skipped_reason(b.skipped, rule_id, gpu_index)
        if found_b is not None and found_b.severity.rank >= regression_severity.rank:
            # New at this severity, or raised to it: either way B is worse off than A.
            change.regression = found_a is None or found_a.severity.rank < regression_severity.rank
        changes.append(change)
    order = {"appeared": 0, "disappeared": 1, "persists": 2}
    changes.sort(key=lambda c: (order[c.change], -(c.severity_b or c.severity_a or Severity.info).rank))
    return changes
