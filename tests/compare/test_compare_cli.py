"""`gpu-advisor compare A B` through typer: formats, redaction, exit codes 0 / 1 / 2, and no torch import."""

from __future__ import annotations

import json

import pytest
from compare_helpers import CPU_ONLY, CPU_ONLY_ENV, H200, H200_COLLECT_ENV, fixture_report

from advisor.cli.errors import CliError
from advisor.cli.main import build_app
from advisor.models.comparison import Comparison
from tests.no_torch import TORCH_POISON, run_without_torch


@pytest.fixture
def app():
    return build_app(["compare"])  # the real application, with only `compare` registered (as a run of it has)


def run(runner, app, *args):
    return runner.invoke(app, ["compare", *map(str, args)])


def test_json_is_the_comparison_model(runner, app):
    result = run(runner, app, CPU_ONLY, H200, "--format", "json")
    assert result.exit_code == 0, result.output
    comparison = Comparison.model_validate_json(result.stdout)
    assert comparison.a.source.endswith("cpu_only_diagnose.json") and comparison.b.summary.endswith("NVIDIA H200")
    assert comparison.a.re_evaluated and comparison.b.re_evaluated
    assert (comparison.a.saved_findings, comparison.a.origin) == (1, "report")
    assert comparison.threshold == 0.10


def test_markdown_when_piped_and_terminal_when_asked(runner, app):
    markdown = run(runner, app, CPU_ONLY, H200)  # CliRunner's stdout is not a TTY
    assert markdown.exit_code == 0 and markdown.stdout.startswith("### gpu-advisor compare")
    terminal = run(runner, app, CPU_ONLY, H200, "-f", "terminal")
    assert terminal.exit_code == 0 and "Facts that differ" in terminal.stdout and "###" not in terminal.stdout


def test_output_file_format_follows_the_extension(runner, app, tmp_path):
    target = tmp_path / "cmp.json"
    result = run(runner, app, CPU_ONLY, H200, "-o", target)
    assert result.exit_code == 0 and result.stdout == ""
    assert Comparison.model_validate_json(target.read_text()).b.label == "B"
    text_target = tmp_path / "cmp.txt"
    assert run(runner, app, CPU_ONLY, H200, "-o", text_target).exit_code == 0
    assert "Facts that differ" in text_target.read_text() and "\x1b[" not in text_target.read_text()


def test_pasted_text_against_a_report_says_what_was_re_evaluated(runner, app):
    result = run(runner, app, H200_COLLECT_ENV, H200, "-f", "markdown")
    assert result.exit_code == 0
    assert "(pasted text," in result.stdout and "Rules re-evaluated on A and B" in result.stdout
    assert "host.libc" not in result.stdout  # both sides spell libc the same way


def test_redaction_is_shared_and_on_by_default(runner, app, tmp_path):
    """One redactor for both sides: the same private value gets the same placeholder, so it is no difference."""
    report_a, report_b = fixture_report(H200), fixture_report(H200)
    report_a.facts.env.variables["CUDA_HOME"] = "/home/alice-secret/cuda"
    report_b.facts.env.variables["CUDA_HOME"] = "/home/alice-secret/cuda-13"
    report_a.facts.env.variables["CUDA_VISIBLE_DEVICES"] = "GPU-12345678-1234-1234-1234-123456789abc"
    report_b.facts.env.variables["CUDA_VISIBLE_DEVICES"] = "GPU-12345678-1234-1234-1234-123456789abc"
    (tmp_path / "a.json").write_text(report_a.model_dump_json())
    (tmp_path / "b.json").write_text(report_b.model_dump_json())
    redacted = Comparison.model_validate_json(run(runner, app, tmp_path / "a.json", tmp_path / "b.json", "-f", "json").stdout)
    assert [(d.path, d.a, d.b) for d in redacted.facts.differences] == [
        ("env.CUDA_HOME", "/home/{user}/cuda", "/home/{user}/cuda-13")]
    assert redacted.a.redacted and redacted.b.redacted
    kept = run(runner, app, tmp_path / "a.json", tmp_path / "b.json", "-f", "json", "--no-redact").stdout
    assert "alice-secret" in kept and "alice-secret" not in json.dumps(redacted.model_dump(mode="json"))


