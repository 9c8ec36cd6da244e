"""An injected memory meter for CPU tests of the batch-size driver's control flow.

The real driver, state restore and search run unchanged on a real small model; the meter supplies the peak
memory of each step (a formula of the batch, or a recorded GPU profile: recorded_meter.py) and raises the
out-of-memory error above its limit, through a forward pre-hook that sees the batch size the driver built.
Tests use it to reach error paths (OOM, Ctrl-C, batch 1 too big) on CPU; none reports its numbers as measured.
"""

from __future__ import annotations

from typing import Callable, Optional

MIB = 2**20


def linear(fixed: float, per_sample: float) -> Callable[[int], float]:
    return lambda batch: fixed + per_sample * batch


class SimulatedMeter:
    def __init__(self, model, peak_of: Callable[[int], float], limit: int, total: Optional[int] = None,
                 *, failure: str = "oom") -> None:
        self.peak_of, self.limit, self.total = peak_of, limit, total or limit
        self.failure = failure
        self._peak = 0.0
        self.batches_seen: list[int] = []
        self.releases = 0
        self.handle = model.register_forward_pre_hook(self._hook)

    def _hook(self, module, args):
        import torch

        batch = int(args[0].shape[0])
        self.batches_seen.append(batch)
        need = self.peak_of(batch)
        self._peak = max(self._peak, min(need, self.limit))
        if need > self.limit:
            if self.failure == "oom":
                raise torch.OutOfMemoryError(f"CUDA out of memory. Tried to allocate {need - self.limit:.0f} bytes.")
            raise RuntimeError("cuDNN error: CUDNN_STATUS_INTERNAL_ERROR (pretend)")

    def close(self) -> None:
        self.handle.remove()

    # -- the meter protocol the driver uses -------------------------------------------------------------------
    def release(self, *, collect: bool, allocated_before: int | None = None) -> None:
        self.releases += 1

    def reset_peak(self) -> None:
        self._peak = 0.0

    def peaks(self) -> tuple[int, int]:
        allocated = int(self._peak)
        reserved = -(-allocated // (2 * MIB)) * 2 * MIB  # the allocator's 2 MiB rounding
        return allocated, reserved

    def allocated(self) -> int:
        return 0

    def limits(self) -> tuple[int, int]:
        return self.limit, self.total

    def time(self, step, config):
        from advisor.measure.timer import time_cpu

        return time_cpu(step, config)
