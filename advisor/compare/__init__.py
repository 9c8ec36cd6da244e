"""Two reports side by side: facts that differ, measurements with ratios, findings that came and went.

Pure: Reports in, a Comparison model out. No torch, no rule evaluation, no I/O -- the command re-evaluates the
rules and redacts both reports before calling ``compare_reports``, and the reporters only render its result.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional

from advisor.compare.crossover_diff import diff_crossovers
from advisor.compare.facts_diff import diff_facts
from advisor.compare.findings_diff import diff_findings
from advisor.compare.measurements_diff import diff_scalars
from advisor.models.common import Severity, Unavailable
from advisor.models.comparison import Comparison, FindingChange, MeasurementChange, ReportSide
from advisor.models.report import Report

__all__ = ["DEFAULT_THRESHOLD", "compare_reports", "describe_side", "report_origin"]

#: A change smaller than this (10%) is "similar": run-to-run variation on one machine is often a few percent.
DEFAULT_THRESHOLD = 0.10
#: Where pasted text says its facts came from (``advisor.ingest``); anything else is a saved report.
_TEXT_SOURCES = ("collect_env text", "nvidia-smi -q text")


def _machine_summary(report: Report) -> str:
    facts = report.facts
    parts = []
    if isinstance(facts.torch.version, str):
        parts.append(f"torch {facts.torch.version}")
    if isinstance(facts.driver.version, str):
        parts.append(f"driver {facts.driver.version}")
    names: list[str] = []
    if not isinstance(facts.gpus, Unavailable):
        names = [g.name for g in facts.gpus if isinstance(g.name, str)]
    if not names and not isinstance(facts.torch.devices, Unavailable):
        names = [d.name for d in facts.torch.devices if isinstance(d.name, str)]
    counted = Counter(names)
    parts.append(", ".join(f"{n} x {name}" if n > 1 else name for name, n in counted.items()) if names else "no GPU seen")
    return " · ".join(parts)


def report_origin(report: Report) -> str:
    """"text" when the facts were parsed from pasted collect_env / nvidia-smi -q output, else "report"."""
    sources = report.meta.sources
    return "text" if sources and all(s.startswith(_TEXT_SOURCES) for s in sources) else "report"


def describe_side(report: Report, label: str, *, source: Optional[str] = None, origin: Optional[str] = None,
                  re_evaluated: bool = False, saved_findings: Optional[int] = None) -> ReportSide:
    meta = report.meta
    return ReportSide(
        label=label, source=source or label, origin=origin or report_origin(report), command=meta.command,
        created_utc=meta.created_utc, tool_version=meta.tool_version, sources=list(meta.sources), summary=_machine_summary(report),
        redacted=meta.redacted, re_evaluated=re_evaluated, saved_findings=saved_findings,
        findings=len(report.findings), skipped_rules=len(report.skipped),
        measured=report.measurements.run.budget_s is not None, measurement_notes=list(report.measurements.run.notes))


def _measurement_regression(change: MeasurementChange) -> str:
    at_least = "at least " if change.ratio is None else ""
    amount = f"{at_least}{change.worse_by:.0%} worse" if change.worse_by is not None else "worse"
    return f"{change.group}: {change.name} {amount} ({change.a_text} -> {change.b_text})"


def _finding_regression(change: FindingChange) -> str:
    gpu = f" on GPU {change.gpu_index}" if change.gpu_index is not None else ""
    severity = change.severity_b.value if change.severity_b else "?"
    before = change.severity_a.value if change.severity_a else "?"
    verb = "appeared" if change.change == "appeared" else f"rose from {before}"
    return f"{severity} finding {change.rule_id}{gpu} {verb}: {change.title}"


def compare_reports(a: Report, b: Report, *, threshold: float = DEFAULT_THRESHOLD,
                    regression_severity: Severity = Severity.medium,
                    sides: Optional[tuple[ReportSide, ReportSide]] = None) -> Comparison:
    """Compare report B against baseline A. ``sides`` says where each came from (default: from the reports)."""
    side_a, side_b = sides or (describe_side(a, "A"), describe_side(b, "B"))
    comparison = Comparison(a=side_a, b=side_b, threshold=threshold, regression_severity=regression_severity,
                            facts=diff_facts(a.facts, b.facts),
                            findings=diff_findings(a, b, regression_severity))
    unmeasured = [side.label for side in (side_a, side_b) if not side.measured]
    if a.profile is not None and b.profile is not None:  # two profiled runs: their trace summaries are the numbers
        from advisor.compare.profile_diff import diff_profiles

        comparison.measurements = diff_profiles(a.profile, b.profile, threshold)
    elif unmeasured:
        # An env report or pasted text holds no numbers: listing every number of the other side as
        # "only in B" would bury the facts and findings, which are what such a comparison is for.
        verb = "hold" if len(unmeasured) > 1 else "holds"
        comparison.measurements_note = (f"{' and '.join(unmeasured)} {verb} no measurements "
                                        "(run `gpu-advisor diagnose` to record some); measurements not compared")
    else:
        comparison.measurements = [*diff_scalars(a.measurements, b.measurements, threshold),
                                   *diff_crossovers(a.measurements, b.measurements, threshold)]
    comparison.regressions = [
        *(_measurement_regression(m) for m in comparison.measurements if m.regression),
        *(_finding_regression(f) for f in comparison.findings if f.regression),
    ]
    return comparison
