"""Replaying memory that a real GPU reported: the batch-size driver fed, on CPU, the H200's own readings.

tests/fixtures/recommend/resnet50_adam_fp32_h200_trials.json holds the peak allocated bytes of every trial
that gpu-advisor ran for torchvision ResNet-50 (Adam, float32) on an H200, and where it ran out of memory.
Between recorded batches the peak is interpolated linearly (the memory model is linear in the batch, as the
recording shows); a batch at or beyond the first recorded failure fails as it did on the GPU.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.recommend.fakes import SimulatedMeter

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "recommend" / "resnet50_adam_fp32_h200_trials.json"


def recorded_resnet50():
    data = json.loads(RECORDING.read_text())
    fitting = sorted((t["batch"], t["peak_allocated"]) for t in data["trials"] if t["fits"])
    first_failure = min(t["batch"] for t in data["trials"] if not t["fits"])
    largest_fit = fitting[-1][0]

    def peak_of(batch: int) -> float:
        below = max((p for p in fitting if p[0] <= batch), default=fitting[0])
        above = min((p for p in fitting if p[0] >= batch), default=fitting[-1])
        if below == above:
            below, above = (fitting[-2], fitting[-1]) if batch >= fitting[-1][0] else (fitting[0], fitting[1])
        slope = (above[1] - below[1]) / (above[0] - below[0])
        peak = below[1] + slope * (batch - below[0])
        # At or beyond the batch that ran out of memory on the GPU, so does the replay.
        return peak if batch < first_failure else data["usable_bytes"] + 1

    return peak_of, data["usable_bytes"], data["total_bytes"], largest_fit, first_failure


def recorded_meter(model) -> tuple[SimulatedMeter, int, int]:
    peak_of, usable, total, largest_fit, first_failure = recorded_resnet50()
    return SimulatedMeter(model, peak_of, limit=usable, total=total), largest_fit, first_failure
