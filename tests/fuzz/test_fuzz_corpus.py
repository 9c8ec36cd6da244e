"""Replays the regression corpus (tests/fuzz/corpus/README.md): every minimal reproducer, every run."""

from __future__ import annotations

import json
import shutil
import time

import pytest
from fuzz_helpers import CORPUS, assert_clean_failure, assert_no_internal_error, cli

SECRETS = ("hunter2", "alice smith", "lab.example.com", "gpu7")


def _files(folder: str) -> list:
    return sorted((CORPUS / folder).iterdir())


@pytest.mark.parametrize("path", _files("reports") + _files("pastes"), ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("fmt", ["terminal", "markdown", "json"])
def test_corpus_report_or_paste(capsys, path, fmt):
    started = time.perf_counter()
    code, out, err = cli(capsys, "explain", path, "-f", fmt)
    assert time.perf_counter() - started < 60
    assert_no_internal_error(code, err)
    assert "\x1b]" not in out and "\x07" not in out and "\x1b[2J" not in out
    if fmt != "json":
        assert "\u202e" not in out
    for secret in SECRETS:
        assert secret not in out


@pytest.mark.parametrize("path", _files("notebooks"), ids=lambda p: p.name)
def test_corpus_notebook(capsys, path):
    code, out, err = cli(capsys, "lint", path, "-f", "json")
    if code == 2:  # a file named alone that cannot be linted is bad input: one line, exit 2
        assert_clean_failure(code, err, expect="cannot be linted")
        return
    assert code in (0, 1) and "Traceback" not in err and "internal error" not in err, err
    document = json.loads(out)
    assert document["files_checked"] + len(document["notes"]) >= 1


def test_corpus_notebooks_as_one_folder(capsys):
    """One bad notebook never aborts the rest of the folder."""
    code, out, err = cli(capsys, "lint", CORPUS / "notebooks", "-f", "json")
    assert code in (0, 1), err
    document = json.loads(out)
    assert document["files_checked"] >= 3


@pytest.mark.parametrize("path", _files("rules"), ids=lambda p: p.name)
def test_corpus_rule(tmp_path, capsys, path):
    folder = tmp_path / "perf"
    folder.mkdir()
    shutil.copy(path, folder / path.name)
    started = time.perf_counter()
    code, _, err = cli(capsys, "rules", "validate", tmp_path)
    assert time.perf_counter() - started < 20
    # validate lists one problem per line, like a linter: here exactly one, naming the file
    problems = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(problems) == 1 and path.name in problems[0], err
    assert "Traceback" not in err and "internal error" not in err


@pytest.mark.parametrize("path", _files("oom"), ids=lambda p: p.name)
def test_corpus_oom(capsys, path):
    code, _, err = cli(capsys, "memory", "--explain-oom", path, "-f", "markdown")
    assert_no_internal_error(code, err)


@pytest.mark.parametrize("argv", json.loads((CORPUS / "command_lines.json").read_text()), ids=" ".join)
def test_corpus_command_line(capsys, argv):
    code, _, err = cli(capsys, *argv)
    assert_clean_failure(code, err)
