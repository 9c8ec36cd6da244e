"""`gpu-advisor env`: facts and compatibility verdicts, no measurement, fast."""

import typer

from advisor.cli.options import (
    FailOn,
    FailOnOption,
    FormatOption,
    NoRedactOption,
    OutputOption,
    RulesDirOption,
    VerboseOption,
)


def env(
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    verbose: VerboseOption = False,
    fail_on: FailOnOption = FailOn.never,
    rules_dir: RulesDirOption = None,
) -> None:
    """Probe this machine (OS, CPU, torch build, driver, every GPU) and check driver/CUDA/torch/GPU compatibility."""
    from advisor.app.env_service import env_report
    from advisor.cli.output import exit_code_for, prepare_renderer, write_report

    report = env_report(rules_dir, meanwhile=lambda: prepare_renderer(fmt, output))
    write_report(report, fmt=fmt, output=output, redact=not no_redact, verbose=verbose)
    raise typer.Exit(exit_code_for(report, fail_on))


def register(app: typer.Typer) -> None:
    app.command("env")(env)
