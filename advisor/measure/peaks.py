"""Peak rates: GPU matmul TFLOP/s per dtype, device memory bandwidth, and the CPU's matmul GFLOP/s."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable

from advisor.measure.specs import spec_for
from advisor.measure.timer import TimerConfig, summarize, time_cpu, time_cuda_events
from advisor.measure.workloads import precision_mode, torch_dtype
from advisor.models.measurements import DType, PeakMeasurements, ScalarMeasurement

PEAK_TIMER = TimerConfig(warmup_runs=3, warmup_s=0.05, min_samples=5, budget_s=0.15, target_rel_spread=0.03,
                         min_sample_s=2e-3)
CPU_PEAK_TIMER = TimerConfig(warmup_runs=1, min_samples=3, budget_s=0.4, target_rel_spread=0.05, min_sample_s=1e-2)
#: A rough look to choose the problem size (one warm-up, three samples).
QUICK_LOOK = TimerConfig(warmup_runs=1, min_samples=3, budget_s=0.0, min_sample_s=0.0)
GPU_MATMUL_SIDES = (2048, 4096, 8192)
CPU_MATMUL_SIDES = (256, 512, 1024, 2048, 4096)
#: Grow the matrix until one product takes a quarter of this (a slow fp64 part must not eat the budget).
GPU_OP_TARGET_S = 0.03
CPU_OP_TARGET_S = 0.05


#: A GPU matmul peak is the rate the GPU sustains, not a burst. Tensor-core matmuls draw more than the power limit
#: at full clock, and the driver's power cap then lowers and swings the SM clock. On a fresh H100 (700 W limit),
#: from idle, 8192^3 float16 products ran at 1980 MHz and 740-765 TFLOP/s for ~0.25 s, then sw_power_cap set in
#: and 100 ms stretches read 572-674 TFLOP/s at 1050-1485 MHz for as long as they ran (3 s; bfloat16 alike, 787
#: then 573-707). The old peak, 10-20 ms of samples, landed anywhere in that: float16 came out 608 and 721 TFLOP/s
#: in two runs whose own samples agreed within 2.4%. So the work first runs SETTLE_MIN_BURN_S (past the boost), then
#: in windows of SETTLE_WINDOW_S of GPU time until the medians of two consecutive windows agree within
#: SETTLE_TOLERANCE (at most SETTLE_MAX_S in all), and the peak is the median of those two windows' samples. What
#: is left between runs is the power cap's own swing, a few percent (compare's run-to-run band for these dtypes).
SETTLE_MIN_BURN_S = 0.3
SETTLE_WINDOW_S = 0.1
SETTLE_TOLERANCE = 0.03
SETTLE_MAX_S = 1.5
#: The CPU matmul peak settles the same way (see cpu_matmul_peak): a shorter burn, wider tolerance (CPU_PEAK_TIMER's).
CPU_SETTLE_BURN_S = 0.1
CPU_SETTLE_WINDOW_S = 0.1
CPU_SETTLE_MAX_S = 1.0


@dataclass
class Settled:
    """Samples (seconds per op) of a stretch where the rate held steady, and what it took to get there."""

    samples: list[float]
    #: GPU seconds of work run before that stretch (the warm-up burn).
    burn_s: float
    settled: bool
    windows: int


def settle(take_sample: Callable[[], tuple[float, float]], window_s: float = SETTLE_WINDOW_S,
           tolerance: float = SETTLE_TOLERANCE, max_s: float = SETTLE_MAX_S,
           min_burn_s: float = SETTLE_MIN_BURN_S) -> Settled:
    """Burn ``min_burn_s`` (summed sample time), then take samples in windows of ``window_s`` until two consecutive
    windows' medians agree within ``tolerance``, or ``max_s`` of samples were taken in all; the last two windows are
    then the stretch.

    ``take_sample()`` returns (seconds per op, seconds the whole sample took).
    """
    burnt = 0.0
    while burnt < min_burn_s:
        burnt += take_sample()[1]
    windows: list[list[float]] = []
    took: list[float] = []
    while True:
        window: list[float] = []
        window_time = 0.0
        while window_time < window_s or len(window) < 3:
            per_op, seconds = take_sample()
            window.append(per_op)
            window_time += seconds
        windows.append(window)
        took.append(window_time)
        if len(windows) < 2:
            continue
        before, last = statistics.median(windows[-2]), statistics.median(windows[-1])
        steady = abs(last - before) <= tolerance * min(last, before)
        if steady or burnt + sum(took) >= max_s:
            return Settled(windows[-2] + windows[-1], burnt + sum(took[:-2]), steady, len(windows))


def _grow_side(sides: tuple[int, ...], seconds_at: Callable[[int], float], target_s: float,
               fits: Callable[[int], bool]) -> int:
    """The largest matrix side whose one product takes about ``target_s``, found by timing upwards.

    Small products are dominated by fixed costs (thread wake-up, launch), so their time cannot be scaled up.
    """
    chosen = sides[0]
    for side in sides:
        if not fits(side):
            break
        chosen = side
        if seconds_at(side) >= target_s:
            break
    return chosen


def gpu_matmul_peak(device: Any, dtype: DType, max_bytes: int, config: TimerConfig = PEAK_TIMER,
                    settle_max_s: float = SETTLE_MAX_S) -> tuple[ScalarMeasurement, Settled]:
    """The sustained matmul rate (see SETTLE_WINDOW_S), and how the warm-up burn before it went."""
    import torch

    tdtype = torch_dtype(dtype)
    element = torch.empty((), dtype=tdtype).element_size()

    def fits(side: int) -> bool:
        return 3 * side * side * element <= max_bytes

    def seconds_at(side: int) -> float:
        a = torch.randn(side, side, dtype=tdtype, device=device)
        return time_cuda_events(lambda: a @ a, QUICK_LOOK).median_s

    with precision_mode(dtype):
        side = _grow_side(GPU_MATMUL_SIDES, seconds_at, GPU_OP_TARGET_S / 4, fits)
        a, b = torch.randn(side, side, dtype=tdtype, device=device), torch.randn(side, side, dtype=tdtype, device=device)
        one = time_cuda_events(lambda: a @ b, QUICK_LOOK).median_s
        # One sample lasts at least min_sample_s: a 2048^3 float16 product alone takes ~20 us.
        ops = max(1, min(config.max_ops_per_sample, round(config.min_sample_s / max(one, 1e-9))))
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

        def take_sample() -> tuple[float, float]:
            start.record()
            for _ in range(ops):
                a @ b
            end.record()
            end.synchronize()
            seconds = start.elapsed_time(end) / 1e3
            return seconds / ops, seconds

        settled = settle(take_sample, max_s=settle_max_s)
    stats = summarize(settled.samples, method="cuda_events", ops_per_sample=ops, stable_target=config.target_rel_spread)
    measurement = ScalarMeasurement(
        name=f"GPU matmul {dtype}", value=2 * side ** 3 / stats.median_s / 1e12, unit="TFLOP/s", stats=stats,
        workload=f"{side}x{side} @ {side}x{side} {dtype} matmul, random data, CUDA events; the sustained rate: "
                 f"the median of two {SETTLE_WINDOW_S * 1e3:.0f} ms windows whose medians agree within "
                 f"{SETTLE_TOLERANCE:.0%}")
    return measurement, settled


def device_copy_bandwidth(device: Any, max_bytes: int, config: TimerConfig = PEAK_TIMER) -> ScalarMeasurement:
    import torch

    size = min(1 << 30, max_bytes // 2)
    src = torch.empty(size, dtype=torch.uint8, device=device).random_()
    dst = torch.empty_like(src)
    stats = time_cuda_events(lambda: dst.copy_(src), config)
    return ScalarMeasurement(name="device memory copy", value=2 * size / stats.median_s / 1e9, unit="GB/s", stats=stats,
                             workload=f"device-to-device copy of {size >> 20} MiB, bytes read + written, CUDA events")


def cpu_matmul_peak(dtype: DType, config: TimerConfig = CPU_PEAK_TIMER) -> ScalarMeasurement:
    """The CPU's sustained matmul rate with the threads torch gives a user's program, settled like the GPU's.

    Three 16 ms samples used to be the whole measurement. On a fresh H100 host the first diagnosis read 1,064
    GFLOP/s float32 from three samples that agreed within 3.5%, and the next one 1,375 (29 samples from 11.8 ms):
    the cores had not reached their steady state yet. So the product runs CPU_SETTLE_BURN_S first, then in windows
    until two agree (see ``settle``)."""
    import torch

    tdtype = torch_dtype(dtype)
    def seconds_at(side: int) -> float:
        a = torch.randn(side, side, dtype=tdtype)
        return time_cpu(lambda: a @ a, QUICK_LOOK).median_s

    side = _grow_side(CPU_MATMUL_SIDES, seconds_at, CPU_OP_TARGET_S / 4, lambda _: True)
    a, b = torch.randn(side, side, dtype=tdtype), torch.randn(side, side, dtype=tdtype)

    def take_sample() -> tuple[float, float]:
        start = time.perf_counter()
        a @ b
        seconds = time.perf_counter() - start
        return seconds, seconds

    settled = settle(take_sample, window_s=CPU_SETTLE_WINDOW_S, tolerance=config.target_rel_spread,
                     max_s=CPU_SETTLE_MAX_S, min_burn_s=CPU_SETTLE_BURN_S)
    stats = summarize(settled.samples, method="cpu_clock", ops_per_sample=1, stable_target=config.target_rel_spread,
                      threads=torch.get_num_threads())
    return ScalarMeasurement(name=f"CPU matmul {dtype}", value=2 * side ** 3 / stats.median_s / 1e9, unit="GFLOP/s", stats=stats,
                             workload=f"{side}x{side} {dtype} matmul on the CPU, {stats.threads} torch threads; the "
                                      f"sustained rate: the median of two {CPU_SETTLE_WINDOW_S * 1e3:.0f} ms windows "
                                      f"whose medians agree within {config.target_rel_spread:.0%}")


def fill_specs(peaks: PeakMeasurements, device_name: str | None) -> None:
    spec = spec_for(device_name)
    if spec is None:
        return
    peaks.spec_matmul_tflops = dict(spec.matmul_tflops)  # type: ignore[arg-type]
    peaks.spec_memory_gbps = spec.memory_gbps
