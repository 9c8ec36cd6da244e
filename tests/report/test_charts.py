"""Crossover charts from a real H200 recording: the text chart, the PNG/SVG plot, TensorBoard scalars."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.models.load import load_report_json
from advisor.report.plot import plot_crossovers, write_tensorboard
from advisor.report.text_chart import Series, text_chart

H200 = Path(__file__).resolve().parents[1] / "fixtures" / "reports" / "h200_diagnose.json"


@pytest.fixture(scope="module")
def crossovers():
    return load_report_json(H200.read_text()).measurements.crossover


def test_text_chart_marks_the_crossover_and_both_series():
    chart = text_chart([Series("CPU", "C", [(10, 1e-5), (100, 1e-4), (1000, 1e-2)]),
                        Series("GPU", "G", [(10, 2e-5), (100, 2e-5), (1000, 1e-4)])], x_label="n", marker_x=100)
    lines = chart.splitlines()
    assert any("|" in line and "C" in line for line in lines)
    assert "crossover at 100" in lines[-1] and "C CPU" in lines[-1] and "G GPU" in lines[-1]
    assert lines[0].strip().startswith("10ms")  # the slowest time labels the top row


def test_plot_writes_a_png_and_an_svg(tmp_path, crossovers):
    pytest.importorskip("matplotlib")
    for name in ("crossover.png", "crossover.svg"):
        plot_crossovers(crossovers, tmp_path / name)
        assert (tmp_path / name).stat().st_size > 10_000
    assert (tmp_path / "crossover.png").read_bytes()[:4] == b"\x89PNG"


def test_tensorboard_scalars(tmp_path, crossovers):
    pytest.importorskip("tensorboard")
    write_tensorboard(crossovers, tmp_path)
    assert list(tmp_path.rglob("events.out.tfevents.*"))
