"""Start-up cost of the commands that must not import torch: --help, rules, explain, lint, compare.

Budget: well under 0.5 s each. Each command runs in a fresh interpreter, after one untimed warm-up round.
The floors are what any typer command here pays before gpu-advisor's own code: the interpreter, typer, and
the pydantic that typer 0.29 imports to parse every option (typer._adapters).

    python benchmarks/bench_cli_speed.py [--runs 7]

Run it with bytecode writing allowed (``env -u PYTHONDONTWRITEBYTECODE``): without .pyc files every run
compiles the sources again and the numbers say little about an installed tool.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REPORT = REPO / "tests" / "fixtures" / "reports" / "h200_diagnose.json"
PASTE = REPO / "tests" / "fixtures" / "collect_env" / "linux_h200_torch2.11_cu130.txt"

COMMANDS = {
    "--help": ["--help"],
    "rules list": ["rules", "list"],
    "rules validate": ["rules", "validate"],
    "explain report.json": ["explain", str(REPORT), "--format", "json", "--output", "/dev/null"],
    "explain collect_env.txt": ["explain", str(PASTE), "--format", "markdown", "--output", "/dev/null"],
    "compare A B": ["compare", str(REPORT), str(REPORT), "--format", "json", "--output", "/dev/null"],
    "lint benchmarks/": ["lint", str(REPO / "benchmarks")],
}
FLOORS = {
    "python -c pass": "pass",
    "import typer": "import typer",
    "import typer._adapters": "import typer._adapters",
    "import pydantic.BaseModel": "from pydantic import BaseModel",
}


def wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *argv], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def report(name: str, argv: list[str], runs: int) -> None:
    times = [wall(argv) for _ in range(runs)]
    print(f"{name:<26} {statistics.median(times):8.3f}   {' '.join(f'{t:.2f}' for t in times)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    for command in COMMANDS.values():
        wall(["-m", "advisor", *command])
    print(f"{'command':<26} median s   runs (s)")
    for name, command in COMMANDS.items():
        report(name, ["-m", "advisor", *command], args.runs)
    print(f"{'floor':<26} median s   runs (s)")
    for name, code in FLOORS.items():
        report(name, ["-c", code], args.runs)


if __name__ == "__main__":
    main()
