"""Findings comparison: appeared, disappeared, persists; undecided when the other side skipped the rule."""

from __future__ import annotations

from compare_helpers import finding, report, skipped

from advisor.compare import compare_reports
from advisor.compare.findings_diff import diff_findings
from advisor.models.common import Severity
from advisor.models.findings import SourceLocation


def changes(a, b, severity=Severity.medium):
    return [(c.change, c.rule_id, c.gpu_index, c.regression) for c in diff_findings(a, b, severity)]


def test_appeared_disappeared_persist_by_rule_and_gpu():
    a = report(findings=[finding("clocks-throttled", gpu_index=0), finding("ecc-errors", "high", gpu_index=1)])
    b = report(findings=[finding("clocks-throttled", gpu_index=1), finding("ecc-errors", "high", gpu_index=1)])
    assert changes(a, b) == [
        ("appeared", "clocks-throttled", 1, True),
        ("disappeared", "clocks-throttled", 0, False),
        ("persists", "ecc-errors", 1, False),
    ]


def test_low_and_info_findings_appearing_are_not_regressions():
    a = report()
    b = report(findings=[finding("pcie-link-below-max", "low", 0), finding("no-nvidia-driver", "info")])
    assert [c[3] for c in changes(a, b)] == [False, False]
    assert [c[3] for c in changes(a, b, Severity.low)] == [True, False]


def test_severity_rising_to_medium_is_a_regression():
    a = report(findings=[finding("custom-rule", "low")])
    b = report(findings=[finding("custom-rule", "high")])
    [change] = diff_findings(a, b, Severity.medium)
    assert (change.change, change.severity_a, change.severity_b, change.regression) == (
        "persists", Severity.low, Severity.high, True)


def test_finding_gone_because_the_rule_was_skipped_is_undecided_not_fixed():
    a = report(findings=[finding("clocks-throttled", gpu_index=0)])
    b = report(skipped=[skipped("clocks-throttled", gpu_index=0)])
    [change] = diff_findings(a, b, Severity.medium)
    assert (change.change, change.undecided_reason) == ("disappeared", "missing gpus (not in collect_env output)")
    b_whole_rule = report(skipped=[skipped("clocks-throttled")])  # skipped for every GPU at once
    assert diff_findings(a, b_whole_rule, Severity.medium)[0].undecided_reason is not None


def test_lint_findings_in_different_places_stay_apart():
    first, second = finding("GA103"), finding("GA103")
    first.location = SourceLocation(path="train.py", line=10, column=1)
    second.location = SourceLocation(path="train.py", line=20, column=1)
    result = diff_findings(report(findings=[first]), report(findings=[first, second]), Severity.medium)
    assert [(c.change, c.location) for c in result] == [("appeared", "train.py:20:1"), ("persists", "train.py:10:1")]


def test_regression_lines_name_the_finding():
    comparison = compare_reports(report(), report(findings=[finding("clocks-throttled", "medium", 0)]))
    assert comparison.regressions == ["medium finding clocks-throttled on GPU 0 appeared: clocks-throttled title"]
