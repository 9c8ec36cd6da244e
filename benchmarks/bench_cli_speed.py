"""Start-up cost of the commands that must not import torch: --help, rules, explain, lint, compare.

Budget: well under 0.5 s each. Each command runs in a fresh interpreter, after one untimed warm-up round.

    python benchmarks/bench_cli_speed.py [--runs 5]
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


def wall(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "advisor", *args], cwd=REPO, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for command in COMMANDS.values():
        wall(command)
    floor = statistics.median(_python_floor() for _ in range(args.runs))
    print(f"{'command':<26} median s   runs (s)          (bare python start-up: {floor:.3f} s)")
    for name, command in COMMANDS.items():
        runs = [wall(command) for _ in range(args.runs)]
        print(f"{name:<26} {statistics.median(runs):8.3f}   {' '.join(f'{r:.2f}' for r in runs)}")


def _python_floor() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], cwd=REPO)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
