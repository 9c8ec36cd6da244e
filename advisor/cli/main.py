"""The gpu-advisor application: commands are registered here; each lives in its own module.

Nothing heavy is imported at module level anywhere under cli/: `gpu-advisor --help`, `rules`, `explain`
and `lint` must never import torch, and start in a fraction of a second.

A run registers only the command it names: typer turns the signature of every registered command into click
parameters before it parses anything, so with all ten registered `gpu-advisor rules list` paid for the
parameters of diagnose, crossover, batch-size ... as well. Help, --version, a typo or no command at all get
the whole application, so the command list and "no such command" behave as before.

The command modules leave out ``from __future__ import annotations`` for the same reason: typer needs the
annotation objects, and from strings it evaluates every one again (two thirds of its time building commands).
"""

import atexit
import gc
import importlib
import os
import sys
import warnings
from typing import Annotated, Any, Iterable, Optional

import typer

from advisor import __version__
from advisor.cli.errors import EXIT_FAILURE, CliError

#: Command name -> its module under advisor.cli (which has a ``register(app)``), in the order --help lists them.
COMMAND_MODULES = {
    "env": "env_cmd", "diagnose": "diagnose_cmd", "crossover": "crossover_cmd", "memory": "memory_cmd",
    "batch-size": "batch_size_cmd", "explain": "explain_cmd", "compare": "compare_cmd", "lint": "lint_cmd",
    "rules": "rules_cmd", "schema": "schema_cmd", "cluster": "cluster_cmd",
    "profile": "profile_cmd",
}


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gpu-advisor {__version__}")
        raise typer.Exit()


def main(version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit.")] = False) -> None:
    """Why is my GPU code slow or broken? Answers from measurements on this machine."""


def build_app(commands: Iterable[str] = COMMAND_MODULES) -> typer.Typer:
    """The application with the named commands registered (default: all of them)."""
    app = typer.Typer(
        name="gpu-advisor",
        help="Why is my GPU code slow or broken? Answers from measurements on this machine.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        # Plain help, like a Unix tool's: no boxes that truncate or break words at 80 columns.
        rich_markup_mode=None,
        context_settings={"max_content_width": 100},
    )
    app.callback()(main)
    for name in commands:
        importlib.import_module(f"advisor.cli.{COMMAND_MODULES[name]}").register(app)
    from advisor.cli.help_format import plain_help

    plain_help(app)
    return app


def requested_command(args: list[str]) -> Optional[str]:
    """The one command a run needs: the first argument when it names a command. Anything else first is the
    application's own option (--help, --version) or a mistake, and those need every command."""
    return args[0] if args and args[0] in COMMAND_MODULES else None


def run(argv: Optional[list[str]] = None) -> None:
    """Console-script entry: one-line errors with the right exit code, never a traceback. Always exits."""
    args = sys.argv[1:] if argv is None else list(argv)
    # The process ends after this run. Its shutdown collections would walk every object start-up made (typer's
    # parameters, pydantic's schemas, the rules): 20-45 ms of a 300 ms command, to free memory the OS takes
    # back anyway. Frozen objects are skipped; nothing here relies on a collector running at exit.
    atexit.register(gc.freeze)
    # torch warns at import when numpy is missing; our own work never converts to numpy, so the user's terminal
    # is not the place for it (their program, importing torch itself, still gets the warning).
    warnings.filterwarnings("ignore", message="Failed to initialize NumPy", category=UserWarning)
    command = requested_command(args)
    app = build_app([command] if command else COMMAND_MODULES)
    from advisor.cli.usage import ClickException, NoArgsIsHelpError, one_line_usage_error

    try:
        # Not standalone: click's usage errors come back here to be printed as one line, not a box of six.
        code = app(args=args, standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except NoArgsIsHelpError as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except ClickException as exc:
        print(one_line_usage_error(exc, command), file=sys.stderr)
        sys.exit(exc.exit_code if exc.exit_code else 2)
    except typer.Abort:  # not standalone, click turns Ctrl-C into Abort and leaves it to us
        print("gpu-advisor: interrupted", file=sys.stderr)
        sys.exit(130)
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


def __getattr__(name: str) -> Any:
    # `app`, the whole application, for code that tests or extends it (typer's CliRunner, scripts); built on
    # first use so that importing this module for `run` does not import every command.
    if name == "app":
        global app
        app = build_app()
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
