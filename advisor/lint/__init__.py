"""Static checks of users' PyTorch scripts and notebooks: no torch import, no execution.

``lint_paths(paths, select, ignore)`` checks files and folders and returns a LintRun (findings, notes
about skipped files); ``lint_text(text)`` checks source held in memory. Everything here imports only the
standard library (bridge.py, the one exception, converts findings to the report's pydantic model).
"""

from __future__ import annotations

from advisor.lint.discover import MissingPath
from advisor.lint.machine import BadReport, Machine, load_machine
from advisor.lint.model import CheckInfo, LintFinding, LintRun, Note
from advisor.lint.registry import UnknownCheck, all_infos
from advisor.lint.runner import lint_paths, lint_text

__all__ = ["BadReport", "CheckInfo", "LintFinding", "LintRun", "Machine", "MissingPath", "Note", "UnknownCheck",
           "all_infos", "lint_paths", "lint_text", "load_machine"]
