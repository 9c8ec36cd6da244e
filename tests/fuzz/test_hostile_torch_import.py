"""A torch whose import fails: the report names torch's real error, not the one a second import produces."""

from __future__ import annotations

import json
import subprocess
import sys

from fuzz_helpers import REPO

FAKE_INIT = '''
import torch._state as _state
if _state.loaded:
    raise RuntimeError("function '_has_torch_function' already has a docstring")
_state.loaded = True
raise ImportError("libcudart.so.13: cannot open shared object file: No such file or directory")
'''


def test_env_reports_the_first_import_error(tmp_path):
    package = tmp_path / "torch"
    package.mkdir()
    (package / "__init__.py").write_text(FAKE_INIT)
    (package / "_state.py").write_text("loaded = False\n")
    done = subprocess.run([sys.executable, "-m", "advisor", "env", "--format", "json", "--no-redact"],
                          capture_output=True, text=True, timeout=120, cwd=REPO,
                          env={"PYTHONPATH": f"{REPO}:{tmp_path}", "PATH": "/usr/bin:/bin"})
    assert "Traceback" not in done.stderr
    torch_facts = json.loads(done.stdout)["facts"]["torch"]
    assert "libcudart.so.13" in torch_facts["import_error"]
    assert "docstring" not in done.stdout


def test_in_process_probe_keeps_the_first_failure(monkeypatch):
    from advisor.probe import torch_env

    monkeypatch.setattr(torch_env, "_FIRST_IMPORT_FAILURE", None)
    torch_env.remember_import_failure(ImportError("the real one"))
    torch_env.remember_import_failure(RuntimeError("a secondary one"))
    module, fields = torch_env._import_torch()
    assert module is None and "the real one" in fields["import_error"]