def test_fail_on_regression_exits_1_only_when_asked(runner, app, tmp_path):
    before = fixture_report(H200)
    after = before.model_copy(deep=True)
    point = next(p for p in after.measurements.transfer.points if p.name == "host->device pinned 256 MiB")
    point.value = point.value / 2  # a link that trained down to half its rate after a BIOS update
    (tmp_path / "before.json").write_text(before.model_dump_json())
    (tmp_path / "after.json").write_text(after.model_dump_json())
    plain = run(runner, app, tmp_path / "before.json", tmp_path / "after.json")
    assert plain.exit_code == 0 and "regressed against A in 1 way" in plain.stdout
    failing = run(runner, app, tmp_path / "before.json", tmp_path / "after.json", "--fail-on", "medium")
    assert failing.exit_code == 1
    assert "host->device pinned 256 MiB 50% worse" in failing.stdout
    assert "1 regression of B against A" in failing.stderr
    # The flag of earlier versions still works: the same as --fail-on medium.
    assert run(runner, app, tmp_path / "before.json", tmp_path / "after.json", "--fail-on-regression").exit_code == 1
    lenient = run(runner, app, tmp_path / "before.json", tmp_path / "after.json", "--fail-on", "medium",
                  "--threshold", "0.6")
    assert lenient.exit_code == 0
    improved = run(runner, app, tmp_path / "after.json", tmp_path / "before.json", "--fail-on", "medium")
    assert improved.exit_code == 0


def test_bad_threshold_is_a_usage_error(runner, app):
    assert run(runner, app, CPU_ONLY, H200, "--threshold", "-1").exit_code == 2


@pytest.mark.parametrize("make_input, message", [
    (lambda tmp: tmp / "missing.json", "no such file"),
    (lambda tmp: _write(tmp / "broken.json", '{"schema_version": 1, "meta": {'), "not valid JSON"),
    (lambda tmp: _write(tmp / "other.json", '{"hello": 1}'), "not a gpu-advisor report"),
    (lambda tmp: _write(tmp / "notes.txt", "my GPU is slow, please help\n"), "notes.txt"),
])
def test_bad_input_is_a_one_line_error_with_exit_2(runner, app, tmp_path, make_input, message):
    result = run(runner, app, make_input(tmp_path), H200)
    assert isinstance(result.exception, CliError), result.output
    assert result.exception.exit_code == 2 and message in result.exception.message
    assert "\n" not in result.exception.message


def test_both_from_stdin_is_refused(runner, app):
    result = run(runner, app, "-", "-")
    assert isinstance(result.exception, CliError) and "stdin" in result.exception.message


def test_one_side_from_stdin(runner, app):
    result = runner.invoke(app, ["compare", "-", str(H200), "-f", "json"], input=H200_COLLECT_ENV.read_text())
    assert result.exit_code == 0, result.output
    comparison = Comparison.model_validate_json(result.stdout)
    assert (comparison.a.source, comparison.a.origin, comparison.a.saved_findings) == ("<stdin>", "text", None)


def test_env_report_against_diagnose_report(runner, app):
    comparison = Comparison.model_validate_json(run(runner, app, CPU_ONLY_ENV, CPU_ONLY, "-f", "json").stdout)
    assert comparison.measurements_note.startswith("A holds no measurements")
    assert comparison.facts.differences == []  # same machine, two minutes apart (memory_available is ignored)


def _write(path, text):
    path.write_text(text)
    return path


def test_compare_never_imports_torch(poisoned_torch):
    for fmt in ("terminal", "markdown", "json"):
        result = run_without_torch(poisoned_torch, "compare", str(H200_COLLECT_ENV), str(H200), "-f", fmt,
                                   "--fail-on", "medium")
        assert result.returncode == 0, result.stderr
        assert TORCH_POISON not in result.stderr and result.stdout.strip()


def test_entry_point_prints_one_line_and_exits_2_on_bad_input(tmp_path, poisoned_torch):
    result = run_without_torch(poisoned_torch, "compare", str(tmp_path / "nope.json"), str(H200))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"gpu-advisor: error: {tmp_path / 'nope.json'}: no such file"]
