"""`gpu-advisor diagnose`: facts, measurements and every rule, in one report (at most ~30 s on a fast GPU)."""

import contextlib
from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.errors import EXIT_FAILURE, CliError
from advisor.cli.options import FailOn, FailOnOption, FormatOption, NoRedactOption, OutputOption, RulesDirOption

DEFAULT_BUDGET_S = 30.0
QUICK_BUDGET_S = 10.0
#: Kept back from the budget for rules, redaction, rendering and releasing CUDA after the measurements.
REPORT_RESERVE_S = 1.0

BudgetOption = Annotated[Optional[float], typer.Option(
    "--budget", min=3.0, help="Wall-time budget in seconds for the whole run (default 30, --quick 10). "
                              "More time buys tighter spreads and more crossovers; less trades precision for time.")]
QuickOption = Annotated[bool, typer.Option("--quick", help="Fewer crossovers and dtypes: about 10 s on a fast GPU.")]
DeviceOption = Annotated[int, typer.Option("--device", min=0, help="torch index of the GPU to measure.")]
MemoryOption = Annotated[float, typer.Option(
    "--memory-fraction", min=0.01, max=0.9, help="Largest share of the GPU's free memory the measurements may take.")]


def run_measurements(facts, *, quick: bool, budget_s: float, device: int, memory_fraction: float, elapsed_s: float,
                     crossovers=None, modes=None, only_crossovers: bool = False, dense: bool = False):
    """Measure this machine within what is left of the budget; CPU figures only when there is no usable GPU."""
    from advisor.cli.measure_setup import device_info, gpu_unusable_reason, progress_bar
    from advisor.measure.session import MeasurementSession, MeasurePlan
    from advisor.probe.nvml import nvml_session

    left = max(1.0, budget_s - elapsed_s - REPORT_RESERVE_S)
    # A bigger budget buys tighter spreads, a smaller one trades precision for time.
    precision = min(4.0, max(0.3, budget_s / (QUICK_BUDGET_S if quick else DEFAULT_BUDGET_S)))
    plan = MeasurePlan.quick(left) if quick else MeasurePlan(budget_s=left)
    plan.precision *= precision
    plan.crossover.timer = plan.crossover.timer.scaled(precision)
    plan.memory_fraction = memory_fraction
    if crossovers is not None:
        plan.crossovers = crossovers
    if modes is not None:
        plan.modes = modes
    plan.only_crossovers, plan.dense = only_crossovers, dense
    reason = gpu_unusable_reason(facts)
    count = facts.torch.device_count
    if reason is None and isinstance(count, int) and device >= count:
        raise CliError(f"--device {device}: torch sees {count} GPU(s) (0..{count - 1})")
    info = device_info(facts, device) if reason is None else None
    with progress_bar("measuring") as progress:
        session = MeasurementSession(plan, info, progress)  # type: ignore[arg-type]
        if reason is not None:
            return session.run_cpu_only(reason), reason
        with nvml_session() if info.read_state else contextlib.nullcontext():
            return session.run(), None


def diagnose(
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    fail_on: FailOnOption = FailOn.never,
    rules_dir: RulesDirOption = None,
    quick: QuickOption = False,
    budget: BudgetOption = None,
    device: DeviceOption = 0,
    memory_fraction: MemoryOption = 0.25,
    code: Annotated[Optional[list[Path]], typer.Option(
        "--code", help="Also lint these Python files/notebooks/directories and put the findings in the report.")] = None,
) -> None:
    """Probe, measure (crossover sizes, bandwidth, overheads, peaks) and explain, with the numbers behind it."""
    from advisor.cli.output import exit_code_for, write_report
    from advisor.cli.pipeline import build_report
    from advisor import PROCESS_START
    from advisor.measure.timer import Stopwatch
    from advisor.probe import collect_facts

    watch = Stopwatch(since=PROCESS_START)
    lint_findings, lint_notes = _lint(code) if code else ([], [])
    facts = collect_facts()
    budget_s = budget if budget is not None else (QUICK_BUDGET_S if quick else DEFAULT_BUDGET_S)
    measurements, no_gpu = run_measurements(facts, quick=quick, budget_s=budget_s, device=device,
                                            memory_fraction=memory_fraction, elapsed_s=watch.elapsed())
    measurements.run.notes.extend(lint_notes)
    report = build_report("diagnose --quick" if quick else "diagnose", facts, sources=["probe", "measurements"],
                          rules_dirs=rules_dir, measurements=measurements, extra_findings=lint_findings)
    report.meta.wall_s = round(watch.elapsed(), 2)
    write_report(report, fmt=fmt, output=output, redact=not no_redact)
    if no_gpu is None and not _any_gpu_measurement(measurements):
        raise CliError("a GPU is present but every GPU measurement failed; the report lists why", EXIT_FAILURE)
    raise typer.Exit(exit_code_for(report, fail_on))


def _any_gpu_measurement(measurements) -> bool:
    """Whether at least one GPU number was measured (interrupting the run before any is not a failure)."""
    if measurements.run.interrupted:
        return True
    return bool(any(c.status == "ok" for c in measurements.crossover)
                or any(isinstance(v, float) for v in measurements.peaks.matmul_tflops.values()))


def _is_file(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name the file system refuses is as missing as an absent one
        return False


def _lint(paths: list[Path]):
    from advisor.lint.bridge import lint_paths_to_findings

    from advisor.safe_io import is_dir

    missing = [str(p) for p in paths if not (is_dir(p) or _is_file(p))]
    if missing:
        raise CliError(f"--code: no such file or directory: {', '.join(missing)}")
    return lint_paths_to_findings([str(p) for p in paths])


def register(app: typer.Typer) -> None:
    app.command("diagnose")(diagnose)
