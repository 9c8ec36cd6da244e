"""From measured limits to the batch to use: the safety margin, the optional memory target, rounding. Pure.

Why a margin at all: the largest batch that survived three steps in a clean process is not the largest that
survives a long run. Fragmentation grows over thousands of steps, cuDNN may pick a workspace-hungrier kernel,
evaluation, checkpointing and logging allocate on top, inputs vary in size, and another process may start on
the same GPU. The margin is memory kept free, not batch taken away: with big fixed costs (weights, optimizer
state) a 10% memory margin removes more than 10% of the batch, as it should.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal, Optional

from advisor.recommend.memory_model import LinearMemoryModel

#: Batches at or above this are rounded down to a multiple of ROUND_TO: tensor cores tile matrices in
#: multiples of 8, and a batch of 8k keeps the batch dimension of every matmul on those tiles.
ROUND_FROM = 16
ROUND_TO = 8


@dataclass(frozen=True)
class Target:
    """``--target``: throughput=F picks the knee at F of peak samples/s (the default, 0.95); memory=F caps the
    recommended batch so that its predicted peak stays under F of the GPU's total memory (a shared GPU)."""

    kind: Literal["throughput", "memory"] = "throughput"
    value: float = 0.95

    def describe(self) -> str:
        if self.kind == "throughput":
            return f"throughput knee at {self.value:.0%} of peak samples/s"
        return f"peak memory at most {self.value:.0%} of the GPU's total"


def parse_target(text: Optional[str]) -> Target:
    """'0.9', '90%', 'throughput=0.9' or 'memory=0.5'; ValueError with a readable message otherwise."""
    if text is None or not text.strip():
        return Target()
    raw = text.strip().lower()
    kind = "throughput"
    if "=" in raw:
        kind, raw = (part.strip() for part in raw.split("=", 1))
        if kind not in ("throughput", "memory"):
            raise ValueError(f"--target {text!r}: the kind must be 'throughput' or 'memory'")
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise ValueError(f"--target {text!r}: expected a fraction such as 0.9, 90% or memory=0.5") from None
    if not 0 < value <= 1:
        raise ValueError(f"--target {text!r}: the fraction must be in (0, 1]")
    return Target(kind, value)  # type: ignore[arg-type]


@dataclass
class Choice:
    batch: int
    reasons: list[str] = field(default_factory=list)


def round_batch(batch: int) -> int:
    if batch >= ROUND_FROM:
        return batch - batch % ROUND_TO
    return batch


def recommend(max_fit: int, *, model: Optional[LinearMemoryModel], limit_bytes: float, margin: float,
              total_bytes: Optional[float] = None, target: Target = Target(),
              max_fit_peak_bytes: Optional[float] = None) -> Choice:
    """The batch to use: within ``max_fit``, its predicted peak (the fitted model of allocated bytes) ``margin``
    below the memory the largest working batch used -- or below the usable memory, whichever is less: when
    fragmentation stops the search well under the device's capacity, the margin must be taken from there --
    under a memory target if one was given, rounded for tensor cores."""
    from advisor.formatting import human_bytes

    if max_fit < 1:
        raise ValueError("nothing fits: there is no batch to recommend")
    choice = Choice(max_fit)
    if margin > 0:
        if model is not None and model.per_sample_bytes > 0:
            reference = min(limit_bytes, max_fit_peak_bytes or limit_bytes)
            by_memory = model.max_batch_within(reference * (1 - margin)) or 0
            choice.batch = min(max_fit, max(1, by_memory))
            what = "the usable memory" if reference == limit_bytes else "the memory the largest batch that ran used"
            choice.reasons.append(
                f"{margin:.0%} of {what} ({human_bytes(reference * margin)} of {human_bytes(reference)}) is kept "
                "free for fragmentation over a long run, evaluation and checkpointing allocations, varying input "
                "sizes and other processes")
        else:
            choice.batch = max(1, math.floor(max_fit * (1 - margin)))
            choice.reasons.append(f"{margin:.0%} below the largest batch that ran (no memory model to do better)")
    if target.kind == "memory" and total_bytes and model is not None and model.per_sample_bytes > 0:
        cap = model.max_batch_within(total_bytes * target.value) or 0
        if cap < choice.batch:
            choice.batch = max(1, cap)
            choice.reasons.append(f"capped so that the predicted peak stays under {target.value:.0%} of the GPU's "
                                  f"{human_bytes(total_bytes)} (--target memory={target.value:g})")
    rounded = round_batch(choice.batch)
    if rounded != choice.batch:
        choice.reasons.append(f"rounded down from {choice.batch} to a multiple of {ROUND_TO} (tensor-core tiles)")
        choice.batch = rounded
    return choice
