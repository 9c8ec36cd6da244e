"""The torch probe in a child process: same facts as in-process, and a torch that crashes or hangs the
interpreter costs the child, not the report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from advisor import _torch_child
from advisor.models.facts import TorchFacts
from advisor.probe.torch_env import probe_torch

REPO = Path(__file__).resolve().parents[2]


def broken_torch(tmp_path: Path, body: str, monkeypatch) -> None:
    """A `torch` package that shadows the real one for the child (a broken install, as users have them)."""
    package = tmp_path / "torch"
    package.mkdir()
    (package / "__init__.py").write_text(body)
    # Ahead of whatever PYTHONPATH already holds (where a machine may keep the other dependencies).
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))


def test_the_child_reports_what_the_in_process_probe_reports():
    facts_json, why = _torch_child.finish(_torch_child.start())
    assert why == ""
    from_child = TorchFacts.model_validate_json(facts_json)
    assert from_child.model_dump() == probe_torch().model_dump()


def test_a_torch_that_kills_the_interpreter_is_a_fact(tmp_path, monkeypatch):
    broken_torch(tmp_path, "import os\nos.abort()\n", monkeypatch)
    facts_json, why = _torch_child.finish(_torch_child.start())
    assert facts_json is None
    assert "died with signal" in why


def test_a_torch_that_fails_to_import_is_recorded_by_the_child(tmp_path, monkeypatch):
    broken_torch(tmp_path, "raise OSError('libcudnn.so.9: cannot open shared object file')\n", monkeypatch)
    facts_json, why = _torch_child.finish(_torch_child.start())
    facts = TorchFacts.model_validate_json(facts_json)
    assert facts.import_error == "OSError: libcudnn.so.9: cannot open shared object file"


def test_a_hanging_import_is_stopped(tmp_path, monkeypatch):
    broken_torch(tmp_path, "import time\ntime.sleep(60)\n", monkeypatch)
    facts_json, why = _torch_child.finish(_torch_child.start(), timeout_s=2)
    assert facts_json is None and "longer than 2 s" in why


def test_env_reports_a_crashing_torch_with_a_finding_not_a_crash(tmp_path):
    package = tmp_path / "torch"
    package.mkdir()
    (package / "__init__.py").write_text("import os\nos.abort()\n")
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "advisor", "env", "--format", "json"], capture_output=True,
                          text=True, cwd=REPO, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "died with signal" in report["facts"]["torch"]["import_error"]
    assert "torch-not-importable" in {f["rule_id"] for f in report["findings"]}
