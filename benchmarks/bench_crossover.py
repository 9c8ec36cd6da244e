"""Crossover search vs a dense sweep of the same op and mode, measured in the same run on the same GPU.

The budget: the search finds the same crossover within one grid step, in at most a fifth of the time.
Each method gets its own runner (its own CPU timing cache), so the search is not helped by the sweep's
measurements or the other way round; the order alternates between cases so neither always runs warm.
The dense sweep runs twice: how far two dense sweeps land apart is the noise floor of "the answer".

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
        order = ("search", "dense", "dense2") if number % 2 == 0 else ("dense", "search", "dense2")
        for name in order:
            runner = CrossoverRunner(device, CrossoverSettings())
            grid = runner.grid(op, dtype, (mode,))  # every method searches the same grid
            results[name] = (runner.crossover(op, dtype, mode, dense=name != "search"), grid)
            runner.release()
        search, grid = results["search"]
        dense, dense2 = results["dense"][0], results["dense2"][0]

        def steps(a, b):
            if a.crossover_size is None or b.crossover_size is None:
                return 0 if a.crossover_size == b.crossover_size else None
            return abs(grid.index(a.crossover_size) - grid.index(b.crossover_size))

        rows.append({"case": f"{op} {dtype} {mode}", "grid_points": len(grid), "range": [grid[0], grid[-1]],
                     "search_crossover": search.crossover_size, "dense_crossover": dense.crossover_size,
                     "dense2_crossover": dense2.crossover_size, "grid_steps_apart": steps(search, dense),
                     "dense_vs_dense2_steps": steps(dense, dense2),
                     "search_evals": search.evaluations, "dense_evals": dense.evaluations,
                     "search_s": round(search.wall_s, 3), "dense_s": round(dense.wall_s, 3),
                     "time_ratio": round(search.wall_s / dense.wall_s, 3)})
    print(f"{'case':<32} {'grid':>5} {'search':>9} {'dense':>9} {'dense2':>9} {'s-d':>4} {'d-d2':>4} "
          f"{'evals s/d':>9} {'time s/d (s)':>14} ratio")
    for r in rows:
        print(f"{r['case']:<32} {r['grid_points']:>5} {str(r['search_crossover']):>9} {str(r['dense_crossover']):>9} "
              f"{str(r['dense2_crossover']):>9} {str(r['grid_steps_apart']):>4} {str(r['dense_vs_dense2_steps']):>4} "
              f"{r['search_evals']:>4}/{r['dense_evals']:<4} {r['search_s']:>6.2f}/{r['dense_s']:<7.2f} {r['time_ratio']:.2f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
