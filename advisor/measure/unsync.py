"""The unsynchronized-timing demonstration: how much a host clock without synchronize under-reports."""

from __future__ import annotations

from typing import Any

from advisor.measure.timer import TimerConfig, time_cuda_events, time_unsynchronized
from advisor.measure.workloads import precision_mode
from advisor.models.measurements import UnsyncTimingDemo

SIDE = 4096


def unsync_demo(device: Any) -> UnsyncTimingDemo:
    import torch

    a = torch.randn(SIDE, SIDE, device=device)
    b = torch.randn(SIDE, SIDE, device=device)
    with precision_mode("float32"):
        correct = time_cuda_events(lambda: a @ b, TimerConfig(warmup_runs=3, min_samples=5, budget_s=0.1)).median_s
        naive = time_unsynchronized(lambda: a @ b)
    return UnsyncTimingDemo(
        workload=f"{SIDE}x{SIDE} float32 matmul on the GPU: t0 = time.time(); c = a @ b; time.time() - t0, "
                 "versus CUDA events around the same product",
        naive_s=naive, correct_s=correct, underreport_factor=correct / naive if naive > 0 else None,
    )
