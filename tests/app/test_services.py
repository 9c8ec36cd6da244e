"""The application layer's shared pieces, on recorded facts (no GPU): the GPU checks every command makes once,
the plan a budget buys, and re-evaluating a loaded report."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.app.devices import gpu_unusable_reason, require_gpu, usable_gpu
from advisor.app.errors import EXIT_BAD_INPUT, EXIT_FAILURE, AdvisorError
from advisor.app.inputs import load_any_report
from advisor.app.reports import load_rule_set, re_evaluate
from advisor.measure.crossover import POINT_TIMER
from advisor.measure.session import QUICK_CROSSOVERS, MeasurePlan
from advisor.models.facts import Facts
from advisor.models.findings import Finding

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
H200 = Facts.model_validate_json((FIXTURES / "facts" / "h200.json").read_text())
CPU_ONLY = Facts.model_validate_json((FIXTURES / "facts" / "cpu_only_linux.json").read_text())


def test_a_usable_gpu_and_a_device_index_past_the_ones_torch_sees():
    assert gpu_unusable_reason(H200) is None and usable_gpu(H200, 0) is None
    with pytest.raises(AdvisorError, match=r"--device 7: torch sees 1 GPU \(0\.\.0\)") as caught:
        usable_gpu(H200, 7)
    assert caught.value.exit_code == EXIT_BAD_INPUT


def test_no_usable_gpu_is_a_reason_or_a_measurement_failure():
    reason = usable_gpu(CPU_ONLY, 3)  # the --device index is not judged where there is no GPU at all
    assert reason and reason == gpu_unusable_reason(CPU_ONLY)
    with pytest.raises(AdvisorError, match="no usable CUDA device") as caught:
        require_gpu(CPU_ONLY, 0)
    assert caught.value.exit_code == EXIT_FAILURE


@pytest.mark.parametrize("budget_s, quick, precision", [
    (30.0, False, 1.0), (10.0, True, 0.5), (120.0, False, 4.0), (3.0, False, 0.3), (20.0, True, 1.0),
])
def test_the_plan_scales_its_precision_with_the_budget(budget_s, quick, precision):
    plan = MeasurePlan.for_budget(budget_s, left_s=budget_s - 2, quick=quick)
    assert plan.budget_s == budget_s - 2
    assert plan.precision == pytest.approx(precision)
    assert plan.crossover.timer.budget_s == pytest.approx(POINT_TIMER.budget_s * precision)
    assert (plan.crossovers == QUICK_CROSSOVERS) is quick


def test_re_evaluating_keeps_lint_findings_and_recomputes_rule_findings():
    report = load_any_report(str(FIXTURES / "reports" / "h200_diagnose.json"))
    lint = Finding(rule_id="GA101", title="t", category="code", severity="high", confidence="inferred",
                   message="m", remediation="r", source="lint")
    stale = Finding(rule_id="retired-rule", title="t", category="perf", severity="high", confidence="measured",
                    message="m", remediation="r")
    report = report.model_copy(update={"findings": [stale, lint, *report.findings]})
    again = re_evaluate(report, load_rule_set(None))
    ids = [f.rule_id for f in again.findings]
    assert "GA101" in ids and "retired-rule" not in ids
    assert {f.rule_id for f in again.findings if f.source == "rules"} == \
           {f.rule_id for f in re_evaluate(again, load_rule_set(None)).findings if f.source == "rules"}
