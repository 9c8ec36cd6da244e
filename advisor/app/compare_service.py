"""`compare`: two reports (or pastes) judged by one rule set, redacted alike, and diffed. No torch."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

from advisor.app.errors import AdvisorError
from advisor.app.inputs import load_any_report
from advisor.app.reports import load_rule_set, re_evaluate
from advisor.models.common import Severity
from advisor.models.comparison import Comparison


def compare_inputs(a_path: str, b_path: str, *, threshold: float, rules_dirs: Optional[Iterable[Path]],
                   redact: bool, regression_severity: Optional[Severity] = None) -> Comparison:
    from advisor.compare import compare_reports, describe_side, report_origin
    from advisor.redact import Redactor, redact_report

    if a_path == "-" and b_path == "-":
        raise AdvisorError("A and B cannot both be read from stdin (-); give at least one as a file")
    report_a, report_b = load_any_report(a_path), load_any_report(b_path)
    rule_set = load_rule_set(rules_dirs)  # read once, for both sides
    origin_a, origin_b = report_origin(report_a), report_origin(report_b)
    saved_a, saved_b = (len([f for f in report.findings if f.source == "rules"]) if origin == "report" else None
                        for report, origin in ((report_a, origin_a), (report_b, origin_b)))
    report_a, report_b = re_evaluate(report_a, rule_set), re_evaluate(report_b, rule_set)
    source_a, source_b = ("<stdin>" if path == "-" else path for path in (a_path, b_path))
    if redact:
        # One redactor for both: a value private on both sides gets the same placeholder in each.
        redactor = Redactor()
        report_a = redact_report(report_a, lambda: redactor)
        report_b = redact_report(report_b, lambda: redactor)
        source_a, source_b = redactor.text(source_a), redactor.text(source_b)
    sides = (
        describe_side(report_a, "A", source=source_a, origin=origin_a, re_evaluated=True, saved_findings=saved_a),
        describe_side(report_b, "B", source=source_b, origin=origin_b, re_evaluated=True, saved_findings=saved_b),
    )
    return compare_reports(report_a, report_b, threshold=threshold, sides=sides,
                           regression_severity=regression_severity or Severity.medium)
