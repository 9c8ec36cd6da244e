"""The torch probe in a child process: same facts as in-process, and a torch that crashes or hangs the
interpreter costs the child, not the report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from advisor import _torch_child
from advisor.probe.torch_env import probe_torch, torch_facts

REPO = Path(__file__).resolve().parents[2]


def broken_torch(tmp_path: Path, body: str, monkeypatch) -> None:
    """A `torch` package that shadows the real one for the child (a broken install, as users have them)."""
    package = tmp_path / "torch"
    package.mkdir()
    (package / "__init__.py").write_text(body)
    # Ahead of whatever PYTHONPATH already holds (where a machine may keep the other dependencies).
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))


def test_the_child_reports_what_the_in_process_probe_reports():
    fields, why = _torch_child.finish(_torch_child.start())
    assert why == ""
    assert torch_facts(fields).model_dump() == probe_torch().model_dump()


def test_the_child_loads_torch_and_the_probe_only():
    # pydantic (and the rest of gpu-advisor) in the child would sit between torch's import and the facts.
    code = (_torch_child._CHILD_CODE + "import sys\n"
            "print('LOADED', ' '.join(m for m in ('pydantic', 'advisor.models', 'typer', 'rich', 'yaml')"
            " if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.splitlines()[-1].split() == ["LOADED"], done.stdout.splitlines()[-1]


def test_a_torch_that_kills_the_interpreter_is_a_fact(tmp_path, monkeypatch):
    broken_torch(tmp_path, "import os\nos.abort()\n", monkeypatch)
    fields, why = _torch_child.finish(_torch_child.start())
    assert fields is None
    assert "died with signal" in why


def test_a_torch_that_fails_to_import_is_recorded_by_the_child(tmp_path, monkeypatch):
    broken_torch(tmp_path, "raise OSError('libcudnn.so.9: cannot open shared object file')\n", monkeypatch)
    fields, why = _torch_child.finish(_torch_child.start())
    facts = torch_facts(fields)
    assert facts.import_error == "OSError: libcudnn.so.9: cannot open shared object file"


def test_a_hanging_import_is_stopped(tmp_path, monkeypatch):
    broken_torch(tmp_path, "import time\ntime.sleep(60)\n", monkeypatch)
    fields, why = _torch_child.finish(_torch_child.start(), timeout_s=2)
    assert fields is None and "longer than 2 s" in why


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
