"""The light commands work where torch cannot be imported at all: `--help`, `rules`, `explain` and `lint` are
run against a `torch` that fails loudly when imported, and must succeed without touching it. (Start-up wall
times are benchmarks/bench_cli_speed.py's job: they are too noisy for a test.)"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.cli.main import COMMAND_MODULES, build_app, requested_command
from tests.no_torch import TORCH_POISON, run_without_torch

REPO = Path(__file__).resolve().parents[2]
ADVISOR = REPO / "advisor"
REPORT = REPO / "tests" / "fixtures" / "reports" / "cpu_only_env.json"


@pytest.mark.parametrize("args, exit_code", [
    (["--help"], 0), (["rules", "list"], 0), (["rules", "show", "mig-enabled"], 0), (["rules", "validate"], 0),
    (["explain", str(REPORT), "-f", "markdown"], 0), (["explain", str(REPORT), "-f", "json"], 0),
    (["lint", "--list-checks"], 0), (["lint", str(REPO / "tests" / "lint_corpus" / "scripts")], 1),
])
def test_light_commands_never_import_torch(poisoned_torch, args, exit_code):
    done = run_without_torch(poisoned_torch, *args)
    assert TORCH_POISON not in done.stderr, f"{args} imported torch:\n{done.stderr}"
    assert done.returncode == exit_code, done.stderr
    assert done.stdout.strip()


def test_the_poison_works(poisoned_torch):
    # Without this, a broken fixture would make every test above pass vacuously.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(poisoned_torch), str(REPO)])}
    done = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True, text=True, env=env)
    assert TORCH_POISON in done.stderr and done.returncode != 0


@pytest.mark.parametrize("args, expected", [
    (["rules", "list"], "rules"), (["explain", "r.json"], "explain"), (["--help"], None), (["--version"], None),
    ([], None), (["rulez"], None), (["--help", "rules"], None),
])
def test_a_run_builds_only_the_command_it_names(args, expected):
    assert requested_command(args) == expected


def test_the_whole_application_lists_every_command():
    app = build_app()
    names = [c.name for c in app.registered_commands] + [g.name for g in app.registered_groups]
    assert sorted(names) == sorted(COMMAND_MODULES)


def test_command_and_model_modules_keep_annotations_as_objects():
    # typer (commands) and pydantic (models) read these annotations at start-up; strings must be evaluated.
    modules = [ADVISOR / "cli" / "main.py", *ADVISOR.glob("cli/*_cmd.py"), *ADVISOR.glob("models/*.py"),
               *(ADVISOR / "engine" / name for name in ("conditions.py", "derive.py", "rule.py"))]
    model_free = {"env_allowlist.py", "load.py"}  # no models: nothing reads their annotations at start-up
    for path in modules:
        if path.name not in model_free:
            body = ast.parse(path.read_text()).body
            assert not any(isinstance(node, ast.ImportFrom) and node.module == "__future__" for node in body), path
