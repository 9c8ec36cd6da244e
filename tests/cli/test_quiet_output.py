"""Quiet, honest output through the real application: each thing said once, skipped rules summed up in one
line (listed with --verbose and in JSON), real plurals, nothing that belongs to another command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.cli.main import run

REPO = Path(__file__).resolve().parents[2]
CPU_ONLY_ENV = REPO / "tests" / "fixtures" / "reports" / "cpu_only_env.json"
CPU_ONLY = REPO / "tests" / "fixtures" / "reports" / "cpu_only_diagnose.json"


def cli(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        run([str(a) for a in args])
    out, err = capsys.readouterr()
    return exit_info.value.code or 0, out, err


def nvml_error(report: dict) -> str:
    return report["facts"]["driver"]["nvml_error"]


@pytest.mark.parametrize("fmt", ["markdown", "terminal"])
def test_the_nvml_error_is_said_once_in_the_table_and_not_per_skipped_rule(capsys, fmt):
    error = nvml_error(json.loads(CPU_ONLY.read_text()))
    code, out, _ = cli(capsys, "explain", CPU_ONLY, "-f", fmt)
    assert code == 0
    # The finding that explains it, and the driver table's own row: no third, fourth ... copy.
    assert out.count(error[:60]) <= 2, out


def test_skipped_rules_are_one_line_and_listed_with_verbose(capsys):
    _, quiet, _ = cli(capsys, "explain", CPU_ONLY, "-f", "markdown")
    report = json.loads(cli(capsys, "explain", CPU_ONLY, "-f", "json")[1])
    count = len({s["rule_id"] for s in report["skipped"]})
    assert f"{count} rules not evaluated for missing facts; --verbose lists them" in quiet
    assert not any(f"`{s['rule_id']}`" in quiet for s in report["skipped"])
    _, verbose, _ = cli(capsys, "explain", CPU_ONLY, "-f", "markdown", "--verbose")
    assert all(s["rule_id"] in verbose for s in report["skipped"])
    # Each reason once, followed by the rules it stopped.
    reasons = {s["reason"] for s in report["skipped"]}
    assert all(verbose.count(f"- {reason}: ") <= 1 for reason in reasons)


def test_skip_reasons_do_not_repeat_their_fact_paths(capsys):
    report = json.loads(cli(capsys, "explain", CPU_ONLY, "-f", "json")[1])
    for skipped in report["skipped"]:
        assert skipped["missing"] and not any(path in skipped["reason"] for path in skipped["missing"]), skipped


def test_env_does_not_list_measurement_rules_as_skipped(capsys):
    code, out, _ = cli(capsys, "env", "-f", "json")
    skipped = {s["rule_id"] for s in json.loads(out)["skipped"]}
    assert not skipped & {"first-call-costs", "launch-bound-small-ops", "noisy-measurements", "transfer-overhead",
                          "host-transfer-below-link", "weak-gpu-vs-strong-cpu"}


def test_columns_empty_in_every_row_are_dropped():
    from advisor.formatting import Section
    from advisor.report.tidy import tidy_sections

    section = Section("t", rows=[("1", "", "a"), ("2", "", "")], header=("n", "note", ""))
    tidy_sections([section])
    assert section.header == ("n", "") and section.rows == [("1", "a"), ("2", "")]


def test_no_made_up_plurals_in_reports_and_errors(capsys):
    for args in (["explain", CPU_ONLY, "-f", "markdown"], ["explain", CPU_ONLY, "-f", "terminal", "-v"],
                 ["compare", CPU_ONLY_ENV, CPU_ONLY, "-f", "markdown"], ["rules", "validate"]):
        _, out, err = cli(capsys, *args)
        assert "(s)" not in out and "(s)" not in err, args


def _run_env_with_stderr(stderr_fd) -> int:
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "advisor", "env", "-f", "json"], stdout=subprocess.DEVNULL,
                          stderr=stderr_fd, cwd=REPO, timeout=120).returncode


def test_progress_shows_on_a_terminal_and_nowhere_else(tmp_path):
    import os
    import pty

    log = tmp_path / "stderr.txt"
    with log.open("w") as handle:
        assert _run_env_with_stderr(handle) == 0
    assert log.read_text() == ""  # not a terminal: not a byte of progress
    master, slave = pty.openpty()
    try:
        assert _run_env_with_stderr(slave) == 0
        os.close(slave)
        shown = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(master)
    assert b"probing this machine" in shown


def test_a_file_that_does_not_parse_is_a_ga000_finding_fail_on_sees(capsys, tmp_path):
    broken = tmp_path / "train.py"
    broken.write_text("import torch\ndef step(:\n")
    code, out, err = cli(capsys, "diagnose", "--quick", "--code", broken, "--fail-on", "high", "-f", "json")
    report = json.loads(out)
    assert [f["rule_id"] for f in report["findings"] if f["source"] == "lint"] == ["GA000"]
    assert code == 1, err


def test_the_budget_shown_is_the_one_asked_for(capsys):
    code, out, err = cli(capsys, "diagnose", "--budget", "5", "-f", "json")
    run_info = json.loads(out)["measurements"]["run"]
    assert run_info["budget_s"] == 5
    assert any("of the 5 s budget went to measuring" in note for note in run_info["notes"]), run_info["notes"]


def test_compare_says_not_evaluated_and_its_summary_fits_80_columns(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = cli(capsys, "compare", CPU_ONLY, REPO / "tests" / "fixtures" / "reports" / "h200_diagnose.json",
                       "-f", "terminal")
    assert code == 0
    head = out.split("Findings (")[0]
    assert max(len(line) for line in head.splitlines()) <= 80
    title = head.splitlines()[0]
    assert title.endswith("─╮") and "No regressions" in title and "─╮" not in title[:-2].rstrip("─")[-3:]
    assert "not evaluated in A" in out and "not evaluated on one side" in out
    # The CPU-only side lacks GPU numbers for a reason it recorded; that reason is shown, not a bare "missing".
    _, markdown, _ = cli(capsys, "compare", CPU_ONLY, REPO / "tests" / "fixtures" / "reports" / "h200_diagnose.json",
                         "-f", "markdown")
    assert "Torch not compiled with CUDA enabled" in markdown.split("Measured on one side only")[1]


def test_third_party_warnings_do_not_leak_from_our_measurements(tmp_path):
    import os
    import subprocess
    import sys

    # An environment without numpy: torch warns "Failed to initialize NumPy" when it is imported.
    blocked = tmp_path / "numpy"
    blocked.mkdir()
    (blocked / "__init__.py").write_text('raise ModuleNotFoundError("No module named numpy", name="numpy")\n')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    done = subprocess.run([sys.executable, "-m", "advisor", "diagnose", "--quick", "-f", "json"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "NumPy" not in done.stderr and "Warning" not in done.stderr, done.stderr


def test_test_output_speaks_plainly():
    """What pytest prints (skip reasons, the corpus line) is read by contributors: no in-house words."""
    import re

    jargon = ("device machine", "the device tool", "helper", "(s)", "coordinator")
    said = []
    for path in (REPO / "tests").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        said += re.findall(r'reason="([^"]*)"', text) + re.findall(r"pytest\.skip\(\s*f?\"([^\"]*)\"", text)
    assert said
    assert [s for s in said if any(word in s for word in jargon)] == []


def test_a_measurement_missing_on_one_side_gives_the_reason_not_every_note(capsys, tmp_path):
    report = json.loads(CPU_ONLY.read_text())
    report["measurements"]["run"]["notes"] += ["24 s of the 30 s budget went to measuring; start-up, the probe and "
                                               "writing the report had the rest", "train.py: skipped: binary file"]
    side_a = tmp_path / "a.json"
    side_a.write_text(json.dumps(report))
    _, markdown, _ = cli(capsys, "compare", side_a, REPO / "tests" / "fixtures" / "reports" / "h200_diagnose.json",
                         "-f", "markdown")
    one_sided = markdown.split("Measured on one side only")[1]
    assert "Torch not compiled with CUDA enabled" in one_sided and "budget went to measuring" not in one_sided
