"""Peak rates: GPU matmul TFLOP/s per dtype, device memory bandwidth, and the CPU's matmul GFLOP/s."""

from __future__ import annotations

from typing import Any, Callable

from advisor.measure.specs import spec_for
from advisor.measure.timer import TimerConfig, time_cpu, time_cuda_events
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


def gpu_matmul_peak(device: Any, dtype: DType, max_bytes: int, config: TimerConfig = PEAK_TIMER) -> ScalarMeasurement:
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
        stats = time_cuda_events(lambda: a @ b, config)
    return ScalarMeasurement(name=f"GPU matmul {dtype}", value=2 * side ** 3 / stats.median_s / 1e12, unit="TFLOP/s", stats=stats,
                             workload=f"{side}x{side} @ {side}x{side} {dtype} matmul, random data, CUDA events")


def device_copy_bandwidth(device: Any, max_bytes: int, config: TimerConfig = PEAK_TIMER) -> ScalarMeasurement:
    import torch

    size = min(1 << 30, max_bytes // 2)
    src = torch.empty(size, dtype=torch.uint8, device=device).random_()
    dst = torch.empty_like(src)
    stats = time_cuda_events(lambda: dst.copy_(src), config)
    return ScalarMeasurement(name="device memory copy", value=2 * size / stats.median_s / 1e9, unit="GB/s", stats=stats,
                             workload=f"device-to-device copy of {size >> 20} MiB, bytes read + written, CUDA events")


def cpu_matmul_peak(dtype: DType, config: TimerConfig = CPU_PEAK_TIMER) -> ScalarMeasurement:
    import torch

    tdtype = torch_dtype(dtype)
    def seconds_at(side: int) -> float:
        a = torch.randn(side, side, dtype=tdtype)
        return time_cpu(lambda: a @ a, QUICK_LOOK).median_s

    side = _grow_side(CPU_MATMUL_SIDES, seconds_at, CPU_OP_TARGET_S / 4, lambda _: True)
    a, b = torch.randn(side, side, dtype=tdtype), torch.randn(side, side, dtype=tdtype)
    stats = time_cpu(lambda: a @ b, config)
    return ScalarMeasurement(name=f"CPU matmul {dtype}", value=2 * side ** 3 / stats.median_s / 1e9, unit="GFLOP/s", stats=stats,
                             workload=f"{side}x{side} {dtype} matmul on the CPU, {stats.threads} torch threads")


def fill_specs(peaks: PeakMeasurements, device_name: str | None) -> None:
    spec = spec_for(device_name)
    if spec is None:
        return
    peaks.spec_matmul_tflops = dict(spec.matmul_tflops)  # type: ignore[arg-type]
    peaks.spec_memory_gbps = spec.memory_gbps
