"""`gpu-advisor lint` through typer: exit codes 0 / 1 / 2, formats, --output, selection, --list-checks."""

from __future__ import annotations

import json

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
    assert listing.exit_code == 0 and listing.stdout.count("\n") == 10 and "GA101" in listing.stdout


def test_skipped_files_are_notes_not_failures(app, runner, tmp_path):
    (tmp_path / "blob.py").write_bytes(b"\x00\x00")
    result = runner.invoke(app, ["lint", str(tmp_path)])
    assert result.exit_code == 0 and "skipped: binary file" in result.stderr
