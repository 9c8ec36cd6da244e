"""Merging thousands of GPUs (a paste of collect_env and nvidia-smi -q together) is linear, not quadratic."""

from __future__ import annotations

from linear_time import assert_ratio_linear, best_time

from advisor.ingest.merge import _merge_gpus
from advisor.models.facts import GpuFacts, TorchDevice, TorchFacts
from advisor.probe.merge import attach_torch_view


def _gpus(count: int, name: str = "NVIDIA H100") -> list[GpuFacts]:
    return [GpuFacts(index=i, name=name) for i in range(count)]


def test_ingest_merge_matches_like_before():
    base = [GpuFacts(index=0, name="A"), GpuFacts(index=1, name="B"), GpuFacts(index=2, name="A")]
    smi = [GpuFacts(index=2, name="A"), GpuFacts(index=0, name="B"), GpuFacts(index=5, name="C")]
    merged = _merge_gpus(base, smi)
    assert [(g.index, g.name) for g in merged] == [(0, "A"), (1, "B"), (2, "A"), (5, "C")]


def test_ingest_merge_is_linear():
    small = (_gpus(2000), _gpus(2000))
    large = (_gpus(8000), _gpus(8000))
    t_small = best_time(lambda: _merge_gpus(*small), repeats=2)
    t_large = best_time(lambda: _merge_gpus(*large), repeats=2)
    assert_ratio_linear(t_small, t_large, "merging GPUs: ")


def test_probe_merge_is_linear():
    def run(count: int) -> None:
        gpus = [GpuFacts(index=i, name="H100", uuid=f"GPU-{i:08x}-0000-0000-0000-000000000000") for i in range(count)]
        devices = [TorchDevice(index=i, name="H100", uuid=f"{i:08x}-0000-0000-0000-000000000000", sm_count=132)
                   for i in range(count)]
        attach_torch_view(gpus, TorchFacts(cuda_available=True, devices=devices))

    t_small, t_large = best_time(lambda: run(2000), 2), best_time(lambda: run(8000), 2)
    assert_ratio_linear(t_small, t_large, "attaching torch's view: ")
