"""`explain`: a saved report or pasted text, judged again by this version's rules. Offline: no GPU, no torch."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

from advisor.app.inputs import load_any_report
from advisor.app.reports import load_rule_set, re_evaluate
from advisor.models.report import Report


def explain_input(input_path: str, rules_dirs: Optional[Iterable[Path]]) -> Report:
    report = re_evaluate(load_any_report(input_path), load_rule_set(rules_dirs))
    report.meta.command = f"explain ({report.meta.command})" if report.meta.command != "explain" else "explain"
    return report
