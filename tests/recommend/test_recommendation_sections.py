"""The recommendation tables and chart, rendered through the real terminal and Markdown reporters (with the
sections hooked in the way report/sections.py will), and surviving a JSON round trip."""

from __future__ import annotations

import io

import pytest
import torch
from torch import nn

from advisor.models.report import Report, ReportMeta
from advisor.recommend.memory_probe import CopyCheck, Headroom
from advisor.recommend.memory_report import fit_recommendation, headroom_recommendation, oom_recommendation
from advisor.recommend.oom_explain import explain_oom
from advisor.report.recommendation_sections import bar_chart, recommendation_sections
from tests.recommend.fakes import MIB, SimulatedMeter, linear

GIB = 2**30


@pytest.fixture(scope="module")
def report() -> Report:
    from advisor.recommend.api import recommend_batch_size

    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))
    meter = SimulatedMeter(model, linear(300 * MIB, 2 * MIB), limit=900 * MIB)
    result = recommend_batch_size(model, torch.randn(4, 16), device="cpu", meter=meter, model_label="demo net")
    meter.close()
    headroom = Headroom(0, "NVIDIA H100 80GB HBM3", 80 * GIB, 78 * GIB, used_before_bytes=GIB // 2,
                        other_processes_bytes=0, context_bytes=500 * MIB, cublas_workspace_bytes=32 * MIB,
                        torch_reserved_bytes=34 * MIB, torch_allocated_bytes=32 * MIB,
                        copies=[CopyCheck("a.t().contiguous()", 16 * MIB, 0)])
    oom = ("CUDA out of memory. Tried to allocate 764.00 MiB. GPU 0 has a total capacity of 47.37 GiB of which "
           "442.88 MiB is free. Including non-PyTorch memory, this process has 46.92 GiB memory in use. Of the "
           "allocated memory 42.40 GiB is allocated by PyTorch, and 3.24 GiB is reserved by PyTorch but unallocated.")
    recommendations = [result.to_recommendation(), headroom_recommendation(headroom),
                       fit_recommendation("matmul", (30000, 30000), "float32", headroom.usable_bytes,
                                          noncontiguous=False),
                       oom_recommendation(explain_oom(oom))]
    meta = ReportMeta(tool_version="test", command="batch-size", created_utc="2026-01-01T00:00:00Z")
    return Report(meta=meta, recommendations=recommendations)


@pytest.fixture
def hooked(monkeypatch):
    """What the hook in report/sections.py will do: recommendation sections first."""
    import advisor.report.markdown as markdown
    import advisor.report.terminal as terminal
    from advisor.report.sections import report_sections

    def with_recommendations(report):
        return [*recommendation_sections(report.recommendations), *report_sections(report)]

    monkeypatch.setattr(markdown, "report_sections", with_recommendations)
    monkeypatch.setattr(terminal, "report_sections", with_recommendations)


def test_sections_for_every_kind(report):
    titles = [s.title for s in recommendation_sections(report.recommendations)]
    assert titles[:3] == ["Batch size: throughput curve", "Batch size: memory model", "Batch size: trials (real steps)"]
    assert "GPU memory: largest square matmul that fits (A, B and the output alive)" in titles
    assert "Will it fit: tensors alive together" in titles
    assert "Out of memory: the numbers in the message" in titles


def test_markdown_and_terminal_render_the_curve(report, hooked):
    from rich.console import Console

    from advisor.report.markdown import render_markdown
    from advisor.report.terminal import render_terminal

    text = render_markdown(report)
    assert "samples/s by batch size" in text and "| Batch | Samples/s |" in text
    assert "largest that runs" in text and "Batch size:" in text
    buffer = io.StringIO()
    render_terminal(report, Console(file=buffer, width=110, no_color=True))
    terminal = buffer.getvalue()
    assert "Batch size: throughput curve" in terminal and "#" in terminal
    assert "30,000 x 30,000" in terminal


def test_json_round_trip_keeps_what_the_sections_read(report):
    from advisor.models.load import load_report_json
    from advisor.report.json_report import render_json

    again = load_report_json(render_json(report))
    assert [s.rows for s in recommendation_sections(again.recommendations)] == \
           [s.rows for s in recommendation_sections(report.recommendations)]


def test_bar_chart():
    chart = bar_chart([("1", 10.0, ""), ("2", 20.0, "peak")], width=10)
    assert chart.splitlines() == ["1 |#####      10", "2 |########## 20  peak"]
    assert bar_chart([]) == ""
