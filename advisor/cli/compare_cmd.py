"""`gpu-advisor compare A B`: two reports side by side (two machines, or before/after an upgrade). No torch.

A and B may each be a JSON report or pasted collect_env / nvidia-smi -q text, so a maintainer can hold a
user's paste against their own report. The rules are run again on both so the findings come from one rule set.
"""

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.errors import EXIT_FINDINGS, EXIT_OK, CliError
from advisor.cli.options import FormatOption, NoRedactOption, OutputFormat, OutputOption, RulesDirOption

FailOnRegressionOption = Annotated[bool, typer.Option(
    "--fail-on-regression",
    help="Exit with code 1 when B is worse than A: a measurement worse by more than --threshold (and its "
         "spread; noisy numbers are shown, not counted), or a finding of medium severity or higher appeared.")]
ThresholdOption = Annotated[float, typer.Option(
    "--threshold", min=0.0,
    help="Relative change that counts as better or worse, 0.10 = 10%.")]


def _re_evaluate(report, rule_set):
    """The report with the rules run again, where it came from ("report" or "text"), and the number of rule
    findings it was saved with (None for text)."""
    from advisor.cli.pipeline import apply_rules
    from advisor.compare import report_origin

    origin = report_origin(report)
    saved = len([f for f in report.findings if f.source == "rules"]) if origin == "report" else None
    # As in `explain`: lint findings come from code, not facts, so they are kept; rule findings are recomputed.
    report = apply_rules(report, rule_set, [f for f in report.findings if f.source == "lint"])
    return report, origin, saved


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
    fail_on_regression: FailOnRegressionOption = False,
    threshold: ThresholdOption = 0.10,
    rules_dir: RulesDirOption = None,
) -> None:
    """Compare two reports: facts that differ, measurements with B/A ratios, findings that appeared or went."""
    from advisor.cli.explain_cmd import load_any_report
    from advisor.cli.pipeline import load_rule_set
    from advisor.compare import compare_reports, describe_side
    from advisor.redact import Redactor, redact_report

    if a_path == "-" and b_path == "-":
        raise CliError("A and B cannot both be read from stdin (-); give at least one as a file")
    from advisor.cli.output import refuse_overwriting_inputs

    refuse_overwriting_inputs(output, [a_path, b_path])
    report_a, report_b = load_any_report(a_path), load_any_report(b_path)
    rule_set = load_rule_set(rules_dir)  # read once, for both sides
    report_a, origin_a, saved_a = _re_evaluate(report_a, rule_set)
    report_b, origin_b, saved_b = _re_evaluate(report_b, rule_set)
    source_a, source_b = ("<stdin>" if path == "-" else path for path in (a_path, b_path))
    if not no_redact:
        # One redactor for both: a value private on both sides gets the same placeholder in each.
        redactor = Redactor()
        report_a = redact_report(report_a, lambda: redactor)
        report_b = redact_report(report_b, lambda: redactor)
        source_a, source_b = redactor.text(source_a), redactor.text(source_b)
    sides = (
        describe_side(report_a, "A", source=source_a, origin=origin_a, re_evaluated=True, saved_findings=saved_a),
        describe_side(report_b, "B", source=source_b, origin=origin_b, re_evaluated=True, saved_findings=saved_b),
    )
    comparison = compare_reports(report_a, report_b, threshold=threshold, sides=sides)
    _write(comparison, fmt, output)
    if fail_on_regression and comparison.regressions:
        print(f"gpu-advisor: {len(comparison.regressions)} regression(s) of B against A "
              f"(threshold {threshold:.0%})", file=sys.stderr)
        raise typer.Exit(EXIT_FINDINGS)
    raise typer.Exit(EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command("compare")(compare)
