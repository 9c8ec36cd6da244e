"""`gpu-advisor compare A B`: two reports side by side (two machines, or before/after an upgrade). No torch.

A and B may each be a JSON report or pasted collect_env / nvidia-smi -q text, so a maintainer can hold a
user's paste against their own report. The rules are run again on both so the findings come from one rule set.
"""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.errors import EXIT_FINDINGS, EXIT_OK
from advisor.cli.options import FailOn, FormatOption, NoRedactOption, OutputFormat, OutputOption, RulesDirOption

FailOnOption = Annotated[FailOn, typer.Option(
    "--fail-on", metavar="SEVERITY", case_sensitive=False,
    help="Exit with code 1 when B regressed against A: a finding at or above SEVERITY (info, low, medium, high) "
         "appeared or rose to it, or a measurement got worse by more than --threshold and its spread (noisy "
         "numbers are shown, not counted). Default: never.")]
#: The flag of earlier versions, kept for scripts: the same as --fail-on medium.
FailOnRegressionOption = Annotated[bool, typer.Option("--fail-on-regression", hidden=True)]
ThresholdOption = Annotated[float, typer.Option(
    "--threshold", min=0.0, metavar="F",
    help="Relative change that counts as better or worse, 0.10 = 10%.")]


def _write(comparison, fmt: Optional[OutputFormat], output: Optional[Path]) -> None:
    from advisor.cli.output import emit

    def terminal(console) -> None:
        from advisor.report.compare_terminal import render_compare_terminal

        render_compare_terminal(comparison, console)

    def markdown() -> str:
        from advisor.report.compare_markdown import render_compare_markdown

        return render_compare_markdown(comparison)

    emit(fmt, output, terminal=terminal, markdown=markdown, json=lambda: comparison.model_dump_json(indent=2) + "\n")


def compare(
    a_path: Annotated[str, typer.Argument(
        metavar="A", help="The baseline (before, or the reference machine): a gpu-advisor JSON report, "
                          "collect_env or nvidia-smi -q output, or - for stdin.")],
    b_path: Annotated[str, typer.Argument(
        metavar="B", help="The one judged against A (after, or the other machine); same kinds of input.")],
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    fail_on: FailOnOption = FailOn.never,
    threshold: ThresholdOption = 0.10,
    rules_dir: RulesDirOption = None,
    fail_on_regression: FailOnRegressionOption = False,
) -> None:
    """Compare two reports: facts that differ, measurements with B/A ratios, findings that appeared or went."""
    from advisor.app.compare_service import compare_inputs
    from advisor.cli.output import refuse_overwriting_inputs

    refuse_overwriting_inputs(output, [a_path, b_path])
    from advisor.models.common import Severity

    if fail_on_regression and fail_on is FailOn.never:
        fail_on = FailOn.medium
    severity = Severity.medium if fail_on is FailOn.never else Severity(fail_on.value)
    comparison = compare_inputs(a_path, b_path, threshold=threshold, rules_dirs=rules_dir, redact=not no_redact,
                                regression_severity=severity)
    _write(comparison, fmt, output)
    if fail_on is not FailOn.never and comparison.regressions:
        count = len(comparison.regressions)
        print(f"gpu-advisor: {count} regression{'' if count == 1 else 's'} of B against A "
              f"(threshold {threshold:.0%}, findings from {severity.value})", file=sys.stderr)
        raise typer.Exit(EXIT_FINDINGS)
    raise typer.Exit(EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command("compare")(compare)
