"""Exit codes and the exception commands raise for a clean one-line failure (defined in the app layer, which
raises it too; ``CliError`` is its name on this side)."""

from __future__ import annotations

from advisor.app.errors import EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK
from advisor.app.errors import AdvisorError as CliError

__all__ = ["EXIT_OK", "EXIT_FINDINGS", "EXIT_BAD_INPUT", "EXIT_FAILURE", "CliError"]
