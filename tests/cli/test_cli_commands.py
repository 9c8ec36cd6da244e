"""The command line end to end: exit codes, one-line errors, formats, and which commands must not import torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.cli.main import run

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
H200 = FIXTURES / "reports" / "h200_diagnose.json"
COLLECT_ENV = FIXTURES / "collect_env" / "linux_h200_torch2.11_cu130.txt"


def cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        run([str(a) for a in args])
    out, err = capsys.readouterr()
    return exit_info.value.code or 0, out, err


def test_version(capsys):
    code, out, _ = cli(capsys, "--version")
    assert code == 0 and out.startswith("gpu-advisor ")


@pytest.mark.parametrize("args, message", [
    (["explain", "no/such/report.json"], "no such file"),
    (["explain", str(FIXTURES)], "is a directory"),
    (["rules", "show", "no-such-rule"], "no rule or lint check with id"),
    (["rules", "validate", "no/such/dir"], "not a directory"),
    (["env", "--rules-dir", "no/such/dir"], "no such directory"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    code, out, err = cli(capsys, *args)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert out == ""


@pytest.mark.parametrize("content, message", [
    ('{"schema_version": 1, "meta": {"tool_version": "x"', "not valid JSON"),
    ('{"schema_version": 99, "meta": {}}', "upgrade gpu-advisor"),
    ('{"schema_version": 0, "meta": {}}', "regenerate it"),
    ('{"hello": "world"}', "not a gpu-advisor report"),
    ('{"schema_version": 1, "meta": {"tool_version": "x", "command": "env", "created_utc": "z"}, "facts": {"host": {"os": 3}}}',
     "malformed report at facts.host.os"),
    ("just some words\nthat are not a report\n", "expected a gpu-advisor JSON report"),
    ("", "empty input"),
])
def test_malformed_reports_give_a_clear_error(capsys, tmp_path, content, message):
    path = tmp_path / "report.json"
    path.write_text(content)
    code, _, err = cli(capsys, "explain", path)
    assert code == 2 and message in err and "Traceback" not in err


def test_binary_input_is_refused(capsys, tmp_path):
    path = tmp_path / "blob.bin"
    path.write_bytes(bytes(range(256)) * 4)
    code, _, err = cli(capsys, "explain", path)
    assert code == 2 and "not a text file" in err


def test_explain_a_saved_report_in_every_format(capsys, tmp_path):
    code, out, _ = cli(capsys, "explain", H200, "--format", "json")
    assert code == 0 and json.loads(out)["meta"]["command"].startswith("explain")
    code, out, _ = cli(capsys, "explain", H200, "--format", "markdown")
    assert code == 0 and out.startswith("### gpu-advisor report") and len(out) < 65_536
    target = tmp_path / "report.txt"
    code, out, _ = cli(capsys, "explain", H200, "--output", target)
    assert code == 0 and out == "" and "GPU usable: yes" in target.read_text()
    assert "\x1b[" not in target.read_text()  # no colour codes in a file


def test_output_format_follows_the_file_extension(capsys, tmp_path):
    cli(capsys, "explain", H200, "-o", tmp_path / "r.json")
    cli(capsys, "explain", H200, "-o", tmp_path / "r.md")
    assert json.loads((tmp_path / "r.json").read_text())["schema_version"] == 1
    assert (tmp_path / "r.md").read_text().startswith("### gpu-advisor report")


def test_explain_a_collect_env_paste(capsys):
    code, out, _ = cli(capsys, "explain", COLLECT_ENV, "--format", "markdown")
    assert code == 0 and "GPU usable: yes" in out and "NVIDIA H200" in out


def test_fail_on_turns_findings_into_exit_code_1(capsys):
    assert cli(capsys, "explain", H200, "-f", "json")[0] == 0
    assert cli(capsys, "explain", H200, "-f", "json", "--fail-on", "info")[0] == 1  # it has info findings
    assert cli(capsys, "explain", H200, "-f", "json", "--fail-on", "high")[0] == 0


def test_redaction_is_on_by_default_and_can_be_turned_off(capsys, tmp_path):
    report = json.loads(H200.read_text())
    report["facts"]["host"]["hostname"] = "gpu-node-7.example.org"
    report["meta"]["redacted"] = False
    path = tmp_path / "unredacted.json"
    path.write_text(json.dumps(report))
    _, out, _ = cli(capsys, "explain", path, "-f", "json")
    assert "gpu-node-7" not in out and json.loads(out)["meta"]["redacted"] is True
    _, out, _ = cli(capsys, "explain", path, "-f", "json", "--no-redact")
    assert "gpu-node-7.example.org" in out


def test_user_rules_join_a_run(capsys, tmp_path):
    rule_dir = tmp_path / "perf"
    rule_dir.mkdir()
    (rule_dir / "h200-spotted.yaml").write_text(
        "id: h200-spotted\ntitle: An H200 is here\ncategory: perf\nseverity: low\nconfidence: measured\n"
        "when: {fact: measurements.run.device_name, matches: H200}\nmessage: Found {measurements.run.device_name}.\n"
        "remediation: Enjoy.\nexamples:\n  fires: [{measurements.run.device_name: NVIDIA H200}]\n"
        "  passes: [{measurements.run.device_name: NVIDIA A100}]\n")
    assert cli(capsys, "rules", "validate", tmp_path)[0] == 0
    code, out, _ = cli(capsys, "explain", H200, "-f", "json", "--rules-dir", tmp_path)
    assert "h200-spotted" in {f["rule_id"] for f in json.loads(out)["findings"]}


def test_schema_is_json_schema(capsys):
    code, out, _ = cli(capsys, "schema")
    schema = json.loads(out)
    assert code == 0 and schema["title"] == "Report" and "schema_version" in schema["properties"]


@pytest.mark.parametrize("args", [
    ["--help"], ["rules", "list"], ["explain", str(H200), "-f", "json"],
    ["lint", str(REPO / "benchmarks" / "bench_crossover.py")], ["compare", str(H200), str(H200), "-f", "json"],
])
def test_commands_that_must_not_import_torch(args):
    probe = ("import sys\nfrom advisor.cli.main import run\ntry:\n    run(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print('TORCH' if 'torch' in sys.modules else 'NO-TORCH', file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "NO-TORCH", done.stderr


def test_crossover_without_a_gpu_says_so_with_exit_3():
    done = subprocess.run([sys.executable, "-m", "advisor", "crossover", "--op", "add", "--dtype", "float32"],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    pytest.importorskip("torch")
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    assert done.returncode == 3
    assert "no usable GPU" in done.stderr and "Traceback" not in done.stderr
