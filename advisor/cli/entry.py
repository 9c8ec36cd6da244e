"""The console-script entry. For commands that probe torch it starts the torch probe in a child process first,
before the CLI itself loads, so `import torch` overlaps everything else (see advisor/_torch_child.py).

Imports nothing heavy before that decision: this runs ahead of typer, pydantic and the rest.
"""

from __future__ import annotations

import sys
from typing import Optional

#: Commands whose report is facts only: torch is needed for its facts, never for work in this process.
_PROBE_IN_CHILD = {"env"}


def run(argv: Optional[list[str]] = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    command = next((a for a in args if not a.startswith("-")), None)
    if command in _PROBE_IN_CHILD and not {"--help", "-h"} & set(args):
        from advisor import _torch_child

        _torch_child.start_early()
    from advisor.cli.main import run as run_cli

    run_cli(argv)
