"""The memory model of a training (or inference) step: peak bytes = fixed + per_sample * batch. Pure math.

Fixed bytes are what a step needs whatever the batch: weights, gradients, optimizer state, cuBLAS/cuDNN
workspaces. Per-sample bytes are the activations kept for backward (and the input batch itself). The model is
fitted by least squares on a few measured batches; the caching allocator rounds blocks (to 2 MiB and 20 MiB
segments) and libraries pick workspace-hungrier kernels at some sizes, so the line is only nearly straight --
which is why every prediction near the limit is checked with real steps before it is reported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence


@dataclass(frozen=True)
class LinearMemoryModel:
    fixed_bytes: float
    per_sample_bytes: float
    #: Batches the fit used, smallest first.
    batches: tuple[int, ...]
    #: Largest |measured - fitted| over those batches (bytes): how far from a straight line the data was.
    max_residual_bytes: float = 0.0

    def predict(self, batch: int) -> float:
        return self.fixed_bytes + self.per_sample_bytes * batch

    def max_batch_within(self, limit_bytes: float) -> Optional[int]:
        """The largest batch whose predicted peak is within ``limit_bytes``: 0 when even the fixed part does not
        fit, None when memory does not grow with the batch (nothing to predict from)."""
        if self.per_sample_bytes <= 0:
            return None
        room = limit_bytes - self.fixed_bytes
        if room < self.per_sample_bytes:
            return 0
        return int(math.floor(room / self.per_sample_bytes + 1e-9))  # 99.99999 from float noise is 100

    def upper_envelope(self) -> "LinearMemoryModel":
        """The same slope, shifted up so that no fitted point lies above the line: a conservative predictor."""
        return LinearMemoryModel(self.fixed_bytes + self.max_residual_bytes, self.per_sample_bytes, self.batches,
                                 self.max_residual_bytes)

    def as_dict(self) -> dict:
        return {"fixed_bytes": round(self.fixed_bytes), "per_sample_bytes": round(self.per_sample_bytes),
                "fitted_on_batches": list(self.batches), "max_residual_bytes": round(self.max_residual_bytes)}


def fit_linear(points: Sequence[tuple[int, float]]) -> LinearMemoryModel:
    """Least-squares line through (batch, peak bytes); needs two distinct batches."""
    batches = sorted({b for b, _ in points})
    if len(batches) < 2:
        raise ValueError("a memory model needs measurements at two or more different batch sizes")
    n = len(points)
    mean_b = sum(b for b, _ in points) / n
    mean_m = sum(m for _, m in points) / n
    spread = sum((b - mean_b) ** 2 for b, _ in points)
    slope = sum((b - mean_b) * (m - mean_m) for b, m in points) / spread
    intercept = mean_m - slope * mean_b
    residual = max(abs(m - (intercept + slope * b)) for b, m in points)
    return LinearMemoryModel(intercept, slope, tuple(batches), residual)


def fit_largest(points: Sequence[tuple[int, float]], count: int = 3) -> LinearMemoryModel:
    """Fit on the ``count`` largest batches only: near the limit, the small batches' fixed costs (and the
    allocator's 20 MiB segments for mid-size blocks) would bend the slope."""
    by_batch: dict[int, float] = {}
    for batch, peak in points:
        by_batch[batch] = max(peak, by_batch.get(batch, 0.0))
    chosen = sorted(by_batch.items())[-count:]
    return fit_linear(chosen)
