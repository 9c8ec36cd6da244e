"""Running a rule's own examples: each ``fires`` example must fire, each ``passes`` example must definitely not.

An example is a flat mapping of fact and measurement paths to values. It becomes a real Report, and the rule
runs on it exactly as on a run's report: derived facts are computed from it by the same derivation, never
given (an example that wants ``derived.add_transfer_ratio`` high gives the crossovers that make it high).

Lists are not addressable by a path, so one shorthand stands for an entry of ``measurements.crossover``:
``measurements.crossover.OP.DTYPE.MODE`` set to a size (the GPU wins from there), ``never`` (it never won up
to ``range_max``), or a mapping of CrossoverResult fields, where ``points: [[size, cpu_s, gpu_s], ...]``
lists timed sizes (medians, seconds) and ``close_calls: [size, ...]`` marks the ones sampling could not settle.
"""

from __future__ import annotations

from typing import Any

from advisor.engine.conditions import NEVER
from advisor.engine.derive import derive_gpu
from advisor.engine.evaluate import evaluate_rule, view_for_report
from advisor.engine.paths import EXAMPLE_CROSSOVER
from advisor.engine.render import placeholder_paths
from advisor.engine.rule import Rule
from advisor.models.findings import Finding, SkippedRule
from advisor.models.report import Report, ReportMeta

#: The size range an example crossover was searched over, unless it says otherwise.
EXAMPLE_RANGE = (16, 10_000_000)


def _set_path(target: dict[str, Any], segments: list[str], value: Any) -> None:
    for segment in segments[:-1]:
        target = target.setdefault(segment, {})
    target[segments[-1]] = value


def _timing(median_s: float, method: str) -> dict[str, Any]:
    return {"median_s": median_s, "q1_s": median_s, "q3_s": median_s, "min_s": median_s, "max_s": median_s,
            "samples": 5, "rel_spread": 0.0, "stable": True, "method": method}


def crossover_from_example(path: str, value: Any) -> dict[str, Any]:
    """The CrossoverResult (as data) one ``measurements.crossover.OP.DTYPE.MODE`` example entry stands for."""
    op, dtype, mode = path[len(EXAMPLE_CROSSOVER):].split(".")
    fields = dict(value) if isinstance(value, dict) else (
        {"gpu_never_wins": True} if value == NEVER else {"crossover_size": value})
    close = set(fields.pop("close_calls", ()))
    points = []
    for size, cpu_s, gpu_s in fields.pop("points", ()):
        speedup = cpu_s / gpu_s
        points.append({"size": size, "cpu": _timing(cpu_s, "cpu_clock"), "gpu": _timing(gpu_s, "cuda_events"),
                       "speedup": speedup, "winner": "gpu" if speedup > 1 else "cpu", "close_call": size in close})
    low, high = EXAMPLE_RANGE
    return {"op": op, "dtype": dtype, "mode": mode, "size_unit": "n", "range_min": low, "range_max": high,
            "points": points, **fields}


def report_from_example(example: dict[str, Any]) -> Report:
    """The report an example describes: its facts, measurements and one GPU (index 0)."""
    facts: dict[str, Any] = {}
    measurements: dict[str, Any] = {}
    gpu: dict[str, Any] = {"index": 0}
    fleet: dict[str, Any] = {}  # fleet.NAME: FleetFacts of a distributed run (models/fleet.py)
    profile: dict[str, Any] = {"run": {"command": "example", "outcome": "stopped"}, "mode": "steps",
                               "cuda_available": True}
    profile_seen = False
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
            _set_path(gpu, segments, value)
        elif head == "fleet":
            fleet[rest] = value
        elif path.startswith(EXAMPLE_CROSSOVER):
            measurements.setdefault("crossover", []).append(crossover_from_example(path, value))
        elif head == "measurements":
            _set_path(measurements, segments, value)
        elif head == "profile":
            profile_seen = True
            _set_path(profile, segments, value)
        else:
            _set_path(facts.setdefault(head, {}), segments, value)
    if env_seen:
        facts.setdefault("env", {})["complete"] = True
    facts["gpus"] = [gpu]
    return Report.model_validate({
        "meta": ReportMeta(tool_version="example", command="example", created_utc="").model_dump(),
        "facts": facts, "measurements": measurements,
        "fleet": {"world_size": fleet.get("world_size", 2), "backend": "example", "facts": fleet} if fleet else None,
        **({"profile": profile} if profile_seen else {}),
    })


def run_example(rule: Rule, example: dict[str, Any]) -> Finding | SkippedRule | None:
    report = report_from_example(example)
    view = view_for_report(report)
    if rule.for_each == "gpu":
        gpu = report.facts.gpus[0]  # type: ignore[index]
        return evaluate_rule(rule, view.for_gpu(gpu, derive_gpu(gpu, report.facts)), gpu_index=0)
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
