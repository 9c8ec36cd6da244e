"""The progress a long measurement shows: a rich bar on stderr (the report owns stdout)."""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Iterator


@contextlib.contextmanager
def progress_bar(title: str) -> Iterator[Any]:
    """Yields ``update(description, done, total)``; silent when stderr is not a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), TimeElapsedColumn(), console=console,
                  transient=True, disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task(title, total=1)

        def update(description: str, done: int, total: int) -> None:
            progress.update(task, description=f"{title}: {description}", completed=done, total=total)

        yield update


@contextlib.contextmanager
def working(what: str) -> Iterator[None]:
    """A spinner with ``what`` on stderr while a step that can take seconds runs (the torch probe, say); nothing
    at all when stderr is not a terminal, so logs and pipes stay clean."""
    if not sys.stderr.isatty():
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status(what, spinner="dots"):
        yield
