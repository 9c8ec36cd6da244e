"""The gain of pinning a program's pageable host->device copies, measured on this GPU at the program's size.

`gpu-advisor profile` calls this after the program has stopped (the GPU is free again): the same copy from a
pageable and from a pinned host buffer, alternating, each sample a few milliseconds of copies; each
pageable/pinned pair is one measurement of the time saved. What it does not count: the cost of pinning itself,
which a fix moves off the step (DataLoader(pin_memory=True) pins in a worker thread, a buffer is pinned once).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

#: Paired samples (pageable, pinned); each sample at least SAMPLE_S of copies.
PAIRS = 5
SAMPLE_S = 0.004
MAX_COPY_BYTES = 256 << 20


@dataclass
class PinnedGain:
    copy_bytes: int
    pageable_us: float  # one copy, the median over the samples
    pinned_us: float
    saved_us: list[float]  # per pair, sorted


def _sample(torch: Any, target: Any, source: Any, repeats: int) -> float:
    torch.cuda.synchronize()
    started = time.perf_counter()
    for _ in range(repeats):
        target.copy_(source, non_blocking=source.is_pinned())
    torch.cuda.synchronize()
    return (time.perf_counter() - started) / repeats


def measure_pinned_gain(copy_bytes: int) -> PinnedGain:
    """Raises when CUDA is unusable here; the caller then says the gain is estimated."""
    import torch

    if not torch.cuda.is_available():
        raise RuntimeError("CUDA is not available to gpu-advisor's own process")
    size = max(1, min(int(copy_bytes), MAX_COPY_BYTES))
    pageable = torch.empty(size, dtype=torch.uint8)
    pinned = torch.empty(size, dtype=torch.uint8).pin_memory()
    target = torch.empty(size, dtype=torch.uint8, device="cuda")
    one = max(_sample(torch, target, pageable, 3), _sample(torch, target, pinned, 3), 1e-6)  # warm-up, calibration
    repeats = max(1, min(10000, int(SAMPLE_S / one)))
    pairs = [(_sample(torch, target, pageable, repeats), _sample(torch, target, pinned, repeats)) for _ in range(PAIRS)]
    pageable_s = sorted(a for a, _ in pairs)
    pinned_s = sorted(b for _, b in pairs)
    return PinnedGain(copy_bytes=size, pageable_us=pageable_s[PAIRS // 2] * 1e6, pinned_us=pinned_s[PAIRS // 2] * 1e6,
                      saved_us=sorted((a - b) * 1e6 for a, b in pairs))
