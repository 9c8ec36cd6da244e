"""Fixed costs that decide small-tensor performance: first-call start-up, launch, synchronize, .item()."""

from __future__ import annotations

from typing import Any

from advisor.measure.timer import TimerConfig, time_cpu, time_cuda_events, time_host_launch, time_once
from advisor.models.measurements import OverheadMeasurements, ScalarMeasurement, TimingStats

OVERHEAD_TIMER = TimerConfig(warmup_runs=20, min_samples=7, budget_s=0.1, target_rel_spread=0.05, min_sample_s=5e-4)
GRAPH_OPS = 200


def first_call_costs(device: Any, overheads: OverheadMeasurements) -> None:
    """Context + first kernel, then the first cuBLAS matmul. Must run before any other CUDA work of the
    process: each happens once, so it is one observation, not a median."""
    import torch

    overheads.context_init_s = time_once(lambda: torch.ones(1, device=device).add_(1), synchronize=True)
    a = torch.randn(256, 256, device=device)
    overheads.first_matmul_s = time_once(lambda: a @ a, synchronize=True)
    overheads.details += [
        ScalarMeasurement(name="CUDA context + first kernel", value=overheads.context_init_s, unit="s", workload="torch.ones(1, device='cuda').add_(1) "
                          "+ synchronize, first CUDA work of the process (context creation, module loading)"),
        ScalarMeasurement(name="first cuBLAS matmul", value=overheads.first_matmul_s, unit="s",
                          workload="first 256x256 float32 matmul of the process (cuBLAS handle, kernel loading)"),
    ]


def _us(stats: TimingStats) -> float:
    return stats.median_s * 1e6


def _tiny_kernel_stats(device: Any, config: TimerConfig) -> TimingStats:
    """GPU time of one tiny kernel, with launch gaps removed by replaying a captured CUDA graph."""
    import torch

    x = torch.zeros(1, device=device)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):  # warm-up off the default stream, as graph capture requires
        for _ in range(3):
            x.add_(1)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(GRAPH_OPS):
            x.add_(1)
    stats = time_cuda_events(graph.replay, config)
    return stats.model_copy(update={
        "median_s": stats.median_s / GRAPH_OPS, "q1_s": stats.q1_s / GRAPH_OPS, "q3_s": stats.q3_s / GRAPH_OPS,
        "min_s": stats.min_s / GRAPH_OPS, "max_s": stats.max_s / GRAPH_OPS, "ops_per_sample": stats.ops_per_sample * GRAPH_OPS,
    })


def launch_and_sync_costs(device: Any, overheads: OverheadMeasurements, config: TimerConfig = OVERHEAD_TIMER) -> None:
    import torch

    x = torch.zeros(1, device=device)
    scalar = torch.ones((), device=device)
    launch = time_host_launch(lambda: x.add_(1), config)
    sync = time_cpu(torch.cuda.synchronize, config)
    item = time_cpu(lambda: scalar.add(1).item(), config)
    overheads.launch_us, overheads.sync_us, overheads.item_us = _us(launch), _us(sync), _us(item)
    overheads.details += [
        ScalarMeasurement(name="launch of a tiny op (host)", value=overheads.launch_us, unit="us", stats=launch,
                          workload="host time to dispatch and launch x.add_(1) on a 1-element CUDA tensor (queued)"),
        ScalarMeasurement(name="idle synchronize", value=overheads.sync_us, unit="us", stats=sync,
                          workload="torch.cuda.synchronize() with nothing queued"),
        ScalarMeasurement(name=".item() round trip", value=overheads.item_us, unit="us", stats=item,
                          workload="scalar.add(1).item(): tiny op + device->host copy + wait"),
    ]
    try:
        kernel = _tiny_kernel_stats(device, config)
    except RuntimeError as exc:  # graphs unsupported (old driver, MIG oddities): say so, keep the rest
        overheads.details.append(ScalarMeasurement(name="tiny kernel (GPU time)", status="failed", reason=str(exc).splitlines()[0], unit="us",
                                                   workload="tiny kernel GPU time via CUDA graph replay"))
        return
    overheads.tiny_kernel_us = _us(kernel)
    overheads.details.append(ScalarMeasurement(
        name="tiny kernel (GPU time)", value=overheads.tiny_kernel_us, unit="us", stats=kernel,
        workload=f"GPU time of x.add_(1) on 1 element: CUDA graph of {GRAPH_OPS} launches replayed, CUDA events"))
