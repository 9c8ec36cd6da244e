"""The gpu-advisor application: commands are registered here; each lives in its own module.

Nothing heavy is imported at module level anywhere under cli/: `gpu-advisor --help`, `rules`, `explain`
and `lint` must never import torch, and start in a fraction of a second.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated, Optional

import typer

from advisor import __version__
from advisor.cli import (
    batch_size_cmd, compare_cmd, crossover_cmd, diagnose_cmd, env_cmd, explain_cmd, lint_cmd, memory_cmd, rules_cmd,
    schema_cmd,
)
from advisor.cli.errors import EXIT_FAILURE, CliError

app = typer.Typer(
    name="gpu-advisor",
    help="Why is my GPU code slow or broken? Answers from measurements on this machine.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gpu-advisor {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit.")] = False) -> None:
    """Why is my GPU code slow or broken? Answers from measurements on this machine."""


for module in (env_cmd, diagnose_cmd, crossover_cmd, memory_cmd, batch_size_cmd, explain_cmd, compare_cmd, lint_cmd,
               rules_cmd, schema_cmd):
    module.register(app)


def run(argv: Optional[list[str]] = None) -> None:
    """Console-script entry: one-line errors with the right exit code, never a traceback. Always exits."""
    try:
        app(args=argv, standalone_mode=True)
    except CliError as exc:
        print(f"gpu-advisor: error: {exc.message}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        print("gpu-advisor: interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as exc:  # the promise is "no traceback reaches the user"; the debug switch shows it
        if os.environ.get("GPU_ADVISOR_DEBUG"):
            raise
        print(f"gpu-advisor: internal error: {type(exc).__name__}: {exc} "
              "(set GPU_ADVISOR_DEBUG=1 for the traceback)", file=sys.stderr)
        sys.exit(EXIT_FAILURE)
