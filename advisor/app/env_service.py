"""`env`: facts and compatibility verdicts, no measurement, fast."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterable, Optional

from advisor.app.progress import working
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
    with working("probing this machine (importing torch)"):
        facts = collect_facts()
    report = build_report("env", facts, sources=["probe"], rules_dirs=rules_dirs, rule_set=rule_set)
    report.skipped = [s for s in report.skipped if s.rule_id not in _measurement_rules(rule_set)]
    report.meta.wall_s = round(time.perf_counter() - started, 3)
    return report


def _measurement_rules(rule_set) -> set[str]:
    """Rules that judge measurements: `env` measures nothing, so they are not "skipped" there, just not its job."""
    from advisor.engine.conditions import iter_paths
    from advisor.engine.derive import reads_measurements

    return {rule.id for rule in rule_set if reads_measurements(iter_paths(rule.when))}
