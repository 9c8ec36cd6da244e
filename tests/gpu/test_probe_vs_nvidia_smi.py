"""On a real GPU machine: the probe agrees with nvidia-smi, matches torch's devices, and creates no context."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(shutil.which("nvidia-smi") is None, reason="nvidia-smi not on PATH"),
]

QUERY = "driver_version,pcie.link.gen.max,pcie.link.width.max,memory.total,name,compute_cap"


def _cuda_available() -> bool:
    try:
        import torch
    except Exception:
        return False
    return bool(torch.cuda.is_available())


if shutil.which("nvidia-smi") is not None and not _cuda_available():  # no torch import where no driver
    pytestmark.append(pytest.mark.skip(reason="torch.cuda.is_available() is False"))


@pytest.fixture(scope="module")
def smi_rows() -> list[list[str]]:
    out = subprocess.run(["nvidia-smi", f"--query-gpu={QUERY}", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True, check=True, timeout=30).stdout
    return [[field.strip() for field in line.split(",")] for line in out.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def facts():
    from advisor.probe import collect_facts

    return collect_facts()


def test_driver_version_matches(facts, smi_rows):
    assert facts.driver.nvml_available is True
    assert facts.driver.version == smi_rows[0][0]


def test_each_gpu_matches_nvidia_smi(facts, smi_rows):
    # nvidia-smi lists GPUs in NVML's order, which is GpuFacts.index.
    assert len(facts.gpus) == len(smi_rows) == facts.driver.gpu_count
    for gpu, (_, gen_max, width_max, memory_mib, name, compute_cap) in zip(facts.gpus, smi_rows, strict=True):
        assert gpu.pcie_gen_max == int(gen_max)
        assert gpu.pcie_width_max == int(width_max)
        assert abs(gpu.memory_total_bytes // 2**20 - int(memory_mib)) <= 1
        assert gpu.name == name
        assert gpu.compute_capability == compute_cap


def test_torch_devices_are_matched_by_uuid(facts):
    import torch

    assert facts.torch.device_count == torch.cuda.device_count()
    matched = {gpu.torch_index: gpu for gpu in facts.gpus if gpu.torch_index is not None}
    assert sorted(matched) == list(range(torch.cuda.device_count()))
    for index, gpu in matched.items():
        props = torch.cuda.get_device_properties(index)
        assert gpu.sm_count == props.multi_processor_count
        assert gpu.name == props.name


def test_the_probe_creates_no_cuda_context():
    # A fresh process: ask the driver (without creating one) whether a primary context exists after probing.
    code = ("import torch; from advisor.probe import collect_facts; collect_facts(); "
            "print([torch._C._cuda_hasPrimaryContext(i) for i in range(torch.cuda.device_count())])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO,
                         env=dict(os.environ)).stdout
    contexts = json.loads(out.strip().lower())
    assert contexts and not any(contexts)
