"""Crossover search vs a dense sweep of the same op and mode, measured in the same run on the same GPU.

The budget: the search finds the same crossover within one grid step, in at most a fifth of the time.
Each method gets its own runner (its own CPU timing cache), so the search is not helped by the sweep's
measurements or the other way round; the order alternates between cases so neither always runs warm.

    python benchmarks/bench_crossover.py [--json results.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from advisor.measure.crossover import CrossoverRunner, CrossoverSettings  # noqa: E402

CASES = [("matmul", "float32", "resident"), ("add", "float32", "resident"), ("matmul", "float32", "transfer_pinned"),
         ("add", "float32", "sync"), ("matmul", "bfloat16", "resident")]


def main() -> None:
    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    device = torch.device("cuda", 0)
    torch.ones(1, device=device)  # context outside the comparison
    rows = []
    for number, (op, dtype, mode) in enumerate(CASES):
        results = {}
        for dense in ((False, True) if number % 2 == 0 else (True, False)):
            runner = CrossoverRunner(device, CrossoverSettings())
            grid = runner.grid(op, dtype, (mode,))  # both methods search the same grid
            result = runner.crossover(op, dtype, mode, dense=dense)
            results["dense" if dense else "search"] = (result, grid)
        search, grid = results["search"]
        dense, _ = results["dense"]
        def index(r):
            return grid.index(r.crossover_size) if r.crossover_size is not None else None
        i_s, i_d = index(search), index(dense)
        steps = abs(i_s - i_d) if i_s is not None and i_d is not None else (0 if i_s == i_d else None)
        rows.append({"case": f"{op} {dtype} {mode}", "grid_points": len(grid), "range": [grid[0], grid[-1]],
                     "search_crossover": search.crossover_size, "dense_crossover": dense.crossover_size,
                     "grid_steps_apart": steps, "search_evals": search.evaluations, "dense_evals": dense.evaluations,
                     "search_s": round(search.wall_s, 3), "dense_s": round(dense.wall_s, 3),
                     "time_ratio": round(search.wall_s / dense.wall_s, 3)})
    print(f"{'case':<32} {'grid':>5} {'search':>9} {'dense':>9} {'steps':>5} {'evals s/d':>9} {'time s/d (s)':>14} ratio")
    for r in rows:
        print(f"{r['case']:<32} {r['grid_points']:>5} {str(r['search_crossover']):>9} {str(r['dense_crossover']):>9} "
              f"{str(r['grid_steps_apart']):>5} {r['search_evals']:>4}/{r['dense_evals']:<4} "
              f"{r['search_s']:>6.2f}/{r['dense_s']:<7.2f} {r['time_ratio']:.2f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
