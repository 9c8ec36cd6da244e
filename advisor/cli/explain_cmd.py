"""`gpu-advisor explain INPUT`: re-evaluate the rules offline on a saved report or pasted text. No torch."""

from typing import Annotated

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


def explain(
    input_path: Annotated[str, typer.Argument(
        metavar="INPUT", help="A gpu-advisor JSON report, `python -m torch.utils.collect_env` output, "
                              "`nvidia-smi -q` output (or both in one file), or - for stdin.")],
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    verbose: VerboseOption = False,
    fail_on: FailOnOption = FailOn.never,
    rules_dir: RulesDirOption = None,
) -> None:
    """Re-evaluate the rules on a saved report or pasted text, offline: no GPU and no torch needed."""
    from advisor.app.explain_service import explain_input
    from advisor.cli.output import exit_code_for, refuse_overwriting_inputs, write_report

    refuse_overwriting_inputs(output, [input_path])
    report = explain_input(input_path, rules_dir)
    write_report(report, fmt=fmt, output=output, redact=not no_redact, verbose=verbose)
    raise typer.Exit(exit_code_for(report, fail_on))


def register(app: typer.Typer) -> None:
    app.command("explain")(explain)
