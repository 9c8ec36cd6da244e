"""`env`: facts and compatibility verdicts, no measurement, fast."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterable, Optional

from advisor.app.reports import build_report, prepare_rules
from advisor.models.report import Report


def env_report(rules_dirs: Optional[Iterable[Path]], *, meanwhile: Callable[[], None] = lambda: None) -> Report:
    """The probe's facts judged by the rules. ``meanwhile`` is more work that does not need the facts (the
    caller's renderer, say), done while they are being collected."""
    from advisor.probe import collect_facts

    started = time.perf_counter()
    # The torch child (started by cli/entry.py) is importing torch now, for seconds: everything that does not
    # need the facts is done meanwhile, so that after they arrive only evaluating and rendering remain.
    rule_set = prepare_rules(rules_dirs)
    meanwhile()
    facts = collect_facts()
    report = build_report("env", facts, sources=["probe"], rules_dirs=rules_dirs, rule_set=rule_set)
    report.meta.wall_s = round(time.perf_counter() - started, 3)
    return report
