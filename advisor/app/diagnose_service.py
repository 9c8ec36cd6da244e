"""`diagnose`: facts, measurements and every rule, in one report (at most ~30 s on a fast GPU)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

from advisor.app.errors import EXIT_FAILURE, AdvisorError
from advisor.app.measurements import plan_for, run_measurements
from advisor.app.progress import working
from advisor.app.reports import ReportOutcome, build_report
from advisor.measure.session import NOMINAL_BUDGET_S, NOMINAL_QUICK_BUDGET_S
from advisor.models.measurements import Measurements

DEFAULT_BUDGET_S = NOMINAL_BUDGET_S
QUICK_BUDGET_S = NOMINAL_QUICK_BUDGET_S


def diagnose(*, quick: bool, budget_s: Optional[float], device: int, memory_fraction: float,
             rules_dirs: Optional[Iterable[Path]], code: Optional[list[Path]]) -> ReportOutcome:
    """The report; its failure when a GPU is present but every GPU measurement failed."""
    from advisor import PROCESS_START
    from advisor.measure.timer import Stopwatch
    from advisor.probe import collect_facts

    watch = Stopwatch(since=PROCESS_START)
    lint_findings, lint_notes = _lint(code) if code else ([], [])
    with working("probing this machine (importing torch)"):
        facts = collect_facts()
    budget_s = budget_s if budget_s is not None else (QUICK_BUDGET_S if quick else DEFAULT_BUDGET_S)
    plan = plan_for(budget_s, elapsed_s=watch.elapsed(), quick=quick)
    plan.memory_fraction = memory_fraction
    measurements, no_gpu = run_measurements(facts, plan, device=device, asked_budget_s=budget_s)
    measurements.run.notes.extend(lint_notes)
    report = build_report("diagnose --quick" if quick else "diagnose", facts, sources=["probe", "measurements"],
                          rules_dirs=rules_dirs, measurements=measurements, extra_findings=lint_findings)
    report.meta.wall_s = round(watch.elapsed(), 2)
    failure = None
    if no_gpu is None and not _any_gpu_measurement(measurements):
        failure = AdvisorError("a GPU is present but every GPU measurement failed; the report lists why", EXIT_FAILURE)
    return ReportOutcome(report, failure)


def _any_gpu_measurement(measurements: Measurements) -> bool:
    """Whether at least one GPU number was measured (interrupting the run before any is not a failure)."""
    if measurements.run.interrupted:
        return True
    return bool(any(c.status == "ok" for c in measurements.crossover)
                or any(isinstance(v, float) for v in measurements.peaks.matmul_tflops.values()))


def _lint(paths: list[Path]):
    from advisor.lint.bridge import lint_paths_to_findings

    missing = [str(p) for p in paths if not _exists(p)]
    if missing:
        raise AdvisorError(f"--code: no such file or directory: {', '.join(missing)}")
    return lint_paths_to_findings([str(p) for p in paths])


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name the file system refuses (too long, a NUL byte) is as missing
        return False
