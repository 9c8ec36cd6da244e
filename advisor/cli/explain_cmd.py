"""`gpu-advisor explain INPUT`: re-evaluate the rules offline on a saved report or pasted text. No torch."""

from typing import Annotated

import typer

from advisor.cli.errors import CliError
from advisor.cli.options import FailOn, FailOnOption, FormatOption, NoRedactOption, OutputOption, RulesDirOption

MAX_INPUT_BYTES = 20 * 2**20


def _read_input(path: str) -> tuple[str, str]:
    from advisor.safe_io import InputRefused, read_capped, read_stdin_capped

    source = "<stdin>" if path == "-" else path
    try:
        raw = read_stdin_capped(MAX_INPUT_BYTES) if path == "-" else read_capped(path, MAX_INPUT_BYTES)
    except InputRefused as exc:
        raise CliError(f"{source}: {exc}") from None
    return decode_input(raw, source), source


def decode_input(raw: bytes, source: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Windows PowerShell's `>` writes UTF-16; anything else undecodable is not text.
        if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
            try:
                return raw.decode("utf-16")
            except UnicodeDecodeError:
                pass
        raise CliError(f"{source}: not a text file (expected a JSON report, collect_env or nvidia-smi -q output)") from None


def load_any_report(path: str):
    """A Report from a gpu-advisor JSON report, collect_env text, nvidia-smi -q text, or both texts together."""
    from advisor.models.load import ReportLoadError, load_report_json, looks_like_json

    text, source = _read_input(path)
    if not text.strip():
        raise CliError(f"{source}: empty input (expected a JSON report, collect_env or nvidia-smi -q output)")
    if looks_like_json(text):
        try:
            return load_report_json(text, source)
        except ReportLoadError as exc:
            raise CliError(str(exc)) from None
    from advisor.cli.pipeline import new_meta
    from advisor.ingest import facts_from_text
    from advisor.ingest.errors import UnrecognisedInput
    from advisor.models.report import Report

    try:
        facts, kinds = facts_from_text(text, source)
    except UnrecognisedInput as exc:
        raise CliError(f"{source}: {exc}") from None
    return Report(meta=new_meta("explain", [f"{kind} ({source})" for kind in kinds]), facts=facts)


def explain(
    input_path: Annotated[str, typer.Argument(
        metavar="INPUT", help="A gpu-advisor JSON report, `python -m torch.utils.collect_env` output, "
                              "`nvidia-smi -q` output (or both in one file), or - for stdin.")],
    fmt: FormatOption = None,
    output: OutputOption = None,
    no_redact: NoRedactOption = False,
    fail_on: FailOnOption = FailOn.never,
    rules_dir: RulesDirOption = None,
) -> None:
    """Re-evaluate the rules on a saved report or pasted text, offline: no GPU and no torch needed."""
    from advisor.cli.output import exit_code_for, refuse_overwriting_inputs, write_report
    from advisor.cli.pipeline import evaluate

    refuse_overwriting_inputs(output, [input_path])
    report = load_any_report(input_path)
    # Lint findings come from code, not from facts: keep them; rule findings are recomputed.
    kept = [f for f in report.findings if f.source == "lint"]
    report = evaluate(report, rules_dir, kept)
    report.meta.command = f"explain ({report.meta.command})" if report.meta.command != "explain" else "explain"
    write_report(report, fmt=fmt, output=output, redact=not no_redact)
    raise typer.Exit(exit_code_for(report, fail_on))


def register(app: typer.Typer) -> None:
    app.command("explain")(explain)
