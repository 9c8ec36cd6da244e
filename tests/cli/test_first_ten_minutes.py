"""The fast part of benchmarks/first_ten_minutes.py, kept in the suite so it cannot rot: the commands that need
no probe (explain, compare, lint, rules, schema, an OOM message, --help) with typical and bad arguments.
The script itself also runs the probing and measuring commands, at 80 and 120 columns."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location("first_ten_minutes", REPO / "benchmarks" / "first_ten_minutes.py")
first_minutes = importlib.util.module_from_spec(_SPEC)
sys.modules["first_ten_minutes"] = first_minutes  # dataclasses look their module up there
_SPEC.loader.exec_module(first_minutes)
FAST = {"explain", "compare", "lint", "rules", "schema", "--version"}


def _fast_cases(scratch: Path):
    return [case for case in first_minutes.cases(scratch)
            if case.args and (case.args[0] in FAST or case.args[-1] == "--help" or "--explain-oom" in case.args)]


with tempfile.TemporaryDirectory() as _scratch:
    _IDS = [" ".join(Path(a).name if "/" in a else a[:30] for a in case.args) for case in _fast_cases(Path(_scratch))]


@pytest.mark.parametrize("index", range(len(_IDS)), ids=_IDS)
def test_the_first_ten_minutes(tmp_path, index):
    case = _fast_cases(tmp_path)[index]
    outcome = first_minutes.run_case(case, 80)
    assert outcome.problems == [], " ".join(case.args)
