"""Do the numbers repeat? N back-to-back `gpu-advisor diagnose` runs on one idle GPU, then `compare` of every pair:
per measurement the run-to-run spread, and how many differences compare flags (target 0) -- plus a positive
control, a run with a real change (CUDA_LAUNCH_BLOCKING=1: every launch waits for the GPU), that compare must
still flag against the first run.

    python benchmarks/bench_repeatability.py run --runs 3 --control launch_blocking --dir OUT [--json out.json]
    python benchmarks/bench_repeatability.py analyze run_1.json run_2.json ... [--control control.json] [--json out.json]

Each run is a separate process, as a user would start it (`python -m advisor diagnose --format json`).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CONTROLS = {"launch_blocking": {"CUDA_LAUNCH_BLOCKING": "1"}}
FLAGGED = ("worse", "better", "changed")


def diagnose(path: Path, extra_env: Optional[dict[str, str]] = None) -> float:
    env = {**os.environ, **(extra_env or {})}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "advisor", "diagnose", "--format", "json", "-o", str(path)], env=env,
                   check=False, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def load(path: Path) -> Any:
    from advisor.models.load import load_report_json

    return load_report_json(path.read_text(), str(path))


def flagged(a: Any, b: Any, *, contended: bool = False) -> list[str]:
    """Differences compare flags; with ``contended``, those it left "unclear" only because a side was timed under
    CPU load (they would otherwise have been flagged or not -- listed so that the count hides nothing)."""
    from advisor.compare import compare_reports

    comparison = compare_reports(a, b)
    if contended:
        return [f"{m.group}: {m.name}: {m.a_text} -> {m.b_text}" for m in comparison.measurements
                if m.verdict == "unclear" and "other processes" in m.note]
    return [f"{m.group}: {m.name}: {m.verdict} ({m.a_text} -> {m.b_text})"
            for m in comparison.measurements if m.verdict in FLAGGED]


def spreads(reports: list[Any]) -> dict[str, Any]:
    """Per scalar measurement: (max - min) / median over the runs; per crossover: the answers and whether every
    pair of runs' reproducible stretches overlap."""
    from advisor.compare.measurements_diff import _GROUPS

    scalars: dict[str, list[float]] = {}
    for report in reports:
        for group, items in _GROUPS:
            for item in items(report.measurements):
                if item.status == "ok" and item.value is not None:
                    scalars.setdefault(f"{group}: {item.name}", []).append(item.value)
    scalar_rows = {name: {"values": [round(v, 4) for v in values],
                          "spread": round((max(values) - min(values)) / statistics.median(values), 4)
                          if statistics.median(values) else None}
                   for name, values in scalars.items() if len(values) == len(reports)}
    crossovers: dict[str, Any] = {}
    from advisor.formatting import describe_crossover_bounds

    for report in reports:
        for result in report.measurements.crossover:
            if result.status != "ok":
                continue
            key = f"{result.op} {result.dtype} {result.mode}"
            row = crossovers.setdefault(key, {"crossover_size": [], "reproducible": []})
            row["crossover_size"].append(result.crossover_size)
            row["reproducible"].append(describe_crossover_bounds(result) if result.clear_factor else None)
    return {"scalars": scalar_rows, "crossovers": crossovers}


def analyze(paths: list[Path], control: Optional[Path]) -> dict[str, Any]:
    reports = [load(p) for p in paths]
    pairs = {f"{i + 1} vs {j + 1}": flagged(reports[i], reports[j])
             for i, j in itertools.combinations(range(len(reports)), 2)}
    result: dict[str, Any] = {
        "runs": len(reports),
        "gpu": reports[0].measurements.run.device_name,
        "wall_s": [r.measurements.run.wall_s for r in reports],
        "flagged_per_pair": {k: len(v) for k, v in pairs.items()},
        "flagged_total": sum(len(v) for v in pairs.values()),
        "flagged": pairs,
        "unclear_because_contended": {f"{i + 1} vs {j + 1}": flagged(reports[i], reports[j], contended=True)
                                      for i, j in itertools.combinations(range(len(reports)), 2)},
        "notes": [r.measurements.run.notes for r in reports],
        **spreads(reports),
    }
    scalar_spreads = [row["spread"] for row in result["scalars"].values() if row["spread"] is not None]
    if scalar_spreads:
        result["scalar_spread_median"] = round(statistics.median(scalar_spreads), 4)
        result["scalar_spread_max"] = round(max(scalar_spreads), 4)
    if control is not None:  # against the last run: the first one on a freshly started machine may be cold
        found = flagged(reports[-1], load(control))
        result["control"] = {"file": control.name, "flagged": len(found), "differences": found}
    return result


def print_summary(result: dict[str, Any]) -> None:
    print(f"{result['runs']} runs on {result['gpu']}; walls {result['wall_s']}")
    print(f"flagged differences per pair: {result['flagged_per_pair']} (total {result['flagged_total']}, target 0)")
    for pair, items in result["flagged"].items():
        for item in items:
            print(f"  {pair}: {item}")
    hidden = {k: len(v) for k, v in result["unclear_because_contended"].items()}
    print(f"left unclear because a side was timed under CPU load: {hidden}")
    print(f"scalar run-to-run spread (max-min)/median: median {result.get('scalar_spread_median')}, "
          f"max {result.get('scalar_spread_max')}")
    for name, row in sorted(result["scalars"].items(), key=lambda kv: -(kv[1]["spread"] or 0))[:12]:
        print(f"  {row['spread']:.3f}  {name}  {row['values']}")
    moved = {k: v for k, v in result["crossovers"].items() if len(set(v["crossover_size"])) > 1}
    print(f"crossovers: {len(result['crossovers'])}, first GPU win moved between runs in {len(moved)}")
    for key, row in list(moved.items())[:20]:
        print(f"  {key}: {row['crossover_size']}  |  {' || '.join(str(x) for x in row['reproducible'])}")
    if "control" in result:
        print(f"positive control ({result['control']['file']}): {result['control']['flagged']} differences flagged")
        for item in result["control"]["differences"][:15]:
            print(f"  {item}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("--runs", type=int, default=3)
    run.add_argument("--control", choices=sorted(CONTROLS), default=None)
    run.add_argument("--dir", default=".")
    run.add_argument("--json")
    again = sub.add_parser("analyze")
    again.add_argument("reports", nargs="+")
    again.add_argument("--control")
    again.add_argument("--json")
    args = parser.parse_args()
    if args.command == "run":
        folder = Path(args.dir)
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for index in range(args.runs):
            path = folder / f"repeat_{index + 1}.json"
            print(f"run {index + 1}: {diagnose(path):.1f} s", flush=True)
            paths.append(path)
        control = None
        if args.control:
            control = folder / f"control_{args.control}.json"
            print(f"control {args.control}: {diagnose(control, CONTROLS[args.control]):.1f} s", flush=True)
        result = analyze(paths, control)
    else:
        result = analyze([Path(p) for p in args.reports], Path(args.control) if args.control else None)
    print_summary(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
