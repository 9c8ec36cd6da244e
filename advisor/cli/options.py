"""Options shared by every command that writes a report."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer


class OutputFormat(str, Enum):
    terminal = "terminal"
    markdown = "markdown"
    json = "json"


class FailOn(str, Enum):
    never = "never"
    info = "info"
    low = "low"
    medium = "medium"
    high = "high"


FormatOption = Annotated[Optional[OutputFormat], typer.Option(
    "--format", "-f",
    help="terminal, markdown or json. Default: terminal on a TTY, Markdown when piped, "
         "or from --output's extension (.json, .md).")]
OutputOption = Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the report to FILE instead of stdout (- for stdout).")]
NoRedactOption = Annotated[bool, typer.Option(
    "--no-redact", help="Keep user/host names, home paths, IPs, serials, UUIDs and tokens in the report.")]
FailOnOption = Annotated[FailOn, typer.Option(
    "--fail-on", help="Exit with code 1 when a finding at or above this severity is present (for CI scripts).")]
RulesDirOption = Annotated[Optional[list[Path]], typer.Option(
    "--rules-dir", help="Add the rules in DIR (YAML, same format as the built-in ones). Repeatable.")]
