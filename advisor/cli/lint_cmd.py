"""`gpu-advisor lint PATH...`: static checks of PyTorch scripts and notebooks (never imports torch).

Exit codes: 0 nothing at or above --fail-on / --min-confidence, 1 findings that are, 2 bad usage (unknown
check id or format, a path that does not exist, an output file that cannot be written) or nothing could be
checked. A file named on the command line that cannot be linted (binary, undecodable, a malformed notebook) is
an error for that file; files a folder search found and skipped are notes on stderr.
Only typer is imported here at module level: the linter loads when the command runs.
"""

from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.options import FailOn, output_option

#: Earlier versions called the terminal format "text"; scripts that still say so keep working.
_FORMAT_ALIASES = {"text": "terminal"}
#: What -o FILE's extension selects when --format is not given.
LINT_SUFFIXES = {".txt": "terminal", ".json": "json", ".sarif": "sarif", ".md": "markdown"}


def register(app: typer.Typer) -> None:
    app.command("lint")(lint)


def lint(
    paths: Annotated[Optional[list[str]], typer.Argument(
        metavar="PATH...", help="Files or folders; folders are searched for *.py and *.ipynb.",
        show_default=False)] = None,
    output_format: Annotated[Optional[str], typer.Option(
        "--format", "-f", metavar="FORMAT", is_eager=True,
        help="terminal, markdown, json or sarif. Default: from --output's extension, else terminal.")] = None,
    output: Annotated[Optional[str], output_option(LINT_SUFFIXES, "the findings")] = None,
    fail_on: Annotated[FailOn, typer.Option(
        "--fail-on", metavar="SEVERITY", case_sensitive=False,
        help="Exit with code 1 when a finding at or above SEVERITY is reported: never, info, low, medium or "
             "high.")] = FailOn.info,
    min_confidence: Annotated[str, typer.Option(
        "--min-confidence", metavar="LEVEL",
        help="Only findings at least this sure count for --fail-on: heuristic (all), inferred or "
             "measured.")] = "heuristic",
    select: Annotated[Optional[str], typer.Option(
        metavar="IDS", help="Only these checks: comma-separated ids (GA101), id prefixes (GA1) or names.")] = None,
    ignore: Annotated[Optional[str], typer.Option(
        metavar="IDS", help="Skip these checks (same forms as --select).")] = None,
    list_checks: Annotated[bool, typer.Option("--list-checks", help="List the checks and exit.")] = False,
    explain: Annotated[Optional[str], typer.Option(
        "--explain", metavar="CHECK", help="Print one check's page (what, why, example, fix) and exit: GA101 or its name.")] = None,
    report_path: Annotated[Optional[str], typer.Option(
        "--report", metavar="REPORT", help="A gpu-advisor report (diagnose --output) from this machine: messages quote its "
                         "measurements (launch cost, crossover sizes) instead of typical figures.")] = None,
    no_redact: Annotated[bool, typer.Option("--no-redact", help="Keep user names, home paths, host names and "
                                                                "tokens in the output (redacted by default).")] = False,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", metavar="N", min=1, help="Processes to lint a folder with (default: one per core when there "
                                                 "are enough files; 1: this process only).")] = None,
) -> None:
    """Find GPU performance mistakes in PyTorch code, statically: file:line:col, what it costs, the fix."""
    from advisor.cli.errors import EXIT_BAD_INPUT, EXIT_FINDINGS, EXIT_OK
    from advisor.lint import BadReport, MissingPath, UnknownCheck, all_infos, lint_paths, load_machine
    from advisor.lint.discover import output_clash
    from advisor.lint.formats import FORMATS as TEXT_FORMATS
    from advisor.lint.markdown import render_markdown
    from advisor.models.common import Confidence, Severity

    FORMATS = {**TEXT_FORMATS, "markdown": render_markdown}

    def fail(message: str) -> None:
        typer.echo(f"gpu-advisor: error: {message}", err=True)
        raise typer.Exit(EXIT_BAD_INPUT)

    if explain:
        from advisor.lint.formats import render_explanation
        from advisor.lint.registry import find_info
        try:
            typer.echo(render_explanation(find_info(explain)), nl=False)
        except UnknownCheck as unknown:
            fail(str(unknown))
        raise typer.Exit(EXIT_OK)
    if list_checks:
        for info in all_infos():
            typer.echo(f"{info.id}  {info.severity.value:<6}  {info.confidence.value:<9}  {info.name:<26}  {info.title}")
        raise typer.Exit(EXIT_OK)
    if output_format is None:
        output_format = LINT_SUFFIXES[Path(output).suffix.lower()] if output and output != "-" else "terminal"
    output_format = _FORMAT_ALIASES.get(output_format.lower(), output_format.lower())
    if output_format not in FORMATS:
        fail(f"unknown format {output_format!r} (use one of: {', '.join(FORMATS)})")
    try:
        min_rank = _confidence_order().index(Confidence(min_confidence.lower()))
    except ValueError:
        fail(f"--min-confidence {min_confidence!r}: use heuristic, inferred or measured")
    if not paths:
        fail("no paths given (gpu-advisor lint PATH...)")
    if output == "-":
        output = None
    if output and output_clash(output, [*paths, *([report_path] if report_path else [])]):
        fail(f"--output {output} is a file being linted (or the --report); refusing to overwrite it")
    machine = None
    if report_path:
        try:
            machine = load_machine(report_path)
        except BadReport as bad:
            fail(str(bad))
    try:
        run = lint_paths(paths, select=_split(select), ignore=_split(ignore), machine=machine, jobs=jobs)
    except MissingPath as missing:
        fail(f"no such file or directory: {missing}")
    except UnknownCheck as unknown:
        fail(str(unknown))
    report = FORMATS[output_format](run)
    if not no_redact:  # lint output is pasted in public too: home paths, user names, tokens in code
        from advisor.redact import redact_lint_output

        report = redact_lint_output(report)
        run.notes = [type(note)(redact_lint_output(note.path), redact_lint_output(note.reason)) for note in run.notes]
    from advisor.report.safe_text import printable  # file names and code quoted in findings are data

    report = printable(report)
    run.notes = [type(note)(printable(note.path), printable(note.reason)) for note in run.notes]
    if output:
        from advisor.safe_io import write_text_atomic

        try:
            write_text_atomic(output, report)
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror or exc}")
    else:
        typer.echo(report, nl=False)
    named = {Path(p).as_posix() for p in paths if Path(p).is_file()}
    unreadable = [note for note in run.notes if note.path in named and not note.reason.startswith("GA")]
    for note in run.notes:
        if note in unreadable:  # the user named this file: not checking it is an error, not a remark
            reason = note.reason.removeprefix("skipped: ")
            typer.echo(f"gpu-advisor: error: {note.path}: cannot be linted: {reason}", err=True)
        else:
            typer.echo(f"{note.path}: {note.reason}", err=True)
    if run.files_checked == 0 and unreadable:
        raise typer.Exit(EXIT_BAD_INPUT)
    notes = len(run.notes) - len(unreadable)
    typer.echo(f"{_count(len(run.findings), 'finding')} in {_count(run.files_checked, 'file')}, "
               f"{_count(run.lines_checked, 'line')}" + (f"; {_count(notes, 'note')}" if notes else ""), err=True)
    failing = fail_on is not FailOn.never and any(
        f.severity.rank >= Severity(fail_on.value).rank and _confidence_order().index(f.confidence) >= min_rank
        for f in run.findings)
    raise typer.Exit(EXIT_FINDINGS if failing else EXIT_OK)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"




def _confidence_order():
    from advisor.models.common import Confidence

    return [Confidence.heuristic, Confidence.inferred, Confidence.measured]


def _split(value: Optional[str]) -> Optional[list[str]]:
    if not value:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]
