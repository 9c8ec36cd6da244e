"""What keeps the light commands starting fast, checked by what they load rather than by timing (wall times
are benchmarks/bench_cli_speed.py's job: they are too noisy for a test)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.cli.main import COMMAND_MODULES, build_app, requested_command

REPO = Path(__file__).resolve().parents[2]
ADVISOR = REPO / "advisor"

# Runs the console entry, then prints what it imported and which report schemas it built.
_PROBE = """
import sys
from advisor.cli.main import run
try:
    run(sys.argv[1:])
except SystemExit:
    pass
from advisor.models.facts import HostFacts
print("MODULES", *sorted(sys.modules), file=sys.stderr)
print("HOSTFACTS_BUILT", HostFacts.__pydantic_complete__, file=sys.stderr)
"""


def _after(*args: str) -> tuple[set[str], bool]:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, cwd=REPO,
                          timeout=60)
    lines = dict(line.split(" ", 1) for line in done.stderr.splitlines() if line.startswith(("MODULES", "HOSTFACTS")))
    return set(lines["MODULES"].split()), lines["HOSTFACTS_BUILT"] == "True"


def test_rules_list_loads_only_what_listing_needs():
    modules, facts_built = _after("rules", "list")
    unwanted = {"torch", "advisor.engine.evaluate", "advisor.models.report", "advisor.cli.diagnose_cmd",
                "advisor.cli.explain_cmd", "advisor.lint"}
    assert not unwanted & modules
    assert "advisor.models.facts" in modules  # fact paths are still checked against the model ...
    assert not facts_built  # ... from its fields alone, without building its validator


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
