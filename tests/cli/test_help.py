"""--help for every command at 80 and 120 columns, through the real application."""

from __future__ import annotations

import pytest

from advisor.cli.main import build_app
from tests.cli.help_check import COMMANDS, help_problems


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "gpu-advisor")
def test_help_reads_like_a_unix_tools(runner, command, width):
    result = runner.invoke(build_app(), [*command, "--help"], env={"COLUMNS": str(width)}, prog_name="gpu-advisor")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: gpu-advisor")
    assert help_problems(result.stdout, width) == []


def test_the_problems_are_caught():
    broken = ("Options:\n  --budget <float range>  Wall time (default 30, --quick 10); see --fail-\n"
              "                          on.\n  --code <list[Path]>     Lint these files/notebooks/directo…\n")
    problems = help_problems(broken, 80)
    assert any("Python type" in p for p in problems) and any("broken" in p for p in problems)
    assert any("truncated" in p for p in problems) and any("--quick" in p for p in problems)
