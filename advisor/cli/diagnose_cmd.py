"""`gpu-advisor diagnose`: facts, measurements and every rule, in one report (at most ~30 s on a fast GPU)."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.options import (
    BudgetOption,
    DeviceOption,
    FailOn,
    FailOnOption,
    FormatOption,
    MemoryOption,
    NoRedactOption,
    OutputOption,
    RulesDirOption,
    VerboseOption,
)

QuickOption = Annotated[bool, typer.Option("--quick", help="Fewer crossovers and dtypes: about 10 s on a fast GPU.")]


def diagnose(
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    verbose: VerboseOption = False,
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
    from advisor.app.diagnose_service import diagnose as run_diagnosis
    from advisor.cli.output import exit_code_for, write_report

    outcome = run_diagnosis(quick=quick, budget_s=budget, device=device, memory_fraction=memory_fraction,
                              rules_dirs=rules_dir, code=code)
    write_report(outcome.report, fmt=fmt, output=output, redact=not no_redact, verbose=verbose)
    if outcome.failure is not None:
        raise outcome.failure
    raise typer.Exit(exit_code_for(outcome.report, fail_on))


def register(app: typer.Typer) -> None:
    app.command("diagnose")(diagnose)
