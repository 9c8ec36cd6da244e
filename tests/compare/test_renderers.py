"""Compare renderers: Markdown fits one comment with long lists folded; terminal shows the same tables."""

from __future__ import annotations

import io

import pytest
from compare_helpers import CPU_ONLY, H200, H200_COLLECT_ENV, finding, measurements, report, scalar
from rich.console import Console

from advisor.app.inputs import load_any_report
from advisor.app.reports import evaluate
from advisor.compare import compare_reports
from advisor.compare.tables import footnote_reasons
from advisor.formatting import Section
from advisor.models.comparison import Comparison, FactDifference
from advisor.report.compare_markdown import render_compare_markdown
from advisor.report.compare_terminal import render_compare_terminal
from advisor.report.markdown import COMMENT_LIMIT


@pytest.fixture(scope="module")
def cpu_to_h200() -> Comparison:
    return compare_reports(evaluate(load_any_report(str(CPU_ONLY)), None), evaluate(load_any_report(str(H200)), None))


def terminal(comparison: Comparison) -> str:
    buffer = io.StringIO()
    render_compare_terminal(comparison, Console(file=buffer, width=120, no_color=True, force_terminal=False))
    return buffer.getvalue()


def test_markdown_folds_long_lists_and_fits_one_comment(cpu_to_h200):
    text = render_compare_markdown(cpu_to_h200)
    assert len(text) < COMMENT_LIMIT
    assert "<details><summary>Facts that differ (34)</summary>" in text
    assert "<details><summary>Measured on one side only (61)</summary>" in text
    assert "**Peak throughput (2)**" in text  # short tables stay open
    assert "| CPU matmul float64 | 83.1 GFLOP/s | 560 GFLOP/s | 6.74x | better by 574% |" in text
    # Sixty GPU numbers missing for one reason: the reason is said once, as a footnote.
    assert text.count("GPU measurements skipped: Torch not compiled with CUDA enabled") == 1
    assert text.count("<details>") == text.count("</details>")


def test_markdown_escapes_pipes_in_values():
    a, b = report(), report()
    a.facts.env.variables["LD_PRELOAD"] = "a|b"
    a.facts.env.complete = b.facts.env.complete = True
    text = render_compare_markdown(compare_reports(a, b))
    assert "| env.LD_PRELOAD | a\\|b | unset |" in text


def test_markdown_is_cut_at_the_comment_limit():
    comparison = compare_reports(report(), report())
    comparison.facts.differences = [FactDifference(path=f"packages.p{i}", a="1" * 200, b="2" * 200) for i in range(400)]
    text = render_compare_markdown(comparison)
    assert len(text) < COMMENT_LIMIT + 200 and "truncated to fit one comment" in text


def test_terminal_shows_verdict_sides_and_tables(cpu_to_h200):
    text = terminal(cpu_to_h200)
    assert text.splitlines()[0].startswith("╭─ No regressions")
    for expected in ("A: ", "B: ", "Findings (7)", "Facts that differ (34)", "Peak throughput (2)",
                     "Measured on one side only (61)", "Facts recorded on one side only", "Left out of the comparison"):
        assert expected in text, expected


def test_regressions_lead_both_renderings():
    a = report(measurements=measurements(overheads=[scalar("idle synchronize", 4.0, "us")]))
    b = report(measurements=measurements(overheads=[scalar("idle synchronize", 8.0, "us")]),
               findings=[finding("clocks-throttled", "medium", 0)])
    comparison = compare_reports(a, b)
    markdown = render_compare_markdown(comparison)
    assert "**B regressed against A in 2 ways**" in markdown
    assert "- Overheads: idle synchronize 100% worse (4.00 us -> 8.00 us)" in markdown
    assert "- medium finding clocks-throttled on GPU 0 appeared: clocks-throttled title" in markdown
    assert "regressed against A in 2 ways" in terminal(comparison).splitlines()[0]


def test_pasted_text_comparison_renders(cpu_to_h200):
    comparison = compare_reports(evaluate(load_any_report(str(H200_COLLECT_ENV)), None),
                                 evaluate(load_any_report(str(H200)), None))
    text = render_compare_markdown(comparison)
    assert "_A holds no measurements" in text and "(pasted text," in text
    assert "A holds no measurements" in terminal(comparison)


def test_footnotes_only_replace_reasons_that_repeat():
    table = Section("t", header=("What", "A", "B"), rows=[("x", "unavailable: not in collect_env output", "1"),
                                                          ("y", "unavailable: not in collect_env output", "2"),
                                                          ("z", "3", "unavailable: said once only here")])
    footnote_reasons(table, [1, 1, 2])
    assert table.rows == [("x", "[1]", "1"), ("y", "[1]", "2"), ("z", "3", "unavailable: said once only here")]
    assert table.note == "[1] unavailable: not in collect_env output"


def test_noisy_worse_numbers_are_named_in_the_summary_but_not_counted():
    a = report(measurements=measurements(peaks=[scalar("CPU matmul float32", 1600.0, "GFLOP/s", stable=False)]))
    b = report(measurements=measurements(peaks=[scalar("CPU matmul float32", 800.0, "GFLOP/s")]))
    comparison = compare_reports(a, b)
    assert comparison.regressions == []
    markdown = render_compare_markdown(comparison)
    assert markdown.splitlines()[2].startswith("**No regressions")
    assert "1 noisy number looks worse: not counted" in markdown
    assert "| CPU matmul float32 | 1,600 GFLOP/s | 800 GFLOP/s | 0.50x | worse by 50% (noisy) | did not settle in A |" \
        in render_compare_markdown(comparison)
