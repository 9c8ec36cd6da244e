"""Output formats, suppression comments, selection, and the bridge to the report model."""

from __future__ import annotations

import json

import pytest

from advisor.lint import UnknownCheck, lint_paths, lint_text
from advisor.lint.bridge import lint_paths_to_findings
from advisor.lint.formats import render_json, render_sarif, render_text
from advisor.lint.model import LintRun, Note
from advisor.lint.registry import all_infos

CODE = "import time\nimport torch\nx = torch.randn(3).cuda()\nt0 = time.time()\ny = x * 2\nprint(time.time() - t0)\n"


@pytest.fixture
def run(tmp_path):
    (tmp_path / "bench.py").write_text(CODE)
    (tmp_path / "blob.py").write_bytes(b"\x00" * 10)
    return lint_paths([str(tmp_path)])


def test_text_lines_are_path_line_col_id_message(run):
    lines = render_text(run).splitlines()
    heads = [line for line in lines if not line.startswith("    ")]
    assert heads[0].endswith("bench.py:3:5: GA104 torch.randn(3).cuda() copies a tensor just made on the CPU to "
                             "the GPU; create it with device=\"cuda\" instead")
    assert [h.split(": ")[1].split()[0] for h in heads] == ["GA104", "GA102", "GA101"]
    assert lines[1].startswith("    cost: ") and lines[2].startswith("    fix: Create it on the GPU: "
                                                                      "torch.randn(3, device=\"cuda\")")


def test_json_report(run):
    document = json.loads(render_json(run))
    assert document["files_checked"] == 1 and document["notes"][0]["reason"] == "skipped: binary file"
    first = document["findings"][0]
    assert {k: first[k] for k in ("id", "line", "column", "cell", "severity")} == {
        "id": "GA104", "line": 3, "column": 5, "cell": None, "severity": "low"}
    assert first["cost"] and first["fix"]


def test_sarif_is_structurally_valid_2_1_0(run):
    sarif = json.loads(render_sarif(run))
    assert sarif["version"] == "2.1.0" and sarif["$schema"].endswith("sarif-2.1.0.json")
    driver = sarif["runs"][0]["tool"]["driver"]
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert rule_ids == [info.id for info in all_infos()]
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["help"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    results = sarif["runs"][0]["results"]
    assert len(results) == 3
    for result in results:
        assert result["ruleId"] in rule_ids and rule_ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note") and result["message"]["text"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"].endswith("bench.py")
        assert location["region"]["startLine"] >= 1 and location["region"]["startColumn"] >= 1
    notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notes[0]["message"]["text"] == "skipped: binary file"


def test_sarif_notebook_results_name_the_cell():
    notebook = json.dumps({"cells": [{"cell_type": "code", "source": "import torch\nx = torch.ones(2).cuda()"}],
                           "metadata": {}, "nbformat": 4})
    findings = lint_text(notebook, path="my nb.ipynb")
    sarif = json.loads(render_sarif(LintRun(findings=findings)))
    result = sarif["runs"][0]["results"][0]
    assert result["properties"] == {"cell": 1, "cellLine": 2, "cellColumn": 5}
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "my%20nb.ipynb"


def test_sarif_points_into_the_notebook_file_consumers_open(tmp_path):
    """A SARIF viewer opens the .ipynb as text: the region is the line of the JSON holding the source line."""
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text(json.dumps({"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# title"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["import torch\n", "x = torch.ones(2).cuda()"]}], "metadata": {}, "nbformat": 4}, indent=1))
    from advisor.lint import lint_paths

    run = lint_paths([str(notebook)])
    result = json.loads(render_sarif(run))["runs"][0]["results"][0]
    region = result["locations"][0]["physicalLocation"]["region"]
    raw = notebook.read_text().splitlines()[region["startLine"] - 1]
    assert raw[region["startColumn"] - 1:].startswith("torch.ones(2).cuda()")
    assert result["properties"] == {"cell": 2, "cellLine": 2, "cellColumn": 5}
    assert f"{notebook.as_posix()}:cell2:2:5" in render_text(run)  # the same place, in the text convention


def test_ignore_comments():
    code = ("import torch\n"
            "a = torch.randn(3).cuda()  # gpu-advisor: ignore[GA104]\n"
            "b = torch.randn(3).cuda()  # gpu-advisor: ignore[GA101]\n"
            "c = torch.randn(3).cuda()  # gpu-advisor: ignore\n"
            "d = torch.randn(3).cuda()  # GPU-ADVISOR: ignore[ga109, GA104]\n"
            "e = torch.randn(\n"
            "    3).cuda()  # gpu-advisor: ignore[GA104]\n")
    assert [(f.line, f.check_id) for f in lint_text(code)] == [(3, "GA104")]


def test_select_and_ignore():
    assert {f.check_id for f in lint_text(CODE, select=["GA101"])} == {"GA101"}
    assert {f.check_id for f in lint_text(CODE, select=["GA10"], ignore=["GA104", "timing-first-call"])} == {"GA101"}
    with pytest.raises(UnknownCheck, match="GA999"):
        lint_text(CODE, select=["GA999"])


def test_bridge_builds_report_findings(tmp_path):
    (tmp_path / "bench.py").write_text(CODE)
    (tmp_path / "bad.py").write_text("def (:\n")
    (tmp_path / "nb.ipynb").write_text(json.dumps(
        {"cells": [{"cell_type": "markdown", "source": "hi"},
                   {"cell_type": "code", "source": "import torch\nx = torch.ones(2).cuda()"}],
         "metadata": {}, "nbformat": 4}))
    findings, notes = lint_paths_to_findings([str(tmp_path)], ignore=["GA102"])
    # A file that does not parse is a GA000 finding (high): nothing in it was checked, and --fail-on sees that.
    assert [f.rule_id for f in findings] == ["GA000", "GA104", "GA101", "GA104"]
    assert findings[0].location.path.endswith("bad.py") and findings[0].severity.value == "high"
    findings = findings[1:]
    assert all(f.source == "lint" and f.category == "code" for f in findings)
    assert findings[1].confidence.value == "inferred" and findings[1].severity.value == "high"
    assert findings[1].location.line == 6 and findings[1].location.column == 7
    notebook = findings[2].location
    assert notebook.path.endswith("nb.ipynb") and notebook.cell == 2 and findings[2].evidence["notebook_cell"] == 2
    assert notebook.text.endswith("nb.ipynb:cell2:2:5")  # the one convention: path.ipynb:cellN:line:col
    assert notes == []
    findings[0].model_dump_json()  # serialisable in a report


def test_empty_run_renders():
    empty = LintRun(notes=[Note("x.bin", "skipped: binary file")])
    assert render_text(empty) == ""
    assert json.loads(render_sarif(empty))["runs"][0]["results"] == []
