"""The README's promise on a fresh machine: two commands, each setting up what is missing, and CI runs exactly
those two. `make -n` shows what each would do without installing anything."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _ci_blocks() -> dict[str, str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return {name: body.strip() for name, body in re.findall(r"<!-- ci:(\w+) -->\n```bash\n(.*?)```", text, re.S)}


def _dry_run(target: str, venv: Path) -> str:
    done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(REPO), target, f"VENV={venv}"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return "\n".join(line.rstrip() for line in done.stdout.splitlines())


def test_the_readme_has_exactly_two_commands_and_ci_runs_them():
    assert _ci_blocks() == {"run": "make run", "test": "make test"}
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "for name in run test; do" in ci


def test_the_first_use_creates_the_environment_and_then_runs(tmp_path):
    venv = tmp_path / "venv"
    run = _dry_run("run", venv)
    assert "-m venv" in run and "pip install" in run
    assert run.strip().splitlines()[-1] == f"{venv}/bin/gpu-advisor diagnose"
    test = _dry_run("test", venv)
    assert "ruff check" in test and test.strip().splitlines()[-1] == f"{venv}/bin/python -m pytest -q"


def test_a_ready_environment_is_reused(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    ready = venv / ".gpu-advisor-ready"
    ready.touch()
    # Newer than pyproject.toml: nothing is installed again.
    future = (REPO / "pyproject.toml").stat().st_mtime + 60
    os.utime(ready, (future, future))
    assert _dry_run("run", venv).strip().splitlines() == [f"{venv}/bin/gpu-advisor diagnose"]
    assert "pip install" not in _dry_run("test", venv)
