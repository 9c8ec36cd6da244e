"""`gpu-advisor crossover`: from which size the GPU beats the CPU, per op, dtype and mode, with charts."""

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.diagnose_cmd import BudgetOption, DeviceOption, MemoryOption
from advisor.cli.errors import EXIT_FAILURE, CliError
from advisor.cli.options import FormatOption, NoRedactOption, OutputOption


class OpChoice(str, Enum):
    matmul = "matmul"
    add = "add"
    conv2d = "conv2d"
    sum = "sum"


class DTypeChoice(str, Enum):
    float32 = "float32"
    tf32 = "tf32"
    float16 = "float16"
    bfloat16 = "bfloat16"
    float64 = "float64"


class ModeChoice(str, Enum):
    resident = "resident"
    sync = "sync"
    transfer_pinned = "transfer_pinned"
    transfer_pageable = "transfer_pageable"


def crossover(
    op: Annotated[Optional[list[OpChoice]], typer.Option("--op", help="Repeatable. Default: all four.")] = None,
    dtype: Annotated[Optional[list[DTypeChoice]], typer.Option("--dtype", help="Repeatable. Default: all that apply.")] = None,
    mode: Annotated[Optional[list[ModeChoice]], typer.Option("--mode", help="Repeatable. Default: all four.")] = None,
    dense: Annotated[bool, typer.Option("--dense", help="Measure every grid point instead of searching (slow; "
                                                         "the reference the search is checked against).")] = False,
    plot: Annotated[Optional[Path], typer.Option("--plot", help="Write the charts to FILE (.png or .svg; needs matplotlib).")] = None,
    tensorboard: Annotated[Optional[Path], typer.Option("--tensorboard", help="Write the curves as TensorBoard scalars to DIR.")] = None,
    budget: BudgetOption = None,
    device: DeviceOption = 0,
    memory_fraction: MemoryOption = 0.25,
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
) -> None:
    """Find the smallest size from which the GPU is faster than the CPU, and stays faster for every larger size tried."""
    from advisor.cli.diagnose_cmd import run_measurements
    from advisor.cli.output import write_report
    from advisor.cli.pipeline import build_report
    from advisor.measure.session import ALL_MODES, FULL_CROSSOVERS
    from advisor.measure.timer import Stopwatch
    from advisor.measure.workloads import DTYPES_FOR_OP
    from advisor.probe import collect_facts
    from advisor.report.plot import MissingExtra, plot_crossovers, write_tensorboard

    if plot is not None and plot.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise CliError(f"--plot {plot}: use a .png, .svg or .pdf file name")
    watch = Stopwatch()
    ops = [o.value for o in op] if op else None
    dtypes = [d.value for d in dtype] if dtype else None
    pairs = tuple((o, d) for o, d in FULL_CROSSOVERS
                  if (ops is None or o in ops) and (dtypes is None or d in dtypes) and d in DTYPES_FOR_OP[o])
    if not pairs:
        raise CliError("no crossover matches those --op/--dtype choices (tf32 applies to matmul and conv2d only)")
    modes = tuple(m.value for m in mode) if mode else ALL_MODES
    facts = collect_facts()
    budget_s = budget if budget is not None else 120.0
    measurements, no_gpu = run_measurements(facts, quick=False, budget_s=budget_s, device=device,
                                            memory_fraction=memory_fraction, elapsed_s=watch.elapsed(),
                                            crossovers=pairs, modes=modes, only_crossovers=True, dense=dense)
    if no_gpu is not None:
        raise CliError(f"no usable GPU, so there is no crossover to find: {no_gpu}", EXIT_FAILURE)
    report = build_report("crossover", facts, sources=["probe", "measurements"], rules_dirs=None,
                          measurements=measurements)
    report.meta.wall_s = round(watch.elapsed(), 2)
    try:
        if plot is not None:
            plot_crossovers(measurements.crossover, plot)
        if tensorboard is not None:
            write_tensorboard(measurements.crossover, tensorboard)
    except MissingExtra as exc:
        raise CliError(str(exc)) from None
    write_report(report, fmt=fmt, output=output, redact=not no_redact)


def register(app: typer.Typer) -> None:
    app.command("crossover")(crossover)
