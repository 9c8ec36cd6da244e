"""Files: capped, non-blocking reads of every input; atomic -o; -o never an input; `-o -` is stdout."""

from __future__ import annotations

import json
import os
import threading

import pytest
from fuzz_helpers import H200_REPORT, assert_clean_failure, cli, cli_process

from advisor.safe_io import InputRefused, read_capped, write_atomic


def test_read_capped_refuses_a_device_without_reading_it():
    with pytest.raises(InputRefused, match="device"):
        read_capped("/dev/zero")


def test_read_capped_never_blocks_on_a_fifo(tmp_path):
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(pytest.raises(InputRefused, read_capped, fifo)))
    worker.start()
    worker.join(5)
    assert not worker.is_alive(), "read_capped blocked on a FIFO"
    assert "FIFO" in str(result[0].value)


def test_read_capped_caps_regular_files(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 2048)
    assert read_capped(big, 4096) == b"x" * 2048
    with pytest.raises(InputRefused, match="limit"):
        read_capped(big, 1024)


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "symlink-to-zero"])
def test_explain_refuses_non_regular_inputs_in_one_line(tmp_path, target):
    path = tmp_path / "input.json"
    if target == "/dev/zero":
        path = "/dev/zero"
    elif target == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    done = cli_process("explain", path, timeout=60)
    assert_clean_failure(done.returncode, done.stderr.decode(), expect="not a regular file")


def test_stdin_is_capped(monkeypatch):
    import advisor.app.inputs as inputs

    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1000)
    done_stdin = b"{" + b" " * 5000 + b"}"
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(done_stdin)))
    from advisor.app.errors import AdvisorError

    with pytest.raises(AdvisorError, match="limit"):
        inputs.read_input("-")


def test_non_utf8_stdin_is_one_line():
    done = cli_process("explain", "-", stdin=b"gpu \xfa not text \x80\x81" * 10)
    assert_clean_failure(done.returncode, done.stderr.decode(), expect="not a text file")


def test_write_atomic_keeps_the_old_file_when_rendering_fails(tmp_path):
    target = tmp_path / "out.md"
    target.write_text("previous report\n")

    def half_then_fail(handle):
        handle.write("half a rep")
        raise RuntimeError("renderer bug")

    with pytest.raises(RuntimeError):
        write_atomic(target, half_then_fail)
    assert target.read_text() == "previous report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"], "temporary file left behind"


def test_failed_render_leaves_no_partial_output(tmp_path, capsys, monkeypatch):
    import advisor.report.markdown as markdown

    def broken(report):
        raise RuntimeError("renderer bug")

    monkeypatch.setattr(markdown, "render_markdown", broken)
    out = tmp_path / "report.md"
    with pytest.raises(SystemExit):
        from advisor.cli.main import run

        run(["explain", str(H200_REPORT), "-o", str(out)])
    assert not out.exists()


@pytest.mark.parametrize("command", ["explain", "compare"])
def test_output_is_never_the_input(tmp_path, capsys, command):
    copy = tmp_path / "report.json"
    original = H200_REPORT.read_text()
    copy.write_text(original)
    args = [command, copy] if command == "explain" else [command, H200_REPORT, copy]
    code, _, err = cli(capsys, *args, "-o", tmp_path / "." / "report.json")
    assert_clean_failure(code, err, expect="input file")
    assert copy.read_text() == original


def test_output_dash_is_stdout(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli(capsys, "explain", H200_REPORT, "-o", "-", "--format", "json")
    assert code == 0 and json.loads(out)["schema_version"] == 1
    assert not (tmp_path / "-").exists()


def test_lint_output_is_never_a_linted_source(tmp_path, capsys):
    script = tmp_path / "train.py"
    script.write_text("import torch\nx = torch.zeros(3).cuda()\n")
    code, _, err = cli(capsys, "lint", script, "-f", "json", "-o", script)
    assert code == 2 and "being linted" in err and "Traceback" not in err
    code, _, err = cli(capsys, "lint", tmp_path, "-f", "json", "-o", tmp_path / "other.py")
    assert code == 2 and "being linted" in err
    assert script.read_text().startswith("import torch")


def test_lint_output_dash_is_stdout(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text("import torch\n")
    code, out, _ = cli(capsys, "lint", "a.py", "-f", "json", "-o", "-")
    assert code == 0 and json.loads(out)["files_checked"] == 1 and not (tmp_path / "-").exists()
