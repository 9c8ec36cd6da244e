"""Recommendation details are typed: the schema documents every kind, loading rejects malformed details with a
one-line error (instead of a renderer crashing later), and every committed report still loads and renders."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from advisor.models.load import ReportLoadError, load_report_json
from advisor.models.report import Report
from advisor.report.recommendation_sections import recommendation_sections

REPO = Path(__file__).resolve().parents[2]
WITH_RECOMMENDATIONS = {
    "batch_size": REPO / "tests" / "fixtures" / "reports" / "batch_size_resnet50_h200_with_curve.json",
    "memory": REPO / "sample_reports" / "h200" / "memory_h200.json",
    "memory_nofit": REPO / "sample_reports" / "h200" / "memory_nofit_h200.json",
}
COMMITTED = sorted([*REPO.glob("sample_reports/*/*.json"), *REPO.glob("tests/fixtures/reports/*.json")])


def _data(name: str) -> dict:
    return json.loads(WITH_RECOMMENDATIONS[name].read_text())


@pytest.mark.parametrize("path", [p for p in COMMITTED if "bench" not in p.name], ids=lambda p: p.name)
def test_every_committed_report_loads_and_renders(path):
    report = load_report_json(path.read_text(), str(path))
    recommendation_sections(report.recommendations)


def test_the_schema_documents_each_kind_of_details():
    definitions = Report.model_json_schema()["$defs"]
    for name in ("BatchSizeDetails", "MemoryHeadroomDetails", "MemoryFitDetails", "OomDetails", "BatchTrial"):
        assert name in definitions
    assert "max_fit" in definitions["BatchSizeDetails"]["properties"]


@pytest.mark.parametrize("name, index, path, value", [
    ("batch_size", 0, ["trials", 0, "batch"], "many"),
    ("batch_size", 0, ["knee"], {"batch": 4}),
    ("batch_size", 0, ["throughput_curve", 0, "samples_per_s"], None),
    ("memory", 0, ["matmul_fits", 0, "n"], "x"),
    ("memory", 1, ["verified", "peak_bytes"], [1]),
    ("memory_nofit", 2, ["cause"], "gremlins"),
    ("memory", 0, ["a_key_no_writer_writes"], 1),
])
def test_malformed_details_are_refused_on_load(name, index, path, value):
    data = copy.deepcopy(_data(name))
    target = data["recommendations"][index]["details"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ReportLoadError, match=r"malformed report at recommendations\.%d\." % index):
        load_report_json(json.dumps(data))


def test_a_kind_and_details_that_do_not_belong_together_are_refused():
    data = _data("memory")
    data["recommendations"][0]["kind"] = "batch_size"
    with pytest.raises(ReportLoadError):
        load_report_json(json.dumps(data))


def test_json_is_unchanged_by_a_round_trip():
    for name in WITH_RECOMMENDATIONS:
        data = _data(name)
        again = json.loads(load_report_json(json.dumps(data)).model_dump_json())
        assert again["recommendations"] == data["recommendations"]


def test_a_valid_but_odd_curve_renders():
    # Valid numbers the renderer must not divide by: a curve whose every point is 0 samples/s.
    data = _data("batch_size")
    for point in data["recommendations"][0]["details"]["throughput_curve"]:
        point["samples_per_s"] = 0.0
    rows = recommendation_sections(load_report_json(json.dumps(data)).recommendations)[0].rows
    assert all(row[2] == "n/a" for row in rows)
