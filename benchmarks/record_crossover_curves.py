"""Record every grid point of several crossover cases on a real GPU, with what each sample cost in wall time.

The recording is what the search's design and tests replay offline (tests/fixtures/measure/): per grid point,
the per-op CPU and GPU times of a fixed number of samples, the wall time of each sample, the set-up cost of
each sampler (warm-up and calibration) and of building the inputs. With it, a search strategy's answer and
cost can be compared with a dense sweep's on real curves without a GPU.

    python benchmarks/record_crossover_curves.py OUT.json [--samples 10]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from advisor.measure.crossover import CrossoverRunner, CrossoverSettings  # noqa: E402
from advisor.measure.workloads import precision_mode  # noqa: E402

CASES = [
    *[(op, "float32", mode) for op in ("matmul", "add", "conv2d", "sum")
      for mode in ("resident", "sync", "transfer_pinned", "transfer_pageable")],
    ("matmul", "tf32", "resident"), ("matmul", "float16", "resident"), ("matmul", "bfloat16", "resident"),
    ("matmul", "float64", "resident"), ("add", "bfloat16", "resident"), ("conv2d", "bfloat16", "resident"),
    ("sum", "float64", "resident"), ("conv2d", "float16", "sync"),
]


def _record(make_sampler, samples: int) -> dict:
    started = time.perf_counter()
    sampler = make_sampler()
    setup_s = time.perf_counter() - started
    walls = []
    for _ in range(samples):
        begin = time.perf_counter()
        sampler.add(1)
        walls.append(time.perf_counter() - begin)
    return {"setup_s": setup_s, "ops_per_sample": sampler.ops, "method": sampler.method,
            "per_op_s": sampler.per_op, "sample_wall_s": walls}


def main() -> None:
    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--samples", type=int, default=10)
    args = parser.parse_args()
    device = torch.device("cuda", 0)
    torch.ones(1, device=device)
    recording = {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "cpu_threads": torch.get_num_threads(),
                 "machine": platform.machine(), "samples_per_side": args.samples, "cases": []}
    cpu_done: dict[tuple, dict] = {}
    for op, dtype, mode in CASES:
        runner = CrossoverRunner(device, CrossoverSettings())
        started = time.perf_counter()
        grid = runner.grid(op, dtype, (mode,))
        grid_walk_s = time.perf_counter() - started
        points = []
        for size in grid:
            runner.release()
            begin = time.perf_counter()
            runner.inputs(op, dtype, size, "gpu")
            cpu_inputs_s = time.perf_counter() - begin
            with precision_mode(dtype):
                cpu_key = (op, runner._cpu_dtype(dtype), size)
                if cpu_key not in cpu_done:
                    cpu_done[cpu_key] = _record(partial(runner._cpu_sampler, op, dtype, size), args.samples)
                begin = time.perf_counter()
                gpu = _record(partial(runner._gpu_sampler, op, dtype, mode, size), args.samples)
            points.append({"size": size, "cpu": cpu_done[cpu_key], "gpu": gpu,
                           "inputs_s": cpu_inputs_s, "gpu_side_total_s": time.perf_counter() - begin})
        runner.release()
        recording["cases"].append({"op": op, "dtype": dtype, "mode": mode, "grid": grid, "grid_walk_s": grid_walk_s,
                                   "points": points})
        print(f"{op} {dtype} {mode}: {len(grid)} points, {grid[0]}..{grid[-1]}", flush=True)
    torch.cuda.empty_cache()
    args.out.write_text(json.dumps(recording))


if __name__ == "__main__":
    main()
