"""Assembling a Report: facts and measurements in, rules evaluated, findings out. Shared by every service."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

from advisor import __version__
from advisor.app.errors import AdvisorError
from advisor.app.rules_service import load_catalogue
from advisor.models.facts import Facts
from advisor.models.findings import Finding
from advisor.models.measurements import Measurements
from advisor.models.report import Report, ReportMeta

if TYPE_CHECKING:
    from advisor.engine.rule import Rule


@dataclass
class ReportOutcome:
    """A service's report, and the failure the command raises after writing it: a run can fail (exit 3) and
    still have a report worth reading (what was measured, and why the rest failed)."""

    report: Report
    failure: Optional[AdvisorError] = None


def load_rule_set(rules_dirs: Optional[Iterable[Path]]) -> list[Rule]:
    return [loaded.rule for loaded in load_catalogue(rules_dirs)]


def prepare_rules(rules_dirs: Optional[Iterable[Path]]) -> list[Rule]:
    """Everything evaluating a report needs that does not depend on its facts: the rules read and checked, the
    evaluator imported, and the models' validators built (they are built on first use, children first so that
    the report's validator reuses theirs). For work done ahead, while something slower runs: see env_service."""
    from advisor.engine.derive import DerivedFacts, GpuDerived
    from advisor.engine.evaluate import evaluate_rules  # noqa: F401
    from advisor.models.facts import TorchFacts

    rule_set = load_rule_set(rules_dirs)
    for model in (TorchFacts, Facts, Measurements, Report, DerivedFacts, GpuDerived):
        model.model_rebuild()
    return rule_set


def new_meta(command: str, sources: list[str]) -> ReportMeta:
    now = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    return ReportMeta(tool_version=__version__, command=command, created_utc=now, sources=sources)


def evaluate(report: Report, rules_dirs: Optional[Iterable[Path]], extra_findings: Iterable[Finding] = ()) -> Report:
    """Re-run every rule on the report (any findings it carried are replaced) and add extra findings."""
    return apply_rules(report, load_rule_set(rules_dirs), extra_findings)


def re_evaluate(report: Report, rule_set: list[Rule]) -> Report:
    """A loaded report with the rules run again. Lint findings come from code, not from facts: they are kept;
    rule findings are recomputed, so every report is judged by the rules of this version."""
    return apply_rules(report, rule_set, [f for f in report.findings if f.source == "lint"])


def apply_rules(report: Report, rule_set: list[Rule], extra_findings: Iterable[Finding] = ()) -> Report:
    """``evaluate`` with the rules already loaded, for a command that evaluates more than one report."""
    from advisor.engine.evaluate import evaluate_rules

    findings, skipped = evaluate_rules(rule_set, report)
    findings = sorted([*findings, *extra_findings], key=lambda f: -f.severity.rank)
    return report.model_copy(update={"findings": findings, "skipped": skipped})


def build_report(command: str, facts: Facts, *, sources: list[str], rules_dirs: Optional[Iterable[Path]],
                 measurements: Optional[Measurements] = None, extra_findings: Iterable[Finding] = (),
                 rule_set: Optional[list[Rule]] = None) -> Report:
    """The report, with the rules in ``rules_dirs`` evaluated (or ``rule_set``, when already loaded)."""
    report = Report(meta=new_meta(command, sources), facts=facts, measurements=measurements or Measurements())
    return apply_rules(report, load_rule_set(rules_dirs) if rule_set is None else rule_set, extra_findings)
