"""Crossover sizes: from which problem size the GPU beats the CPU, per operation, dtype and mode.

Modes (what the user's code pays):
    resident           inputs already on the GPU, ops queued back to back, one synchronize at the end
    sync               one op, then torch.cuda.synchronize() (code that needs each result: .item(), print)
    transfer_pageable  inputs copied host->device from ordinary memory, op, result copied back
    transfer_pinned    the same from page-locked memory with non_blocking copies
The CPU side is the same op on CPU tensors with torch's default threads. Its samples are pooled per size and
shared by all modes; a close race draws more samples on both sides until a confidence interval decides it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from advisor.measure.host_malloc import settle_host_malloc
from advisor.measure.search import (
    COARSE_STEP,
    Look,
    Winner,
    bracket_search,
    decide,
    dense_search,
    log_grid,
    settle,
)
from advisor.measure.timer import (
    ClockGuard,
    ClockReader,
    Sampler,
    Stopwatch,
    TimerConfig,
    cpu_sampler,
    cuda_events_sampler,
    summarize,
    synchronized_sampler,
)
from advisor.measure.workloads import WORKLOADS, precision_mode, torch_dtype
from advisor.models.measurements import CrossoverMode, CrossoverPoint, CrossoverResult, DType, TimingStats

#: First look at a point: a handful of samples. Most points are decided by it (one side clearly faster).
POINT_TIMER = TimerConfig(warmup_runs=1, min_samples=5, budget_s=0.005, target_rel_spread=0.05, min_sample_s=2e-4)
#: A close race draws more samples on both sides (each round adds half the pool) for at most this long;
#: then the point estimate decides and the point is marked a close call.
CLOSE_RACE_CAP_S = 0.05
#: Speedups within this factor of 1 make a "close race" range worth telling the user about.
CLOSE_RACE_FACTOR = 1.15
MIN_ROUND_SAMPLES = 5


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
    #: Reads the SM clock (see timer.ClockGuard); GPU samples taken while it is far below its clock under load
    #: are discarded. None: not guarded (no NVML).
    clock_reader: Optional[ClockReader] = None


@dataclass
class _Pool:
    """Per-op times of one workload at one size, kept across evaluations (inputs are not kept)."""

    ops_per_sample: int
    method: str
    per_op: list[float] = field(default_factory=list)
    threads: Optional[int] = None

    def stats(self, target: float) -> TimingStats:
        return summarize(self.per_op, method=self.method, ops_per_sample=self.ops_per_sample,  # type: ignore[arg-type]
                         stable_target=target, threads=self.threads)


class _Side:
    """One side (CPU or GPU) of the races at one size: the pooled samples, and a sampler opened only when more
    samples are needed (re-opening costs a warm-up run, which at the top of the grid is a 10 ms CPU op)."""

    def __init__(self, pool: _Pool, make: Callable[[Optional[int]], Sampler], sampler: Optional[Sampler] = None) -> None:
        self.pool = pool
        self._make = make
        self._sampler = sampler

    def take_over(self) -> None:
        assert self._sampler is not None
        self.pool.per_op.extend(self._sampler.per_op)
        self._sampler.per_op = []

    def add(self, count: int) -> None:
        if self._sampler is None:
            self._sampler = self._make(self.pool.ops_per_sample)
        self._sampler.add(count)
        self.take_over()


class CrossoverRunner:
    def __init__(self, device: Any, settings: CrossoverSettings) -> None:
        self.device = device
        self.settings = settings
        settle_host_malloc()  # CPU temporaries near 32 MiB: page-faulted or not by the process's history
        self._cpu: dict[tuple[str, str, int], _Pool] = {}
        self._gpu: dict[tuple[str, str, str, int], _Pool] = {}
        self._grids: dict[tuple[str, str], list[int]] = {}
        self._inputs: dict[tuple[str, str, int, str], tuple[Any, ...]] = {}
        reader = settings.clock_reader
        self.clock_guard = ClockGuard(reader) if reader is not None else None

    # -- inputs -----------------------------------------------------------------------------------------
    def inputs(self, op: str, dtype: DType, size: int, where: str) -> tuple[Any, ...]:
        """Random inputs on the GPU ("gpu"), in ordinary ("cpu") or page-locked ("pinned") host memory.

        Drawn on the GPU and copied (torch.randn of tens of millions of elements on the CPU takes longer than
        the timing itself), and kept for the other modes of the same op and dtype; the cache holds one op and
        dtype at a time, so memory stays bounded by the grid's largest size.
        """
        tdtype = torch_dtype(dtype)
        key = (op, str(tdtype), size, where)
        if key not in self._inputs:
            if any(k[:2] != key[:2] for k in self._inputs):
                self._inputs.clear()
            on_gpu = self._inputs.get((op, str(tdtype), size, "gpu")) or WORKLOADS[op].make_inputs(size, tdtype, self.device)
            if where == "gpu":
                self._inputs[key] = on_gpu
            else:
                host = tuple(t.cpu() for t in on_gpu)
                self._inputs[key] = tuple(t.pin_memory() for t in host) if where == "pinned" else host
        return self._inputs[key]

    def release(self) -> None:
        self._inputs.clear()

    # -- samplers ---------------------------------------------------------------------------------------
    @staticmethod
    def _cpu_dtype(dtype: DType) -> DType:
        return "float32" if dtype == "tf32" else dtype  # CPUs have no TF32: the user's CPU baseline is fp32

    def _cpu_sampler(self, op: str, dtype: DType, size: int, ops: Optional[int] = None) -> Sampler:
        workload = WORKLOADS[op]
        inputs = self.inputs(op, self._cpu_dtype(dtype), size, "cpu")
        if workload.run_into is None:
            return cpu_sampler(lambda: workload.run(*inputs), self.settings.timer, ops, prime=True)
        out, run_into = workload.run(*inputs), workload.run_into
        return cpu_sampler(lambda: run_into(out, *inputs), self.settings.timer, ops, prime=True)

    def _gpu_sampler(self, op: str, dtype: DType, mode: CrossoverMode, size: int, ops: Optional[int] = None) -> Sampler:
        import torch

        workload = WORKLOADS[op]
        config = self.settings.timer
        if mode == "resident":
            inputs = self.inputs(op, dtype, size, "gpu")
            return cuda_events_sampler(lambda: workload.run(*inputs), config, ops, self.clock_guard)
        if mode == "sync":
            inputs = self.inputs(op, dtype, size, "gpu")
            return synchronized_sampler(lambda: (workload.run(*inputs), torch.cuda.synchronize()), config, ops,
                                        self.clock_guard)
        pinned = mode == "transfer_pinned"
        host = list(self.inputs(op, dtype, size, "pinned" if pinned else "cpu"))
        return synchronized_sampler(self._transfer_fn(workload.run, host, pinned), config, ops, self.clock_guard)

    def _transfer_fn(self, run: Callable[..., Any], host: list[Any], pinned: bool) -> Callable[[], Any]:
        import torch

        device = self.device
        result = run(*[t.to(device) for t in host])
        if not pinned:
            # The result goes back into ordinary memory allocated and touched once: a fresh `.cpu()` output per call
            # timed glibc instead of the copy -- above its mmap threshold (32 MiB at most, raised by earlier frees)
            # every call page-faulted a new mapping in, so the same conv2d bfloat16 batch of 1024 (a 32 MiB output)
            # took 8 ms in one H100 run and 32 ms in the next, flipping that crossover between runs.
            pageable_out = torch.empty(result.shape, dtype=result.dtype)
            pageable_out.copy_(result)

            def copy_back() -> None:
                pageable_out.copy_(run(*[t.to(device) for t in host]))

            return copy_back
        host_out = torch.empty(result.shape, dtype=result.dtype, pin_memory=True)

        def fn() -> None:
            out = run(*[t.to(device, non_blocking=True) for t in host])
            host_out.copy_(out, non_blocking=True)
            torch.cuda.synchronize()

        return fn

    def _side(self, pools: dict, key: tuple, make: Callable[[Optional[int]], Sampler]) -> "_Side":
        """One side of a race: its pooled samples, measured now with a first look if there are none yet."""
        pool = pools.get(key)
        if pool is not None:
            return _Side(pool, make)
        sampler = make(None).collect(self.settings.timer)
        pool = pools[key] = _Pool(sampler.ops, sampler.method, threads=sampler.threads)
        side = _Side(pool, make, sampler)
        side.take_over()
        return side

    def cpu_stats(self, op: str, dtype: DType, size: int) -> TimingStats:
        key = (op, self._cpu_dtype(dtype), size)
        self._side(self._cpu, key, lambda ops: self._cpu_sampler(op, dtype, size, ops))
        return self._cpu[key].stats(self.settings.timer.target_rel_spread)

    # -- the grid ---------------------------------------------------------------------------------------
    def grid(self, op: str, dtype: DType, modes: tuple[CrossoverMode, ...]) -> list[int]:
        """The sizes tried: the workload's range, cut where one CPU op would exceed its time cap or the tensors
        would exceed the memory caps.

        The CPU is timed walking up a coarse grid (these samples are pooled and reused by the search), because
        small sizes are dominated by fixed costs and cannot be extrapolated from. A coarse point predicted to
        take well over the cap is not run at all; the top is extrapolated from the last affordable point and
        then measured, since every crossover needs it and it is the costliest CPU point of the grid.
        """
        key = (op, self._cpu_dtype(dtype))
        if key not in self._grids:
            workload = WORKLOADS[op]
            full = [s for s in log_grid(workload.min_size, workload.max_size) if self._fits(op, dtype, s, modes)]
            cap = self.settings.cpu_op_cap_s
            last = full[0]
            rechecked = False
            for index in range(0, len(full), COARSE_STEP):
                size = full[index]
                if index and self._cpu_rate(op, dtype, last) * workload.work(size) > 2 * cap:
                    # The walk stops on what one point said: measured afresh once before it ends the grid (on an
                    # H100 one CPU conv2d of a single image once timed at 5 ms, and the grid became [1]).
                    if rechecked or not self._recheck_cpu(op, dtype, last):
                        break
                    rechecked = True
                    if self._cpu_rate(op, dtype, last) * workload.work(size) > 2 * cap:
                        break
                if self.cpu_stats(op, dtype, size).median_s > cap:
                    if rechecked or not self._recheck_cpu(op, dtype, size):
                        break
                    rechecked = True
                    if self.cpu_stats(op, dtype, size).median_s > cap:
                        break
                last = size
            rate = self._cpu_rate(op, dtype, last)
            top = max([s for s in full if s >= last and rate * workload.work(s) <= cap], default=last)
            self.cpu_stats(op, dtype, top)
            self._grids[key] = [s for s in full if s <= top]
        return self._grids[key]

    def _recheck_cpu(self, op: str, dtype: DType, size: int) -> bool:
        """Measure the CPU side of one size afresh (its pooled samples dropped); False if already fresh twice."""
        self._cpu.pop((op, self._cpu_dtype(dtype), size), None)
        self.cpu_stats(op, dtype, size)
        return True

    def _cpu_rate(self, op: str, dtype: DType, size: int) -> float:
        """CPU seconds per unit of work at a measured size (a short, reliable step to extrapolate from)."""
        return self.cpu_stats(op, dtype, size).median_s / WORKLOADS[op].work(size)

    def _fits(self, op: str, dtype: DType, size: int, modes: tuple[CrossoverMode, ...]) -> bool:
        needed = WORKLOADS[op].bytes_needed(size, dtype)
        host_ok = not any(m.startswith("transfer") for m in modes) or needed <= self.settings.host_memory_cap_bytes
        return needed <= self.settings.gpu_memory_cap_bytes and host_ok

    def forget_mode(self, op: str, dtype: DType, mode: CrossoverMode) -> None:
        """Drop every GPU sample of one mode, so that its crossover is measured afresh."""
        for key in [k for k in self._gpu if k[:3] == (op, dtype, mode)]:
            del self._gpu[key]

    def forget(self, op: str, dtype: DType, mode: CrossoverMode, size: int) -> None:
        """Drop the samples of one size (both sides), so that the next look measures it afresh."""
        self._cpu.pop((op, self._cpu_dtype(dtype), size), None)
        self._gpu.pop((op, dtype, mode, size), None)

    # -- one point, one crossover -----------------------------------------------------------------------
    def point(self, op: str, dtype: DType, mode: CrossoverMode, size: int) -> CrossoverPoint:
        """Decide who wins at one size, sampling both sides more while the race is too close to call."""
        watch = Stopwatch()
        with precision_mode(dtype):
            cpu = self._side(self._cpu, (op, self._cpu_dtype(dtype), size),
                             lambda ops: self._cpu_sampler(op, dtype, size, ops))
            gpu = self._side(self._gpu, (op, dtype, mode, size),
                             lambda ops: self._gpu_sampler(op, dtype, mode, size, ops))
            cpu_pool, gpu_pool = cpu.pool, gpu.pool

            def more() -> None:  # each round adds half the pool: the confidence interval narrows geometrically
                for side in (cpu, gpu):
                    side.add(max(MIN_ROUND_SAMPLES, len(side.pool.per_op) // 2))

            verdict = decide(cpu_pool.per_op, gpu_pool.per_op)
            while verdict == "ambiguous" and watch.elapsed() < CLOSE_RACE_CAP_S:
                more()
                verdict = decide(cpu_pool.per_op, gpu_pool.per_op)
            close_call = verdict == "ambiguous"
            winner: Winner = settle(cpu_pool.per_op, gpu_pool.per_op) if close_call else verdict
        target = self.settings.timer.target_rel_spread
        return CrossoverPoint(size=size, cpu=cpu_pool.stats(target), gpu=gpu_pool.stats(target),
                              speedup=statistics.median(cpu_pool.per_op) / statistics.median(gpu_pool.per_op),
                              winner=winner, close_call=close_call)

    def crossover(self, op: str, dtype: DType, mode: CrossoverMode, *, dense: bool = False,
                  modes_planned: tuple[CrossoverMode, ...] = ()) -> CrossoverResult:
        workload = WORKLOADS[op]
        watch = Stopwatch()
        grid = self.grid(op, dtype, modes_planned or (mode,))
        points: dict[int, CrossoverPoint] = {}

        def evaluate(size: int) -> Look:
            points[size] = self.point(op, dtype, mode, size)
            return Look(points[size].winner, points[size].speedup)

        def remeasure(size: int) -> Look:
            self.forget(op, dtype, mode, size)
            look = evaluate(size)
            points[size].remeasured = True
            return look

        if dense:
            outcome = dense_search(grid, evaluate)
        else:
            outcome = bracket_search(grid, evaluate, remeasure=remeasure, clear_factor=CLOSE_RACE_FACTOR)
        index = outcome.crossover_index
        close = [p.size for p in points.values() if 1 / CLOSE_RACE_FACTOR <= p.speedup <= CLOSE_RACE_FACTOR]
        ordered = [points[s] for s in sorted(points)]
        gpu_clear_from, cpu_clear_to = clear_bounds(ordered)
        return CrossoverResult(
            op=op, dtype=dtype, mode=mode, size_unit=workload.size_unit, workload=workload.description,
            crossover_size=grid[index] if index is not None else None,
            gpu_never_wins=index is None, gpu_always_wins=index == 0,
            range_min=grid[0], range_max=grid[-1], close_race_from=min(close, default=None),
            close_race_to=max(close, default=None), points=ordered, gpu_clear_from=gpu_clear_from,
            cpu_clear_to=cpu_clear_to, clear_factor=CLOSE_RACE_FACTOR,
            search="dense" if dense else "bisect", evaluations=len(points), wall_s=watch.elapsed(),
        )


def clear_bounds(points: list[CrossoverPoint], factor: float = CLOSE_RACE_FACTOR) -> tuple[Optional[int], Optional[int]]:
    """(smallest size from which the GPU wins by more than ``factor`` at every larger size measured, the largest
    size below it where the CPU does); None where there is none. Between them the results are near-ties or mixed.

    These reproduce from run to run where a single crossover size does not: across a stretch where the two are
    within noise of each other (reductions, small elementwise ops, fp16 matmul at small n) the first GPU win moves.
    """
    def gpu_clear(p: CrossoverPoint) -> bool:
        return p.winner == "gpu" and p.speedup > factor

    def cpu_clear(p: CrossoverPoint) -> bool:
        return p.winner == "cpu" and p.speedup < 1 / factor

    gpu_from = None
    for point in reversed(points):
        if not gpu_clear(point):
            break
        gpu_from = point.size
    cpu_to = None
    for point in reversed(points):
        if gpu_from is not None and point.size >= gpu_from:
            continue
        if cpu_clear(point):  # clear GPU wins may lie in between (speedup curves are not monotone): "mixed"
            cpu_to = point.size
            break
    return gpu_from, cpu_to


#: (mode, the mode it can never beat): the same op plus a synchronize, or the same copies from pageable memory.
ORDERED_MODES: tuple[tuple[CrossoverMode, CrossoverMode], ...] = (("sync", "resident"), ("transfer_pageable", "transfer_pinned"))


def contradiction(slower: CrossoverResult, faster: CrossoverResult) -> Optional[str]:
    """Why ``slower`` (a mode that only adds work to ``faster``'s GPU side) cannot be right, or None: its GPU
    clearly wins where ``faster``'s CPU still clearly does."""
    if slower.status != "ok" or faster.status != "ok" or slower.gpu_clear_from is None or faster.cpu_clear_to is None:
        return None
    if slower.gpu_clear_from < faster.cpu_clear_to:
        return (f"the GPU wins clearly from {slower.gpu_clear_from:,} here, but with {faster.mode} (less work on "
                f"the GPU side) the CPU still wins clearly at {faster.cpu_clear_to:,}")
    return None


def failed_crossover(op: str, dtype: DType, mode: CrossoverMode, reason: str, status: str = "failed") -> CrossoverResult:
    workload = WORKLOADS[op]
    return CrossoverResult(op=op, dtype=dtype, mode=mode, size_unit=workload.size_unit,
                           workload=workload.description, status=status, reason=reason)  # type: ignore[arg-type]

