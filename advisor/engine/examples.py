"""Running a rule's own examples: each ``fires`` example must fire, each ``passes`` example must definitely not.

An example is a flat mapping of fact paths to values. It is turned into a real Report (so derived facts are
computed exactly as in a run); ``derived.*`` and derived ``gpu.*`` keys given in an example override the
computed value, for rules whose inputs are awkward to spell as raw facts.
"""

from __future__ import annotations

from typing import Any

from advisor.engine.derive import GpuDerived, derive_gpu, derive_machine
from advisor.engine.evaluate import evaluate_rule, view_for_report
from advisor.engine.render import placeholder_paths
from advisor.engine.rule import Rule
from advisor.models.findings import Finding, SkippedRule
from advisor.models.report import Report, ReportMeta


def _set_path(target: dict[str, Any], segments: list[str], value: Any) -> None:
    for segment in segments[:-1]:
        target = target.setdefault(segment, {})
    target[segments[-1]] = value


def report_from_example(example: dict[str, Any]) -> tuple[Report, dict[str, Any], dict[str, Any]]:
    """The report an example describes, plus the derived overrides (machine-wide, per GPU)."""
    facts: dict[str, Any] = {}
    measurements: dict[str, Any] = {}
    gpu: dict[str, Any] = {"index": 0}
    derived_overrides: dict[str, Any] = {}
    fleet: dict[str, Any] = {}
    gpu_overrides: dict[str, Any] = {}
    env_seen = False
    for path, value in example.items():
        head, _, rest = path.partition(".")
        segments = rest.split(".")
        if head == "env":
            env_seen = True
            if value is not None:  # None in an example means "known to be unset"
                facts.setdefault("env", {}).setdefault("variables", {})[rest] = str(value)
        elif head == "packages":
            packages = facts.setdefault("packages", {})
            if value is not None:
                packages[rest] = str(value)
        elif head == "gpu":
            if segments[0] in GpuDerived.model_fields:
                gpu_overrides[rest] = value
            else:
                _set_path(gpu, segments, value)
        elif head == "derived":
            derived_overrides[rest] = value
        elif head == "fleet":
            fleet[rest] = value
        elif head == "measurements":
            _set_path(measurements, segments, value)
        else:
            _set_path(facts.setdefault(head, {}), segments, value)
    if env_seen:
        facts.setdefault("env", {})["complete"] = True
    facts["gpus"] = [gpu]
    report = Report.model_validate({
        "meta": ReportMeta(tool_version="example", command="example", created_utc="").model_dump(),
        "facts": facts, "measurements": measurements,
        "fleet": {"world_size": fleet.get("world_size", 2), "backend": "example", "facts": fleet} if fleet else None,
    })
    return report, derived_overrides, gpu_overrides


def run_example(rule: Rule, example: dict[str, Any]) -> Finding | SkippedRule | None:
    report, derived_overrides, gpu_overrides = report_from_example(example)
    derived = derive_machine(report.facts, report.measurements)
    for path, value in derived_overrides.items():
        field, *inner = path.split(".")
        if inner:  # a nested derived table such as crossover.matmul.float32.resident
            _set_path(getattr(derived, field), inner, value)
        else:
            setattr(derived, field, value)
    view = view_for_report(report, derived)
    if rule.for_each == "gpu":
        gpu = report.facts.gpus[0]  # type: ignore[index]
        gpu_derived = derive_gpu(gpu, report.facts)
        for field, value in gpu_overrides.items():
            setattr(gpu_derived, field, value)
        return evaluate_rule(rule, view.for_gpu(gpu, gpu_derived), gpu_index=0)
    return evaluate_rule(rule, view)


def example_failures(rule: Rule) -> list[str]:
    """Human-readable failures of a rule's examples (empty when every example behaves)."""
    failures = []
    for number, example in enumerate(rule.examples.fires, 1):
        result = run_example(rule, example)
        if not isinstance(result, Finding):
            why = result.reason if isinstance(result, SkippedRule) else "it passed"
            failures.append(f"{rule.id}: fires example {number} did not fire ({why})")
        else:
            blank = [path for path in placeholder_paths(rule.message)
                     if isinstance(result.evidence.get(path), dict) and "unavailable" in result.evidence[path]]
            if blank:
                failures.append(f"{rule.id}: fires example {number} leaves {', '.join(blank)} unknown in the message")
    for number, example in enumerate(rule.examples.passes, 1):
        result = run_example(rule, example)
        if isinstance(result, Finding):
            failures.append(f"{rule.id}: passes example {number} fired: {result.message}")
        elif isinstance(result, SkippedRule):
            failures.append(f"{rule.id}: passes example {number} was skipped, not passed ({result.reason})")
    return failures
