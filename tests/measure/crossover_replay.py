"""Replaying recorded GPU crossover curves through the real CrossoverRunner, on a virtual clock.

The recording (tests/fixtures/measure/crossover_curves_h200.json.gz, made by
benchmarks/record_crossover_curves.py on an H200) holds, for every grid point of 24 cases, ten real samples per
side: the per-op time each reported and the wall time each cost, plus what opening each sampler cost (warm-up,
calibration, pinning host memory). Replaying draws samples from it at random (a bootstrap), so the search and the
dense sweep meet the real curves with their real noise, and advances a virtual clock by what each draw really
cost. The search code, the decision statistics and the stopping rules run unchanged.

    python -m tests.measure.crossover_replay [--seeds 5]     # the search-vs-dense table for every case
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional
from unittest import mock

from advisor.measure import timer
from advisor.measure.crossover import CrossoverRunner, CrossoverSettings
from advisor.measure.search import COARSE_STEP
from advisor.measure.timer import Sampler

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "measure" / "crossover_curves_h200.json.gz"


def load_recording(path: Path = RECORDING) -> dict[str, Any]:
    with gzip.open(path, "rt") as file:
        return json.load(file)


class VirtualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


@dataclass
class _Side:
    per_op_s: list[float]
    wall_per_op_s: list[float]
    setup_s: float
    ops_per_sample: int
    method: str

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "_Side":
        ops = record["ops_per_sample"]
        return cls(record["per_op_s"], [w / ops for w in record["sample_wall_s"]], record["setup_s"], ops,
                   record["method"])


class ReplayRunner(CrossoverRunner):
    """A CrossoverRunner whose samplers draw from a recorded case instead of running work."""

    def __init__(self, case: dict[str, Any], clock: VirtualClock, rng: random.Random,
                 settings: Optional[CrossoverSettings] = None, glitches: float = 0.0) -> None:
        super().__init__(device=None, settings=settings or CrossoverSettings())
        #: Share of opened samplers whose samples are all glitched (see _replay).
        self.glitches = glitches
        #: Seconds added to every GPU op (a real change, such as CUDA_LAUNCH_BLOCKING=1 on resident ops).
        self.gpu_extra_s = 0.0
        self.case = case
        self.clock = clock
        self.rng = rng
        self._cpu_sides = {p["size"]: _Side.from_record(p["cpu"]) for p in case["points"]}
        self._gpu_sides = {p["size"]: _Side.from_record(p["gpu"]) for p in case["points"]}
        self._input_cost = {p["size"]: p["inputs_s"] for p in case["points"]}
        self._inputs_made: set[int] = set()

    def inputs(self, op: str, dtype: Any, size: int, where: str) -> tuple[Any, ...]:
        if size not in self._inputs_made:  # drawn on the GPU once per size, as the real cache does
            self._inputs_made.add(size)
            self.clock.now += self._input_cost[size]
        return ()

    def _cpu_sampler(self, op: str, dtype: Any, size: int, ops: Optional[int] = None) -> Sampler:
        self.inputs(op, dtype, size, "cpu")
        return self._replay(self._cpu_sides[size], ops, glitch=30.0)

    def _gpu_sampler(self, op: str, dtype: Any, mode: Any, size: int, ops: Optional[int] = None) -> Sampler:
        self.inputs(op, dtype, size, "gpu")
        return self._replay(self._gpu_sides[size], ops, glitch=6.0, extra_s=self.gpu_extra_s)

    def _replay(self, side: _Side, ops: Optional[int], glitch: float = 1.0, extra_s: float = 0.0) -> Sampler:
        """``glitch``: how much slower every sample of this sampler is when it is hit (``self.glitches`` of them):
        a GPU whose clock is still ramping up from idle (345 of 1980 MHz: ~6x), a CPU side paying thread-pool
        wake-ups and page faults on every op (the 482x points of an H100 run: ~30x)."""
        # Opening a sampler costs what it cost on the GPU machine: the recorded set-up (warm-up, calibration,
        # pinned buffers) the first time, one warm-up run when re-opened with a known ops count.
        self.clock.now += side.setup_s if ops is None else side.wall_per_op_s[0] * side.ops_per_sample
        charging = False
        factor = glitch if self.glitches and self.rng.random() < self.glitches else 1.0

        def take_sample(count: int) -> float:
            draw = self.rng.randrange(len(side.per_op_s))
            if charging:
                self.clock.now += count * (side.wall_per_op_s[draw] * factor + extra_s)
            return count * (side.per_op_s[draw] * factor + extra_s)

        sampler = Sampler(take_sample, side.method, self.settings.timer, ops_per_sample=side.ops_per_sample)  # type: ignore[arg-type]
        charging = True
        return sampler

    def grid(self, op: str, dtype: Any, modes: tuple) -> list[int]:
        """The recorded grid; the walk that found it pools CPU samples at the coarse points and the top, as the
        real one (CrossoverRunner.grid) does."""
        key = (op, self._cpu_dtype(dtype))
        if key not in self._grids:
            grid = list(self.case["grid"])
            for index in [*range(0, len(grid), COARSE_STEP), len(grid) - 1]:
                self.cpu_stats(op, dtype, grid[index])
            self._grids[key] = grid
        return self._grids[key]


@dataclass
class Replayed:
    crossover_size: Optional[int]
    cost_s: float
    evaluations: int
    #: What the grid walk cost before it (shared by every crossover of the op and dtype).
    walk_s: float


def replay(case: dict[str, Any], *, dense: bool, seed: int, settings: Optional[CrossoverSettings] = None,
           glitches: float = 0.0) -> Replayed:
    """One search (or dense sweep) of a recorded case; its cost excludes the grid walk both methods share."""
    clock = VirtualClock()
    runner = ReplayRunner(case, clock, random.Random(seed), settings, glitches)
    with mock.patch.object(timer, "time", clock):
        runner.grid(case["op"], case["dtype"], (case["mode"],))
        started = clock.now
        result = runner.crossover(case["op"], case["dtype"], case["mode"], dense=dense)
        return Replayed(result.crossover_size, clock.now - started, result.evaluations, started - 1000.0)


def replay_result(case: dict[str, Any], seed: int, *, gpu_extra_s: float = 0.0, glitches: float = 0.0) -> Any:
    """The CrossoverResult one search of a recorded case reports (as a diagnose run would)."""
    clock = VirtualClock()
    runner = ReplayRunner(case, clock, random.Random(seed), glitches=glitches)
    runner.gpu_extra_s = gpu_extra_s
    with mock.patch.object(timer, "time", clock):
        runner.grid(case["op"], case["dtype"], (case["mode"],))
        return runner.crossover(case["op"], case["dtype"], case["mode"])


def steps_apart(grid: list[int], a: Optional[int], b: Optional[int]) -> Optional[int]:
    """Grid steps between two answers; None (no answer) counts as one step past the top."""
    index = {None: len(grid)} | {size: i for i, size in enumerate(grid)}
    return abs(index[a] - index[b])


def compare(case: dict[str, Any], seed: int) -> dict[str, Any]:
    search = replay(case, dense=False, seed=seed)
    dense = replay(case, dense=True, seed=seed + 1000)
    dense2 = replay(case, dense=True, seed=seed + 2000)
    grid = case["grid"]
    return {"search": search, "dense": dense, "dense2": dense2,
            "steps": steps_apart(grid, search.crossover_size, dense.crossover_size),
            "dense_steps": steps_apart(grid, dense.crossover_size, dense2.crossover_size),
            "ratio": search.cost_s / dense.cost_s}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    recording = load_recording()
    total_search = total_dense = total_walk = 0.0
    worst_steps = 0
    print(f"{'case':<34} {'grid':>4}  {'search':>9} {'dense':>9}  steps(s-d, d-d2)   evals s/d   ratio (median, max)")
    for case in recording["cases"]:
        rows = [compare(case, seed) for seed in range(args.seeds)]
        total_search += sum(r["search"].cost_s for r in rows)
        total_dense += sum(r["dense"].cost_s for r in rows)
        total_walk += sum(r["search"].walk_s for r in rows)
        worst_steps = max(worst_steps, *(r["steps"] for r in rows))
        ratios = [r["ratio"] for r in rows]
        print(f"{case['op'] + ' ' + case['dtype'] + ' ' + case['mode']:<34} {len(case['grid']):>4}  "
              f"{str(rows[0]['search'].crossover_size):>9} {str(rows[0]['dense'].crossover_size):>9}  "
              f"{','.join(str(r['steps']) for r in rows):>8} {','.join(str(r['dense_steps']) for r in rows):>9}  "
              f"{statistics.median(r['search'].evaluations for r in rows):>4.0f}/{rows[0]['dense'].evaluations:<4}  "
              f"{statistics.median(ratios):.2f} {max(ratios):.2f}")
    print(f"aggregate cost ratio {total_search / total_dense:.3f} (grid walk charged to both: "
          f"{(total_search + total_walk) / (total_dense + total_walk):.3f}); "
          f"worst distance from a dense sweep {worst_steps} steps")


if __name__ == "__main__":
    main()
