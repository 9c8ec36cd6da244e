"""Exit codes and the one exception a service raises for a clean one-line failure.

The services raise it; ``cli.main.run`` prints it as ``gpu-advisor: error: ...`` and exits with its code.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1  # findings at or above --fail-on (lint: anything found)
EXIT_BAD_INPUT = 2  # bad usage or bad input: missing file, malformed report or rule, unknown rule id
EXIT_FAILURE = 3  # a probe or measurement failed: no GPU where one is needed, CUDA error


class AdvisorError(Exception):
    """A failure the user is told in one line on stderr, no traceback; the process exits with ``exit_code``."""

    def __init__(self, message: str, exit_code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
