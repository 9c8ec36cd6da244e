"""Command-line parser errors (unknown option, missing argument, bad value) as one line on stderr.

typer's standalone mode prints them as a usage line, a hint and a framed box: six lines that scripts and
issue templates cannot quote. ``cli.main.run`` runs the app non-standalone and prints this line instead.
"""

from __future__ import annotations

from typing import Optional

try:  # newer typer carries its own copy of click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - older typer on the real click
    from click.exceptions import ClickException  # type: ignore[no-redef]

    try:
        from click.exceptions import NoArgsIsHelpError  # type: ignore[no-redef]
    except ImportError:
        class NoArgsIsHelpError(Exception):  # type: ignore[no-redef]
            """click before 8.2 has none: nothing raises it."""

__all__ = ["ClickException", "NoArgsIsHelpError", "one_line_usage_error"]


def one_line_usage_error(exc: ClickException, command: Optional[str]) -> str:
    message = " ".join(exc.format_message().split())
    where = f"gpu-advisor {command}" if command else "gpu-advisor"
    return f"gpu-advisor: error: {message} (see `{where} --help`)"
