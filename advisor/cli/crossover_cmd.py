"""`gpu-advisor crossover`: from which size the GPU beats the CPU, per op, dtype and mode, with charts."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.options import (
    DeviceOption,
    FailOn,
    FailOnOption,
    FormatOption,
    MemoryOption,
    NoRedactOption,
    OutputOption,
    VerboseOption,
    budget_option,
    check_new_file,
    choice_enum,
)
from advisor.models.measurements import CrossoverMode, DType, Op

OpChoice = choice_enum("OpChoice", Op)
DTypeChoice = choice_enum("DTypeChoice", DType)
CrossoverModeChoice = choice_enum("CrossoverModeChoice", CrossoverMode)


def crossover(
    op: Annotated[Optional[list[OpChoice]], typer.Option(
        "--op", metavar="OP", case_sensitive=False,
        help=f"{', '.join(o.value for o in OpChoice)}. Repeatable. Default: all of them.")] = None,
    dtype: Annotated[Optional[list[DTypeChoice]], typer.Option(
        "--dtype", metavar="DTYPE", case_sensitive=False,
        help=f"{', '.join(d.value for d in DTypeChoice)}. Repeatable. Default: all that apply to the op.")] = None,
    mode: Annotated[Optional[list[CrossoverModeChoice]], typer.Option(
        "--mode", metavar="MODE", case_sensitive=False,
        help=f"{', '.join(m.value for m in CrossoverModeChoice)}. Repeatable. Default: all of them.")] = None,
    dense: Annotated[bool, typer.Option("--dense", help="Measure every grid point instead of searching (slow; "
                                                         "the reference the search is checked against).")] = False,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", metavar="FILE", callback=check_new_file,
        help="Write the charts to FILE (.png, .svg or .pdf; needs matplotlib).")] = None,
    tensorboard: Annotated[Optional[Path], typer.Option(
        "--tensorboard", metavar="DIR", callback=check_new_file,
        help="Write the curves as TensorBoard scalars to DIR.")] = None,
    budget: Annotated[Optional[float], budget_option("default 120 s")] = None,
    device: DeviceOption = 0,
    memory_fraction: MemoryOption = 0.25,
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    verbose: VerboseOption = False,
    fail_on: FailOnOption = FailOn.never,
) -> None:
    """Find the smallest size from which the GPU is faster than the CPU, and stays faster for every larger size tried."""
    from advisor.app.crossover_service import crossover_report
    from advisor.cli.output import exit_code_for, write_report

    report = crossover_report(ops=[o.value for o in op] if op else None,
                              dtypes=[d.value for d in dtype] if dtype else None,
                              modes=[m.value for m in mode] if mode else None, dense=dense, budget_s=budget,
                              device=device, memory_fraction=memory_fraction, plot=plot, tensorboard=tensorboard)
    write_report(report, fmt=fmt, output=output, redact=not no_redact, verbose=verbose)
    raise typer.Exit(exit_code_for(report, fail_on))


def register(app: typer.Typer) -> None:
    app.command("crossover")(crossover)
