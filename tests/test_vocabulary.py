"""Each name said once: where a second list of the same names still exists (a parser's label table, a flag's
choices), it must agree with the one home of those names."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

from advisor.cli.options import FailOn, OutputFormat
from advisor.engine.rule import CATEGORIES
from advisor.ingest.smi_values import REASON_NAMES
from advisor.lint.formats import FORMATS
from advisor.models.clock_events import CLOCK_EVENT_REASONS, PERFORMANCE_LIMITING_REASONS, SLOWDOWN_REASONS
from advisor.models.levels import Severity

RULES = Path(__file__).resolve().parent.parent / "rules"


def test_nvidia_smi_labels_name_the_reasons_the_probe_names():
    names = {name for _, name in CLOCK_EVENT_REASONS}
    assert set(REASON_NAMES.values()) <= names
    assert set(PERFORMANCE_LIMITING_REASONS) <= names and set(SLOWDOWN_REASONS) <= set(PERFORMANCE_LIMITING_REASONS)


def test_rule_folders_are_the_categories():
    assert {path.name for path in RULES.iterdir() if path.is_dir()} == set(CATEGORIES)


def test_lint_and_reports_share_the_format_names():
    report_formats = {f.value for f in OutputFormat}
    assert set(FORMATS) - {"sarif"} <= report_formats  # "terminal", never "text"


def test_fail_on_is_a_severity_or_never():
    assert [f.value for f in FailOn] == ["never", *(s.value for s in Severity)]


def test_crossover_flags_offer_exactly_the_model_values():
    from advisor.cli.crossover_cmd import CrossoverModeChoice, DTypeChoice, OpChoice
    from advisor.models.measurements import CrossoverMode, DType, Op

    for choice, literal in ((OpChoice, Op), (DTypeChoice, DType), (CrossoverModeChoice, CrossoverMode)):
        assert [c.value for c in choice] == list(get_args(literal))
