"""Malformed reports and command lines: exit 2 with one line, never an internal error."""

from __future__ import annotations

import copy
import json

import pytest
from fuzz_helpers import H200_REPORT, assert_clean_failure, cli

BASE = json.loads(H200_REPORT.read_text())


def _write(tmp_path, text: str):
    path = tmp_path / "report.json"
    path.write_text(text)
    return path


def _mutated(change) -> str:
    document = copy.deepcopy(BASE)
    change(document)
    return json.dumps(document)


def _crossover_ok_without_size(document):
    first = document["measurements"]["crossover"][0]
    first.update(status="ok", crossover_size=None, gpu_never_wins=False, gpu_always_wins=False)


@pytest.mark.parametrize("text, expect", [
    ('{"schema_version": 1, "meta": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ('{"schema_version": 1, "meta": {}, "x": ' + "9" * 5000 + "}", "out of range"),
    ('{"schema_version": 1, "meta": {}, "x": 1e400}', "out of range"),
    ('{"schema_version": 1, "meta": {}, "x": NaN}', "not a JSON number"),
    ('{"schema_version": 1, "meta": {}, "x": -Infinity}', "not a JSON number"),
    (_mutated(_crossover_ok_without_size), "crossover marked ok"),
])
def test_malformed_report_is_one_line(tmp_path, capsys, text, expect):
    code, _, err = cli(capsys, "explain", _write(tmp_path, text))
    assert_clean_failure(code, err, expect=expect)


@pytest.mark.parametrize("arch_list", [["sm_9"], ["sm_"], ["compute_1"], ["sm_99999999"], ["sm_9a", "sm_90"]])
def test_odd_arch_entries_are_not_a_crash(tmp_path, capsys, arch_list):
    def change(document):
        document["facts"]["torch"]["arch_list"] = arch_list

    code, _, err = cli(capsys, "explain", _write(tmp_path, _mutated(change)), "-f", "json")
    assert code == 0, err


@pytest.mark.parametrize("args, expect", [
    (["explain"], "Missing argument"),
    (["explain", "--bogus", "x"], "No such option: --bogus"),
    (["no-such-command"], "No such command"),
    (["compare", "--threshold", "-1", "a", "b"], "--threshold"),
    (["explain", "x.json", "--format", "html"], "--format"),
    (["lint", "--select"], "--select"),
])
def test_usage_errors_are_one_line(capsys, args, expect):
    code, out, err = cli(capsys, *args)
    assert_clean_failure(code, err, expect=expect)
    assert "╭" not in err and out == ""


@pytest.mark.parametrize("raised, expected", [(KeyboardInterrupt, 130), (EOFError, 130)])
def test_ctrl_c_and_eof_are_not_internal_errors(capsys, monkeypatch, raised, expected):
    """Run non-standalone, click hands Ctrl-C back as exit 130 and EOF as Abort: neither is a bug of ours."""
    import advisor.app.explain_service as explain_service

    def interrupted(*args, **kwargs):
        raise raised

    monkeypatch.setattr(explain_service, "load_any_report", interrupted)
    code, _, err = cli(capsys, "explain", "whatever.json")
    assert code == expected and "internal error" not in err and "Traceback" not in err
