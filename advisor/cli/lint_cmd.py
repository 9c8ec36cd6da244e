"""`gpu-advisor lint PATH...`: static checks of PyTorch scripts and notebooks (never imports torch).

Exit codes: 0 nothing found, 1 findings, 2 bad usage (unknown check id or format, a path that does not
exist, an output file that cannot be written). Skipped files are notes on stderr, not failures.
Only typer is imported here at module level: the linter loads when the command runs.
"""

from typing import Annotated, Optional

import typer

#: Earlier versions called the terminal format "text"; scripts that still say so keep working.
_FORMAT_ALIASES = {"text": "terminal"}


def register(app: typer.Typer) -> None:
    app.command("lint")(lint)


def lint(
    paths: Annotated[Optional[list[str]], typer.Argument(
        help="Files or folders; folders are searched for *.py and *.ipynb.", show_default=False)] = None,
    output_format: Annotated[str, typer.Option("--format", "-f", help="terminal, json or sarif.")] = "terminal",
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Write the report here, not stdout "
                                                                        "(- for stdout).")] = None,
    select: Annotated[Optional[str], typer.Option(help="Only these checks: comma-separated ids (GA101), id "
                                                       "prefixes (GA1) or names.")] = None,
    ignore: Annotated[Optional[str], typer.Option(help="Skip these checks (same forms as --select).")] = None,
    list_checks: Annotated[bool, typer.Option("--list-checks", help="List the checks and exit.")] = False,
    explain: Annotated[Optional[str], typer.Option(
        "--explain", help="Print one check's page (what, why, example, fix) and exit: GA101 or its name.")] = None,
    report_path: Annotated[Optional[str], typer.Option(
        "--report", help="A gpu-advisor report (diagnose --output) from this machine: messages quote its "
                         "measurements (launch cost, crossover sizes) instead of typical figures.")] = None,
    no_redact: Annotated[bool, typer.Option("--no-redact", help="Keep user names, home paths, host names and "
                                                                "tokens in the output (redacted by default).")] = False,
) -> None:
    """Find GPU performance mistakes in PyTorch code, statically: file:line:col, what it costs, the fix."""
    from advisor.cli.errors import EXIT_BAD_INPUT, EXIT_FINDINGS, EXIT_OK
    from advisor.lint import BadReport, MissingPath, UnknownCheck, all_infos, lint_paths, load_machine
    from advisor.lint.discover import output_clash
    from advisor.lint.formats import FORMATS

    def fail(message: str) -> None:
        typer.echo(f"gpu-advisor lint: error: {message}", err=True)
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
    output_format = _FORMAT_ALIASES.get(output_format, output_format)
    if output_format not in FORMATS:
        fail(f"unknown format {output_format!r} (use one of: {', '.join(FORMATS)})")
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
        run = lint_paths(paths, select=_split(select), ignore=_split(ignore), machine=machine)
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
    for note in run.notes:
        typer.echo(f"{note.path}: {note.reason}", err=True)
    typer.echo(f"{len(run.findings)} finding(s) in {run.files_checked} file(s), {run.lines_checked} lines"
               + (f"; {len(run.notes)} note(s)" if run.notes else ""), err=True)
    raise typer.Exit(EXIT_FINDINGS if run.findings else EXIT_OK)


def _split(value: Optional[str]) -> Optional[list[str]]:
    if not value:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]
