"""Running the CLI in-process for the hostile-input tests: exit code, stdout, stderr -- and the promises every
run must keep whatever its input (one line on stderr for bad input, never an internal error)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
CORPUS = Path(__file__).resolve().parent / "corpus"
H200_REPORT = FIXTURES / "reports" / "h200_diagnose.json"
CPU_REPORT = FIXTURES / "reports" / "cpu_only_diagnose.json"


def cli(capsys, *args: str, stdin: Optional[bytes] = None, monkeypatch=None) -> tuple[int, str, str]:
    from advisor.cli.main import run

    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    with pytest.raises(SystemExit) as exit_info:
        run([str(a) for a in args])
    out, err = capsys.readouterr()
    return exit_info.value.code or 0, out, err


def cli_process(*args: str, stdin: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess:
    """A real process: for stdin bytes, signals and anything that must not hang (``timeout`` fails the test)."""
    return subprocess.run([sys.executable, "-m", "advisor", *map(str, args)], input=stdin, capture_output=True,
                          timeout=timeout, cwd=REPO, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})


def assert_clean_failure(code: int, err: str, *, expect: Optional[str] = None) -> None:
    """Bad input: exit 2, exactly one line on stderr, which is ours and no traceback."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, (code, err[-2000:])
    assert len(lines) == 1, err[-2000:]
    assert lines[0].startswith("gpu-advisor"), lines[0]
    assert "internal error" not in lines[0] and "Traceback" not in err
    if expect is not None:
        assert expect in lines[0], lines[0]


def assert_no_internal_error(code: int, err: str) -> None:
    """Whatever the input: no traceback, no internal error; exit 0, 1 or 2 (3 is for probe failures)."""
    assert "Traceback" not in err and "internal error" not in err, err[-2000:]
    assert code in (0, 1, 2), (code, err[-2000:])
    if code == 2:
        assert len([line for line in err.splitlines() if line.strip()]) == 1, err[-2000:]
