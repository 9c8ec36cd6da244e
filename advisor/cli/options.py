"""Options shared by every command that writes a report."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional, get_args

import typer

from advisor.models.levels import Severity


def choice_enum(name: str, literal: Any) -> type[Enum]:
    """A typer choice made from a model's Literal, so a flag offers exactly the values the model accepts."""
    values = get_args(literal)
    return Enum(name, {value: value for value in values}, type=str)  # type: ignore[return-value]


class OutputFormat(str, Enum):
    terminal = "terminal"
    markdown = "markdown"
    json = "json"


#: --fail-on: a severity, or never.
FailOn = Enum("FailOn", {"never": "never", **{level.value: level.value for level in Severity}}, type=str)


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

# Options of the commands that measure.
BudgetOption = Annotated[Optional[float], typer.Option(
    "--budget", min=3.0, help="Wall-time budget in seconds for the whole run (default 30, --quick 10). "
                              "More time buys tighter spreads and more crossovers; less trades precision for time.")]
DeviceOption = Annotated[int, typer.Option("--device", min=0, help="torch index of the GPU to measure.")]
MemoryOption = Annotated[float, typer.Option(
    "--memory-fraction", min=0.01, max=0.9, help="Largest share of the GPU's free memory the measurements may take.")]
