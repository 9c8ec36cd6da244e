"""How fast `gpu-advisor lint` is on realistic code: lines per second over >= 10,000 lines.

The code is the lint corpus (training loops, benchmarks, inference services, notebooks), copied as many
times as it takes to pass --lines. Two layouts are timed, each --runs times after one untimed warm-up:
many files (a project folder) and the same code joined into one big module (one scope, the worst case for
the data-flow pass) in one process, then the project on all cores (`lint`'s default for a folder of many
files). The time covers everything `gpu-advisor lint` does: discover, read, parse, analyse,
check -- in this process, so interpreter start-up (~50 ms) is not counted.

    python benchmarks/bench_lint.py [--lines 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "lint_corpus"
sys.path.insert(0, str(REPO))

from advisor.lint import lint_paths  # noqa: E402  (after the path tweak, so it runs from a checkout)


def build(root: Path, lines: int) -> tuple[int, int]:
    """Copy the corpus into root/project until it holds >= lines; join the .py copies into root/big.py."""
    sources = sorted(CORPUS.glob("scripts/*.py")) + sorted(CORPUS.glob("notebooks/*.ipynb"))
    project = root / "project"
    project.mkdir()
    total = copy = 0
    joined: list[str] = []
    while total < lines:
        copy += 1
        for source in sources:
            target = project / f"{source.stem}_{copy}{source.suffix}"
            shutil.copyfile(source, target)
            if source.suffix == ".py":
                text = source.read_text(encoding="utf-8")
                total += text.count("\n")
                joined.append(text)
            else:
                total += _notebook_lines(source)
    parts, count = [], 0
    for text in joined * 2:  # scripts only, one after another, until the module is long enough
        if count >= lines:
            break
        parts.append(text)
        count += text.count("\n") + 1
    big = "\n".join(parts)
    (root / "big.py").write_text(big, encoding="utf-8")
    return total, big.count("\n")


def _notebook_lines(path: Path) -> int:
    from advisor.lint.source import notebook_unit

    return len(notebook_unit(path.read_bytes(), path.name).lines)


def timed(path: Path, runs: int, jobs: int | None = 1) -> tuple[list[float], list[float], int, int]:
    """Wall and CPU seconds per run: on a shared machine CPU time is the steadier of the two (in this process
    only: with jobs > 1 the workers' CPU time is not in it, and wall time is the number)."""
    lint_paths([str(path)], jobs=jobs)  # warm-up: imports, page cache
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        run = lint_paths([str(path)], jobs=jobs)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus, run.lines_checked, len(run.findings)


def parse_time(path: Path, runs: int) -> float:
    """The best time Python's own parser takes on the code: a yardstick of this machine's speed, since the
    session machines differ several-fold (the same lint measured 0.31 s on one and 1.1 s on another)."""
    import ast

    text = path.read_text(encoding="utf-8")
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        ast.parse(text)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        build(root, args.lines)
        yardstick = parse_time(root / "big.py", args.runs)
        print(f"yardstick      : ast.parse of the big module alone, best of {args.runs}: {yardstick * 1000:6.1f} ms "
              "(machines differ 3-5x; compare lint times as multiples of this)")
        from advisor.lint.parallel import available_cores

        for label, path, jobs in (("project folder", root / "project", 1), ("one big module", root / "big.py", 1),
                                  (f"project, {available_cores()} cores", root / "project", None)):
            walls, cpus, lines, findings = timed(path, args.runs, jobs)
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            print(f"{label:16s}: {lines:6d} lines, {findings:4d} findings; median wall {wall * 1000:6.1f} ms "
                  f"(best {min(walls) * 1000:6.1f}), CPU {cpu * 1000:6.1f} ms (best {min(cpus) * 1000:6.1f}) "
                  f"-> {lines / wall:7,.0f} lines/s wall, {lines / cpu:7,.0f} lines/s CPU; "
                  f"best CPU = {min(cpus) / yardstick:.1f} x the parse")


if __name__ == "__main__":
    main()
