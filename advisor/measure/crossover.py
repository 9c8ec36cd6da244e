"""Crossover sizes: from which problem size the GPU beats the CPU, per operation, dtype and mode.

Modes (what the user's code pays):
    resident           inputs already on the GPU, ops queued back to back, one synchronize at the end
    sync               one op, then torch.cuda.synchronize() (code that needs each result: .item(), print)
    transfer_pageable  inputs copied host->device from ordinary memory, op, result copied back
    transfer_pinned    the same from page-locked memory with non_blocking copies
The CPU side is the same op on CPU tensors with torch's default threads; it is measured once per size and
shared by all modes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from advisor.measure.search import (
    COARSE_STEP, Winner, bracket_search, compare, crossover_from_winners, dense_search, log_grid, settle,
)
from advisor.measure.timer import Stopwatch, TimerConfig, time_cpu, time_cuda_events, time_synchronized
from advisor.measure.workloads import WORKLOADS, precision_mode, torch_dtype
from advisor.models.measurements import CrossoverPoint, CrossoverResult, DType, Mode, TimingStats

#: Per-point timing: short, because the comparison looks at spreads and re-measures when they overlap.
POINT_TIMER = TimerConfig(warmup_runs=1, min_samples=5, budget_s=0.015, target_rel_spread=0.05, min_sample_s=5e-4)
#: Overlapping spreads, and the two sizes either side of an answer, are measured again this much longer.
REMEASURE_FACTOR = 4.0


@dataclass
class CrossoverSettings:
    #: Largest CPU time one op may take at the top of the grid (bounds the range and the run time).
    cpu_op_cap_s: float = 0.01
    #: GPU memory the inputs and output of the largest size may take.
    gpu_memory_cap_bytes: int = 1 << 30
    #: Host memory the largest transfer-mode inputs may take (page-locking is slow and scarce, and pageable
    #: copies of hundreds of MiB cost more per point than the rest of a search).
    host_memory_cap_bytes: int = 128 << 20
    timer: TimerConfig = POINT_TIMER


@dataclass
class _CpuCache:
    stats: dict[tuple[str, str, int], TimingStats] = field(default_factory=dict)


class CrossoverRunner:
    def __init__(self, device: Any, settings: CrossoverSettings) -> None:
        self.device = device
        self.settings = settings
        self._cpu = _CpuCache()
        self._grids: dict[tuple[str, str], list[int]] = {}

    # -- CPU side ---------------------------------------------------------------------------------------
    def _cpu_dtype(self, dtype: DType) -> DType:
        return "float32" if dtype == "tf32" else dtype  # CPUs have no TF32: the user's CPU baseline is fp32

    def cpu_stats(self, op: str, dtype: DType, size: int, config: TimerConfig, fresh: bool = False) -> TimingStats:
        key = (op, self._cpu_dtype(dtype), size)
        if fresh or key not in self._cpu.stats:
            workload = WORKLOADS[op]
            inputs = workload.make_inputs(size, torch_dtype(dtype), "cpu")
            self._cpu.stats[key] = time_cpu(lambda: workload.run(*inputs), config)
        return self._cpu.stats[key]

    def grid(self, op: str, dtype: DType, modes: tuple[Mode, ...]) -> list[int]:
        """The sizes tried: the workload's range, cut where one CPU op would exceed its time cap or the tensors
        would exceed the memory caps.

        The CPU is timed walking up a coarse grid (these timings are cached and reused by the search), because
        small sizes are dominated by fixed costs and cannot be extrapolated from.
        """
        key = (op, self._cpu_dtype(dtype))
        if key not in self._grids:
            workload = WORKLOADS[op]
            full = [s for s in log_grid(workload.min_size, workload.max_size) if self._fits(op, dtype, s, modes)]
            cap = self.settings.cpu_op_cap_s
            top = full[0]
            for index in range(0, len(full), COARSE_STEP):
                size = full[index]
                seconds = self.cpu_stats(op, dtype, size, self.settings.timer).median_s
                if seconds > cap:
                    # Extrapolate from the last affordable coarse point only: a short, reliable step.
                    rate = self.cpu_stats(op, dtype, top, self.settings.timer).median_s / workload.work(top)
                    top = max([s for s in full[:index] if s >= top and rate * workload.work(s) <= cap], default=top)
                    break
                top = size
            else:
                top = full[-1]
            self._grids[key] = [s for s in full if s <= top]
        return self._grids[key]

    def _fits(self, op: str, dtype: DType, size: int, modes: tuple[Mode, ...]) -> bool:
        needed = WORKLOADS[op].bytes_needed(size, dtype)
        host_ok = not any(m.startswith("transfer") for m in modes) or needed <= self.settings.host_memory_cap_bytes
        return needed <= self.settings.gpu_memory_cap_bytes and host_ok

    # -- GPU side ---------------------------------------------------------------------------------------
    def gpu_stats(self, op: str, dtype: DType, mode: Mode, size: int, config: TimerConfig) -> TimingStats:
        import torch

        workload = WORKLOADS[op]
        tdtype = torch_dtype(dtype)
        with precision_mode(dtype):
            if mode == "resident":
                inputs = workload.make_inputs(size, tdtype, self.device)
                return time_cuda_events(lambda: workload.run(*inputs), config)
            if mode == "sync":
                inputs = workload.make_inputs(size, tdtype, self.device)
                return time_synchronized(lambda: (workload.run(*inputs), torch.cuda.synchronize()), config)
            pinned = mode == "transfer_pinned"
            host = [t.pin_memory() if pinned else t for t in workload.make_inputs(size, tdtype, "cpu")]
            return time_synchronized(self._transfer_fn(workload.run, host, pinned), config)

    def _transfer_fn(self, run: Callable[..., Any], host: list[Any], pinned: bool) -> Callable[[], Any]:
        import torch

        device = self.device
        if not pinned:
            return lambda: run(*[t.to(device) for t in host]).cpu()
        result_shape = run(*[t.to(device) for t in host])
        host_out = torch.empty(result_shape.shape, dtype=result_shape.dtype, pin_memory=True)

        def fn() -> None:
            out = run(*[t.to(device, non_blocking=True) for t in host])
            host_out.copy_(out, non_blocking=True)
            torch.cuda.synchronize()

        return fn

    # -- one point, one crossover -----------------------------------------------------------------------
    def point(self, op: str, dtype: DType, mode: Mode, size: int, careful: bool = False) -> CrossoverPoint:
        config = self.settings.timer.scaled(REMEASURE_FACTOR) if careful else self.settings.timer
        cpu = self.cpu_stats(op, dtype, size, config, fresh=careful)
        gpu = self.gpu_stats(op, dtype, mode, size, config)
        verdict = compare(cpu, gpu)
        if verdict == "ambiguous":  # the spreads overlap: look again, longer, before deciding
            longer = config.scaled(REMEASURE_FACTOR)
            cpu = self.cpu_stats(op, dtype, size, longer, fresh=True)
            gpu = self.gpu_stats(op, dtype, mode, size, longer)
            verdict = compare(cpu, gpu)
        return CrossoverPoint(size=size, cpu=cpu, gpu=gpu, speedup=cpu.median_s / gpu.median_s,
                              winner=settle(verdict, cpu, gpu))

    def crossover(self, op: str, dtype: DType, mode: Mode, *, dense: bool = False,
                  modes_planned: tuple[Mode, ...] = ()) -> CrossoverResult:
        workload = WORKLOADS[op]
        watch = Stopwatch()
        grid = self.grid(op, dtype, modes_planned or (mode,))
        points: dict[int, CrossoverPoint] = {}

        def evaluate(size: int, careful: bool = False) -> Winner:
            points[size] = self.point(op, dtype, mode, size, careful)
            return points[size].winner

        if dense:
            outcome = dense_search(grid, evaluate)
        else:
            outcome = bracket_search(grid, evaluate, confirm=lambda size: evaluate(size, careful=True))
        index = outcome.crossover_index
        return CrossoverResult(
            op=op, dtype=dtype, mode=mode, size_unit=workload.size_unit, workload=workload.description,
            crossover_size=grid[index] if index is not None else None,
            gpu_never_wins=index is None, gpu_always_wins=index == 0,
            range_min=grid[0], range_max=grid[-1], points=[points[s] for s in sorted(points)],
            search="dense" if dense else "bisect", evaluations=outcome.evaluations, wall_s=watch.elapsed(),
        )


def failed_crossover(op: str, dtype: DType, mode: Mode, reason: str, status: str = "failed") -> CrossoverResult:
    workload = WORKLOADS[op]
    return CrossoverResult(op=op, dtype=dtype, mode=mode, size_unit=workload.size_unit,
                           workload=workload.description, status=status, reason=reason)  # type: ignore[arg-type]


def recompute_crossover(result: CrossoverResult) -> Optional[int]:
    """The crossover implied by a result's points (used to re-check recorded results in tests)."""
    ordered = sorted(result.points, key=lambda p: p.size)
    winners = {i: p.winner for i, p in enumerate(ordered)}
    index = crossover_from_winners(len(ordered), winners)
    return ordered[index].size if index is not None else None
