"""Writing a report: pick the format, redact, render, and turn findings into an exit code."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Optional

from advisor.cli.errors import EXIT_FINDINGS, EXIT_OK, CliError
from advisor.cli.options import FailOn, OutputFormat
from advisor.models.common import Severity
from advisor.models.report import Report


def choose_format(requested: Optional[OutputFormat], output: Optional[Path]) -> OutputFormat:
    if requested is not None:
        return requested
    if output is not None and str(output) != "-":
        suffix = output.suffix.lower()
        if suffix == ".json":
            return OutputFormat.json
        if suffix in (".md", ".markdown"):
            return OutputFormat.markdown
        return OutputFormat.terminal
    return OutputFormat.terminal if sys.stdout.isatty() else OutputFormat.markdown


def emit(fmt: Optional[OutputFormat], output: Optional[Path], *, terminal: Callable[[Any], None],
         markdown: Callable[[], str], json: Callable[[], str]) -> None:
    """Write one document in the chosen format to stdout or ``output``; the renderers are called lazily.

    ``terminal`` draws on a rich Console (colour on a TTY, plain text in a file); ``markdown`` and ``json``
    return text, which never passes through rich's wrapping.
    """
    from advisor.safe_io import is_stdout, write_atomic

    if is_stdout(output):  # `-o -`: standard output, in the format asked for (or the usual default)
        output = None
    chosen = choose_format(fmt, output)
    try:
        if chosen is OutputFormat.terminal:
            from rich.console import Console

            if output is None:
                terminal(Console(markup=False, emoji=False))
            else:
                write_atomic(output, lambda handle: terminal(Console(
                    file=handle, width=110, no_color=True, force_terminal=False, markup=False, emoji=False)))
            return
        text = json() if chosen is OutputFormat.json else markdown()
        if output is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            write_atomic(output, lambda handle: handle.write(text))
    except OSError as exc:
        raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None


def refuse_overwriting_inputs(output: Optional[Path], inputs: list[str]) -> None:
    """Exit 2 before any work when ``-o`` names one of the command's input files."""
    from advisor.safe_io import is_stdout, output_clashes

    if output is None or is_stdout(output):
        return
    clash = output_clashes(output, inputs)
    if clash is not None:
        raise CliError(f"--output {output} is the input file {clash}; refusing to overwrite it")


def prepare_renderer(fmt: Optional[OutputFormat], output: Optional[Path]) -> None:
    """Import the renderer ``write_report`` will use, and the redactor (their modules compile dozens of
    patterns). For work done ahead, while something slower runs: see env_cmd."""
    import advisor.redact  # noqa: F401

    chosen = choose_format(fmt, output)
    if chosen is OutputFormat.terminal:
        import rich.console  # noqa: F401

        import advisor.report.terminal  # noqa: F401
    elif chosen is OutputFormat.markdown:
        import advisor.report.markdown  # noqa: F401
    else:
        import advisor.report.json_report  # noqa: F401


def write_report(report: Report, *, fmt: Optional[OutputFormat], output: Optional[Path], redact: bool,
                 verbose: bool = False) -> None:
    from advisor.redact import redact_report

    if redact:
        report = redact_report(report)

    def terminal(console: Any) -> None:
        from advisor.report.terminal import render_terminal

        render_terminal(report, console, verbose=verbose)

    def markdown() -> str:
        from advisor.report.markdown import render_markdown

        return render_markdown(report, verbose=verbose)

    def json() -> str:
        from advisor.report.json_report import render_json

        return render_json(report)

    emit(fmt, output, terminal=terminal, markdown=markdown, json=json)


def exit_code_for(report: Report, fail_on: FailOn) -> int:
    if fail_on is FailOn.never:
        return EXIT_OK
    threshold = Severity(fail_on.value).rank
    return EXIT_FINDINGS if any(f.severity.rank >= threshold for f in report.findings) else EXIT_OK
