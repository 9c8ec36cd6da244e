"""Three-valued rule evaluation: a rule fires, passes, or is skipped because a fact it needs is missing."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from packaging.version import InvalidVersion, Version
from pydantic import BaseModel

from advisor.engine.conditions import NEVER, AllOf, AnyOf, Compare, Condition, Exists, FactRef, Known, NotOf, iter_paths
from advisor.engine.derive import DerivedFacts, derive_gpu, derive_machine
from advisor.engine.paths import FactView
from advisor.engine.render import render
from advisor.engine.rule import Rule
from advisor.engine.safe_regex import search_bounded
from advisor.models.common import Unavailable, missing
from advisor.models.findings import Finding, SkippedRule
from advisor.models.report import Report


@dataclass
class Outcome:
    """True / False, or None for unknown together with the missing facts that made it unknown."""

    value: Optional[bool]
    missing: dict[str, str] = field(default_factory=dict)


@dataclass
class _Reader:
    view: FactView
    reads: dict[str, Any] = field(default_factory=dict)

    def read(self, path: str) -> Any:
        value = self.view.resolve(path)
        self.reads[path] = value
        return value


def _unknown(path: str, value: Unavailable) -> Outcome:
    return Outcome(None, {path: value.unavailable})


def _evaluate(condition: Condition, reader: _Reader) -> Outcome:
    if isinstance(condition, (AllOf, AnyOf)):
        children = [_evaluate(child, reader) for child in (condition.all if isinstance(condition, AllOf) else condition.any)]
        decisive = isinstance(condition, AnyOf)  # True decides "any", False decides "all"
        if any(child.value is decisive for child in children):
            return Outcome(decisive)
        unknown = [child for child in children if child.value is None]
        if unknown:
            return Outcome(None, {k: v for child in unknown for k, v in child.missing.items()})
        return Outcome(not decisive)
    if isinstance(condition, NotOf):
        inner = _evaluate(condition.not_, reader)
        return inner if inner.value is None else Outcome(not inner.value)
    if isinstance(condition, Exists):
        return Outcome(not isinstance(reader.read(condition.exists), Unavailable))
    if isinstance(condition, Known):
        value = reader.read(condition.known)
        return _unknown(condition.known, value) if isinstance(value, Unavailable) else Outcome(value is not None)
    return _compare(condition, reader)


def _compare(condition: Compare, reader: _Reader) -> Outcome:
    value = reader.read(condition.fact)
    if isinstance(value, Unavailable):
        return _unknown(condition.fact, value)
    operand = condition.operand
    if isinstance(operand, FactRef):
        ref_value = reader.read(operand.fact)
        if isinstance(ref_value, Unavailable):
            return _unknown(operand.fact, ref_value)
        if operand.times != 1.0 and isinstance(ref_value, (int, float)) and not isinstance(ref_value, bool):
            ref_value = ref_value * operand.times
        operand = ref_value
    try:
        return Outcome(_apply(condition.op, value, operand))
    except (TypeError, InvalidVersion) as exc:
        return Outcome(None, {condition.fact: f"cannot apply {condition.op} to {value!r} and {operand!r}: {exc}"})


def _apply(op: str, value: Any, operand: Any) -> bool:
    if op == "eq":
        return value == operand
    if op == "ne":
        return value != operand
    if op == "in":
        return value in operand
    if op == "not_in":
        return value not in operand
    if value is None or operand is None:
        return False  # a known "none" (no CUDA build, no package) is never larger, smaller or matching
    if op in ("lt", "le", "gt", "ge"):
        value, operand = _orderable(value), _orderable(operand)
        return {"lt": value < operand, "le": value <= operand, "gt": value > operand, "ge": value >= operand}[op]
    if op == "contains":
        return operand in value
    if op == "contains_any":
        return any(item in value for item in operand)
    if op == "matches":
        return isinstance(value, str) and search_bounded(operand, value)
    left, right = Version(str(value)), Version(str(operand))
    return {"version_lt": left < right, "version_le": left <= right, "version_gt": left > right,
            "version_ge": left >= right, "version_eq": left == right}[op]


def _orderable(value: Any) -> float:
    """A number to order by: "never" (the GPU never won in the range tried) lies beyond every size."""
    if value == NEVER:
        return math.inf
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("ordering needs numbers")
    return value


def _evidence(reads: dict[str, Any]) -> dict[str, Any]:
    def plain(value: Any) -> Any:
        if isinstance(value, BaseModel):
            return value.model_dump(mode="json")
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    return {path: plain(value) for path, value in reads.items()}


def _skip_reason(missing: dict[str, str]) -> str:
    """Why the facts are missing, each reason once (the paths themselves are the SkippedRule's ``missing``)."""
    return "; ".join(dict.fromkeys(missing.values()))


def evaluate_rule(rule: Rule, view: FactView, *, gpu_index: Optional[int] = None) -> Finding | SkippedRule | None:
    reader = _Reader(view)
    outcome = _evaluate(rule.when, reader)
    if outcome.value is None:
        return SkippedRule(rule_id=rule.id, title=rule.title, reason=_skip_reason(outcome.missing),
                           missing=sorted(outcome.missing), gpu_index=gpu_index)
    if not outcome.value:
        return None
    message = render(rule.message, reader.read)
    remediation = render(rule.remediation, reader.read)
    return Finding(
        rule_id=rule.id, title=rule.title, category=rule.category, severity=rule.severity,
        confidence=rule.confidence, message=message, remediation=remediation,
        evidence=_evidence(reader.reads), references=list(rule.references), gpu_index=gpu_index,
    )


NOT_A_FLEET = missing("not a distributed run (fleet rules need `gpu-advisor cluster` under torchrun)")


def reads_profile(rule: Rule) -> bool:
    return any(path.startswith("profile.") for path in iter_paths(rule.when))


def view_for_report(report: Report, derived: Optional[DerivedFacts] = None) -> FactView:
    facts = report.facts
    roots = {"host": facts.host, "torch": facts.torch, "driver": facts.driver,
             "measurements": report.measurements,
             "derived": derived or derive_machine(facts, report.measurements),
             "fleet": report.fleet.facts if report.fleet is not None else NOT_A_FLEET,
             "profile": report.profile if report.profile is not None else Unavailable(unavailable="not a profile report")}
    return FactView(roots, env=facts.env, packages=facts.packages)


def reads_fleet(rule: Rule) -> bool:
    return any(path.startswith("fleet.") for path in iter_paths(rule.when))


def evaluate_rules(rules: Iterable[Rule], report: Report, view: Optional[FactView] = None) -> tuple[list[Finding], list[SkippedRule]]:
    """Run every rule on a report; findings sorted most severe first."""
    view = view or view_for_report(report)
    gpus = report.facts.gpus
    findings: list[Finding] = []
    skipped: list[SkippedRule] = []
    for rule in rules:
        if report.fleet is None and reads_fleet(rule):
            continue  # a fleet rule does not apply to one process's report (like a per-GPU rule with no GPU)
        if reads_profile(rule) != (report.profile is not None):
            # Profile rules are about a profiled program, the others about a probed machine: neither applies to
            # the other kind of report (a profile report holds no probe facts), so neither is "skipped" there.
            continue
        if rule.for_each == "gpu":
            if isinstance(gpus, Unavailable):
                skipped.append(SkippedRule(rule_id=rule.id, title=rule.title, missing=["gpus"],
                                           reason=gpus.unavailable))
                continue
            results = [evaluate_rule(rule, view.for_gpu(gpu, derive_gpu(gpu, report.facts)), gpu_index=gpu.index)
                       for gpu in gpus]
        else:
            results = [evaluate_rule(rule, view)]
        for result in results:
            if isinstance(result, Finding):
                findings.append(result)
            elif isinstance(result, SkippedRule):
                skipped.append(result)
    findings.sort(key=lambda f: (-f.severity.rank, f.category, f.rule_id, f.gpu_index or 0))
    return findings, skipped
