"""Writing a report: pick the format, redact, render, and turn findings into an exit code."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

from advisor.cli.errors import EXIT_FINDINGS, EXIT_OK, CliError
from advisor.cli.options import FailOn, OutputFormat
from advisor.models.common import Severity
from advisor.models.report import Report


def choose_format(requested: Optional[OutputFormat], output: Optional[Path]) -> OutputFormat:
    if requested is not None:
        return requested
    if output is not None:
        suffix = output.suffix.lower()
        if suffix == ".json":
            return OutputFormat.json
        if suffix in (".md", ".markdown"):
            return OutputFormat.markdown
        return OutputFormat.terminal
    return OutputFormat.terminal if sys.stdout.isatty() else OutputFormat.markdown


def write_report(report: Report, *, fmt: Optional[OutputFormat], output: Optional[Path], redact: bool) -> None:
    from advisor.redact import redact_report

    if redact:
        report = redact_report(report)
    chosen = choose_format(fmt, output)
    try:
        if chosen is OutputFormat.terminal:
            from rich.console import Console

            from advisor.report.terminal import render_terminal

            if output is None:
                render_terminal(report, Console())
            else:
                with output.open("w", encoding="utf-8") as handle:
                    render_terminal(report, Console(file=handle, width=110, no_color=True, force_terminal=False))
            return
        if chosen is OutputFormat.json:
            from advisor.report.json_report import render_json

            text = render_json(report)
        else:
            from advisor.report.markdown import render_markdown

            text = render_markdown(report)
        if output is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None


def exit_code_for(report: Report, fail_on: FailOn) -> int:
    if fail_on is FailOn.never:
        return EXIT_OK
    threshold = Severity(fail_on.value).rank
    return EXIT_FINDINGS if any(f.severity.rank >= threshold for f in report.findings) else EXIT_OK
