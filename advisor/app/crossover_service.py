"""`crossover`: from which size the GPU beats the CPU, per op, dtype and mode; optionally charted."""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from advisor.app.devices import usable_gpu
from advisor.app.errors import EXIT_FAILURE, AdvisorError
from advisor.app.measurements import plan_for, run_measurements
from advisor.app.reports import build_report
from advisor.models.report import Report

DEFAULT_BUDGET_S = 120.0
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def crossover_report(*, ops: Optional[Sequence[str]], dtypes: Optional[Sequence[str]],
                     modes: Optional[Sequence[str]], dense: bool, budget_s: Optional[float], device: int,
                     memory_fraction: float, plot: Optional[Path] = None,
                     tensorboard: Optional[Path] = None) -> Report:
    """Measure the chosen crossovers (default: all that apply) and write the charts asked for."""
    from advisor.app.progress import working
    from advisor.measure.session import ALL_MODES, FULL_CROSSOVERS
    from advisor.measure.timer import Stopwatch
    from advisor.measure.workloads import DTYPES_FOR_OP
    from advisor.probe import collect_facts

    if plot is not None and plot.suffix.lower() not in PLOT_SUFFIXES:
        raise AdvisorError(f"--plot {plot}: use a .png, .svg or .pdf file name")
    watch = Stopwatch()
    pairs = tuple((o, d) for o, d in FULL_CROSSOVERS
                  if (not ops or o in ops) and (not dtypes or d in dtypes) and d in DTYPES_FOR_OP[o])
    if not pairs:
        raise AdvisorError("no crossover matches those --op/--dtype choices (tf32 applies to matmul and conv2d only)")
    with working("probing this machine (importing torch)"):
        facts = collect_facts()
    no_gpu = usable_gpu(facts, device)
    if no_gpu is not None:  # said before measuring anything: the CPU half alone answers nothing here
        raise AdvisorError(f"no usable GPU, so there is no crossover to find: {no_gpu}", EXIT_FAILURE)
    plan = plan_for(budget_s if budget_s is not None else DEFAULT_BUDGET_S, elapsed_s=watch.elapsed())
    plan.memory_fraction = memory_fraction
    plan.crossovers, plan.modes = pairs, tuple(modes) if modes else ALL_MODES
    plan.only_crossovers, plan.dense = True, dense
    measurements, no_gpu = run_measurements(facts, plan, device=device,
                                            asked_budget_s=budget_s if budget_s is not None else DEFAULT_BUDGET_S)
    if no_gpu is not None:
        raise AdvisorError(f"no usable GPU, so there is no crossover to find: {no_gpu}", EXIT_FAILURE)
    report = build_report("crossover", facts, sources=["probe", "measurements"], rules_dirs=None,
                          measurements=measurements)
    report.meta.wall_s = round(watch.elapsed(), 2)
    _charts(report, plot, tensorboard)
    return report


def _charts(report: Report, plot: Optional[Path], tensorboard: Optional[Path]) -> None:
    from advisor.report.plot import MissingExtra, plot_crossovers, write_tensorboard

    try:
        if plot is not None:
            plot_crossovers(report.measurements.crossover, plot)
        if tensorboard is not None:
            write_tensorboard(report.measurements.crossover, tensorboard)
    except MissingExtra as exc:
        raise AdvisorError(str(exc)) from None
