"""`gpu-advisor explain INPUT`: re-evaluate the rules offline on a saved report or pasted text. No torch."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from advisor.cli.errors import CliError
from advisor.cli.options import FailOn, FailOnOption, FormatOption, NoRedactOption, OutputOption, RulesDirOption

MAX_INPUT_BYTES = 20 * 2**20


def _read_input(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    file = Path(path)
    try:
        if file.stat().st_size > MAX_INPUT_BYTES:
            raise CliError(f"{path}: larger than {MAX_INPUT_BYTES // 2**20} MiB; not a report")
        raw = file.read_bytes()
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a directory, expected a report file") from None
    except OSError as exc:
        raise CliError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        return raw.decode("utf-8-sig"), path
    except UnicodeDecodeError:
        # Windows PowerShell's `>` writes UTF-16; anything else undecodable is not text.
        if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return raw.decode("utf-16"), path
        raise CliError(f"{path}: not a text file (expected a JSON report, collect_env or nvidia-smi -q output)") from None


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
    from advisor.cli.output import exit_code_for, write_report
    from advisor.cli.pipeline import evaluate

    report = load_any_report(input_path)
    # Lint findings come from code, not from facts: keep them; rule findings are recomputed.
    kept = [f for f in report.findings if f.source == "lint"]
    report = evaluate(report, rules_dir, kept)
    report.meta.command = f"explain ({report.meta.command})" if report.meta.command != "explain" else "explain"
    write_report(report, fmt=fmt, output=output, redact=not no_redact)
    raise typer.Exit(exit_code_for(report, fail_on))


def register(app: typer.Typer) -> None:
    app.command("explain")(explain)
