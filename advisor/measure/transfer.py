"""Host<->device bandwidth, pageable and pinned, against what the PCIe link can carry."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Optional

from advisor.measure.timer import TimerConfig, time_cuda_events
from advisor.models.measurements import ScalarMeasurement, TransferMeasurements

TRANSFER_SIZES = (1 << 20, 16 << 20, 256 << 20)
#: Pageable copies go through a staging buffer and vary run to run: keep 5 samples even for slow copies.
TRANSFER_TIMER = TimerConfig(warmup_runs=2, min_samples=5, min_samples_slow=5, budget_s=0.08,
                             target_rel_spread=0.03, min_sample_s=1e-3)
#: Per-direction GB/s of one lane after line encoding, by PCIe generation (x16 = 4, 8, 15.75, 31.5, 63, 126).
PCIE_LANE_GBPS = {1: 0.25, 2: 0.5, 3: 0.984375, 4: 1.96875, 5: 3.9375, 6: 7.875}

#: Reads (pcie_gen, pcie_width) of the GPU under test from the driver; None when NVML is unavailable.
LinkReader = Callable[[], Optional[tuple[int, int]]]


def link_gbps(generation: int, width: int) -> Optional[float]:
    lane = PCIE_LANE_GBPS.get(generation)
    return lane * width if lane else None


def _copy_measurement(direction: str, memory: str, size: int, fn: Callable[[], Any], config: TimerConfig) -> ScalarMeasurement:
    stats = time_cuda_events(fn, config)
    return ScalarMeasurement(
        name=f"{direction} {memory} {size >> 20} MiB", value=size / stats.median_s / 1e9, unit="GB/s", stats=stats,
        workload=f"{direction} copy of {size >> 20} MiB from {memory} host memory (tensor.copy_, CUDA events)",
    )


def measure_transfers(device: Any, result: TransferMeasurements, *, max_bytes: int,
                      read_link: Optional[LinkReader] = None, config: TimerConfig = TRANSFER_TIMER) -> None:
    import torch

    sizes = [s for s in TRANSFER_SIZES if s <= max_bytes] or [min(TRANSFER_SIZES)]
    largest: dict[str, float] = {}
    for size in sizes:
        pageable = torch.empty(size, dtype=torch.uint8).random_()
        pinned = pageable.pin_memory()
        on_device = torch.empty(size, dtype=torch.uint8, device=device)
        # (direction, host memory, destination, source, non_blocking): bound now, so each copy names its tensors.
        plans = [
            ("host->device", "pageable", on_device, pageable, False),
            ("host->device", "pinned", on_device, pinned, True),
            ("device->host", "pageable", pageable, on_device, False),
            ("device->host", "pinned", pinned, on_device, True),
        ]
        for direction, memory, destination, source, non_blocking in plans:
            run_copy = partial(destination.copy_, source, non_blocking=non_blocking)
            measurement = _copy_measurement(direction, memory, size, run_copy, config)
            result.points.append(measurement)
            largest[f"{'h2d' if direction == 'host->device' else 'd2h'}_{memory}"] = measurement.value  # type: ignore[assignment]
        if size == sizes[-1] and read_link is not None:
            _read_link_under_load(on_device, pinned, read_link, result)
        # Free this size's buffers before the next size allocates (the plans hold them too).
        del pageable, pinned, on_device, plans, run_copy, destination, source
    result.h2d_pinned_gbps = largest["h2d_pinned"]
    result.h2d_pageable_gbps = largest["h2d_pageable"]
    result.d2h_pinned_gbps = largest["d2h_pinned"]
    result.d2h_pageable_gbps = largest["d2h_pageable"]
    result.pinned_speedup = largest["h2d_pinned"] / largest["h2d_pageable"]
    if isinstance(result.link_max_theoretical_gbps, float):
        result.h2d_fraction_of_link_max = largest["h2d_pinned"] / result.link_max_theoretical_gbps


def _read_link_under_load(on_device: Any, pinned: Any, read_link: LinkReader, result: TransferMeasurements) -> None:
    """Queue ~8 large pinned copies, read the link while they run: an idle link sits at a low generation."""
    import torch

    for _ in range(8):
        on_device.copy_(pinned, non_blocking=True)
    link = read_link()
    torch.cuda.synchronize()
    if link is None:
        return
    generation, width = link
    result.link_gen_under_load, result.link_width_under_load = generation, width
    theoretical = link_gbps(generation, width)
    if theoretical is not None:
        result.link_theoretical_gbps = theoretical
