"""`gpu-advisor lint` through typer: exit codes 0 / 1 / 2, formats, --output, selection, --list-checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.cli.main import build_app

FAULTY = "import torch\nx = torch.randn(3).cuda()\n"
CLEAN = "import torch\nx = torch.randn(3, device='cuda')\n"


@pytest.fixture
def app():
    return build_app(["lint"])  # the real application, with only `lint` registered (as a run of it has)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "faulty.py").write_text(FAULTY)
    (tmp_path / "clean.py").write_text(CLEAN)
    return tmp_path


def test_clean_exits_0_and_findings_exit_1(app, runner, files):
    clean = runner.invoke(app, ["lint", str(files / "clean.py")])
    assert clean.exit_code == 0 and clean.stdout == ""
    faulty = runner.invoke(app, ["lint", str(files)])
    assert faulty.exit_code == 1
    assert f"{files / 'faulty.py'}:2:5: GA104 " in faulty.stdout
    assert "1 finding in 2 files" in faulty.stderr


def test_bad_usage_exits_2_with_one_line(app, runner, files):
    for args, text in ((["lint", str(files / "missing.py")], "no such file or directory"),
                       (["lint", "--select", "GA999", str(files)], "unknown check 'GA999'"),
                       (["lint", "--format", "xml", str(files)], "unknown format 'xml'"),
                       (["lint"], "no paths given")):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert text in result.stderr and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_json_and_sarif_to_a_file(app, runner, files, tmp_path):
    out = tmp_path / "report.sarif"
    result = runner.invoke(app, ["lint", str(files), "--format", "sarif", "--output", str(out)])
    assert result.exit_code == 1 and result.stdout == ""
    assert json.loads(out.read_text())["runs"][0]["results"][0]["ruleId"] == "GA104"
    result = runner.invoke(app, ["lint", str(files), "-f", "json"])
    assert json.loads(result.stdout)["findings"][0]["id"] == "GA104"


def test_select_ignore_and_list(app, runner, files):
    assert runner.invoke(app, ["lint", str(files), "--ignore", "GA104"]).exit_code == 0
    assert runner.invoke(app, ["lint", str(files), "--select", "GA101,GA102"]).exit_code == 0
    assert runner.invoke(app, ["lint", str(files), "--select", "cpu-tensor-to-gpu"]).exit_code == 1
    listing = runner.invoke(app, ["lint", "--list-checks"])
    from advisor.lint import all_infos
    assert listing.exit_code == 0 and listing.stdout.count("\n") == len(all_infos())
    assert all(info.id in listing.stdout for info in all_infos())


def test_report_gives_measured_costs_and_a_bad_report_is_bad_usage(app, runner, tmp_path):
    script = tmp_path / "tiny.py"
    script.write_text('import torch\nb = torch.ones(4, device="cuda")\nfor _ in range(100000):\n    b += b\n')
    typical = runner.invoke(app, ["lint", str(script), "--select", "GA110"])
    assert typical.exit_code == 1 and "typical" in typical.stdout
    report = Path(__file__).resolve().parents[2] / "sample_reports" / "h200" / "diagnose_h200.json"
    measured = runner.invoke(app, ["lint", str(script), "--select", "GA110", "--report", str(report)])
    assert measured.exit_code == 1 and "37,576 elements" in measured.stdout and "H200" in measured.stdout
    not_json = tmp_path / "notes.txt"
    not_json.write_text("hello")
    bad = runner.invoke(app, ["lint", str(script), "--report", str(not_json)])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_skipped_files_are_notes_not_failures(app, runner, tmp_path):
    (tmp_path / "blob.py").write_bytes(b"\x00\x00")
    result = runner.invoke(app, ["lint", str(tmp_path)])
    assert result.exit_code == 0 and "skipped: binary file" in result.stderr


def test_costs_say_measured_with_a_report_and_typical_without(tmp_path):
    from advisor.lint import lint_text, load_machine
    report = Path(__file__).resolve().parents[2] / "sample_reports" / "h200" / "diagnose_h200.json"
    machine = load_machine(str(report))
    code = ('import time\nimport torch\nfrom torch.utils.data import DataLoader\n'
            'loader = DataLoader(range(10))\nx = torch.randn(3).cuda()\na = torch.load("a.pt").cuda()\n'
            't0 = time.time()\nb = a * 2\nprint(time.time() - t0)\n'
            'for i in range(100):\n    y = (a * 2).sum()\n    print(y.item())\n')
    typical = {f.check_id: f.cost for f in lint_text(code)}
    measured = {f.check_id: f.cost for f in lint_text(code, machine=machine)}
    assert {"GA101", "GA102", "GA103", "GA104", "GA106"} <= set(measured), measured
    for check_id in ("GA101", "GA102", "GA103", "GA104", "GA106"):
        assert "measured on this NVIDIA H200" in measured[check_id], check_id
        assert "measured on this" not in typical[check_id], check_id
