"""How long the probe takes next to the floor it cannot beat (`import torch` + CUDA init) and collect_env.

Each command runs in a fresh interpreter, interleaved round by round so slow drift on a shared machine hits
all three alike. One untimed warm-up round first fills the page cache (a cold first import of torch measures
the disk, not the code).

    python benchmarks/bench_env_speed.py [--runs 3] [--no-warmup]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _cuda_available() -> bool:
    probe = subprocess.run([sys.executable, "-c", "import torch; print(torch.cuda.is_available())"],
                           capture_output=True, text=True, cwd=REPO)
    return probe.stdout.strip() == "True"


def _commands(cuda: bool) -> dict[str, list[str]]:
    floor = "import torch; torch.cuda.init()" if cuda else "import torch"
    return {
        f"floor: {floor}": [sys.executable, "-c", floor],
        "probe: collect_facts()": [sys.executable, "-c", "from advisor.probe import collect_facts; collect_facts()"],
        "gpu-advisor env (whole command, JSON out)": [sys.executable, "-m", "advisor", "env", "--format", "json",
                                                       "--output", "/dev/null"],
        "python -m torch.utils.collect_env": [sys.executable, "-m", "torch.utils.collect_env"],
    }


def _time(command: list[str]) -> tuple[float, float]:
    """Wall seconds, and CPU seconds (user + system) of the child: steadier than wall on a busy machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-warmup", action="store_true")
    args = parser.parse_args()

    commands = _commands(_cuda_available())
    if not args.no_warmup:
        for command in commands.values():
            _time(command)
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            wall, cpu = _time(command)
            walls[name].append(wall)
            cpus[name].append(cpu)

    medians = {name: statistics.median(values) for name, values in walls.items()}
    cpu_medians = {name: statistics.median(values) for name, values in cpus.items()}
    floor, cpu_floor = next(iter(medians.values())), next(iter(cpu_medians.values()))
    width = max(len(name) for name in medians)
    print(f"{'command':<{width}}  wall s  x floor   cpu s  x floor  wall runs (s)")
    for name, median in medians.items():
        runs = " ".join(f"{t:.2f}" for t in walls[name])
        cpu = cpu_medians[name]
        print(f"{name:<{width}}  {median:6.2f}  {median / floor:7.2f}  {cpu:6.2f}  {cpu / cpu_floor:7.2f}  {runs}")


if __name__ == "__main__":
    main()
