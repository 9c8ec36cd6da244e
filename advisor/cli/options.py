"""Options shared by every command that writes a report."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional, get_args

import typer

from advisor.app.errors import AdvisorError
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


#: What ``-o FILE``'s extension selects, for a command that writes a report. Anything else is refused before the
#: command does any work, unless ``--format`` says which format to write.
REPORT_SUFFIXES = {".json": "json", ".md": "markdown", ".txt": "terminal", ".markdown": "markdown"}


def _fail(option: str, value: Any, problem: str) -> AdvisorError:
    return AdvisorError(f"{option} {value}: {problem}")


def check_output_path(ctx: typer.Context, output: Optional[Path], suffixes: dict[str, str],
                      format_params: tuple[str, ...] = ("fmt", "output_format")) -> Optional[Path]:
    """``-o FILE`` checked when the command line is parsed, before any probe or measurement: its folder exists, it
    is not a folder, and its extension names a format (or ``--format`` does). ``-`` is standard output."""
    if output is None or str(output) == "-":
        return output
    from advisor.safe_io import is_dir

    path = Path(output)
    if is_dir(path):
        raise _fail("--output", output, "is a directory; give a file name")
    folder = path.parent
    if not is_dir(folder):  # also a name the file system refuses (too long): bad input, not an OSError
        raise _fail("--output", output, f"no such directory {str(folder)!r} (create it first)")
    format_given = any(ctx.params.get(name) is not None for name in format_params)
    if not format_given and path.suffix.lower() not in suffixes:
        known = ", ".join(sorted(set(suffixes)))
        raise _fail("--output", output, f"cannot tell the format from the extension {path.suffix or '(none)'!r}; "
                                        f"use {known}, or give --format")
    return output


def check_new_file(value: Optional[Path]) -> Optional[Path]:
    """A file or folder the command will create (``--plot``, ``--tensorboard``): its parent folder must exist."""
    if value is not None and not Path(value).parent.is_dir():
        raise AdvisorError(f"{value}: no such directory {str(Path(value).parent)!r} (create it first)")
    return value


def output_option(suffixes: dict[str, str], what: str = "the report") -> Any:
    """The ``--output/-o FILE`` option of a command whose formats are ``suffixes`` (extension -> format)."""
    listed = ", ".join(suffixes)
    help_text = f"Write {what} to FILE instead of stdout; its extension picks the format ("

    def check(ctx: typer.Context, value: Optional[Path]) -> Optional[Path]:
        return check_output_path(ctx, value, suffixes)

    return typer.Option("--output", "-o", metavar="FILE", help=f"{help_text}{listed}).", callback=check)


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name the file system refuses is as missing as an absent one
        return False


def _check_rules_dirs(dirs: Optional[list[Path]]) -> Optional[list[Path]]:
    from advisor.safe_io import is_dir

    for folder in dirs or ():
        if not is_dir(folder) and not _exists(folder):
            raise _fail("--rules-dir", folder, "no such directory")
        if not is_dir(folder):
            raise _fail("--rules-dir", folder, "not a directory (give the folder that holds the rule files)")
    return dirs


FormatOption = Annotated[Optional[OutputFormat], typer.Option(
    "--format", "-f", metavar="FORMAT", case_sensitive=False, is_eager=True,
    help="terminal, markdown or json. Default: from --output's extension, else terminal on a TTY and "
         "Markdown when piped.")]
OutputOption = Annotated[Optional[Path], output_option(REPORT_SUFFIXES)]
NoRedactOption = Annotated[bool, typer.Option(
    "--no-redact", help="Keep user/host names, home paths, IPs, serials, UUIDs and tokens in the report.")]
FailOnOption = Annotated[FailOn, typer.Option(
    "--fail-on", metavar="SEVERITY", case_sensitive=False,
    help="Exit with code 1 when a finding at or above SEVERITY is present: never, info, low, medium or high "
         "(for CI scripts).")]
VerboseOption = Annotated[bool, typer.Option(
    "--verbose", "-v", help="Also list the rules that could not be evaluated, and why (the JSON report always does).")]
RulesDirOption = Annotated[Optional[list[Path]], typer.Option(
    "--rules-dir", metavar="DIR", callback=_check_rules_dirs,
    help="Add the rules in DIR (YAML, same format as the built-in ones). Repeatable.")]

# Options of the commands that measure.
def budget_option(default: str) -> Any:
    return typer.Option("--budget", min=3.0, metavar="SECONDS", help=(
        f"Wall-time budget for the whole run ({default}). More time buys tighter spreads and more crossovers; "
        "less trades precision for time."))


BudgetOption = Annotated[Optional[float], budget_option("default 30 s, --quick 10 s")]
DeviceOption = Annotated[int, typer.Option("--device", min=0, metavar="N", help="torch index of the GPU to measure.")]
MemoryOption = Annotated[float, typer.Option(
    "--memory-fraction", min=0.01, max=0.9, metavar="F", help="Largest share of the GPU's free memory the measurements may take.")]
