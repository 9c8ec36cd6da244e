"""collect_env text -> Facts, on real outputs from torch 1.11 to 2.15 (sources in fixtures/collect_env/SOURCES.md)."""

from __future__ import annotations

import pytest
from ingest_helpers import at, fixture, reason

from advisor.ingest import facts_from_text
from advisor.models.common import is_missing

GIB = 1024**3
MIB = 1024**2

EXPECTED = {
    "linux_cpu_torch2.13_debian.txt": {
        "torch.version": "2.13.0+cpu", "torch.installed": True, "torch.import_error": None,
        "torch.debug_build": False, "torch.cuda_version": None, "torch.hip_version": None,
        "torch.cudnn_version": None, "torch.cuda_available": False, "torch.xpu_available": False,
        "torch.xnnpack_available": False,
        "host.os": "Debian GNU/Linux 12 (bookworm)", "host.system": "Linux", "host.kernel": "6.18.44-fc-v669",
        "host.machine": "x86_64", "host.libc": "glibc 2.36", "host.is_wsl": False, "host.python_version": "3.11.7",
        "host.python_platform": "Linux-6.18.44-fc-v669-x86_64-with-glibc2.36", "host.gcc_version": "12.2.0",
        "host.cmake_version": "3.25.1", "host.nvcc_version": "13.0.88",
        "host.cpu_model": "Intel(R) Xeon(R) Processor", "host.cpu_vendor": "GenuineIntel", "host.cpu_sockets": 1,
        "host.physical_cores": 2, "host.logical_cores": 2, "host.l3_cache_bytes": 105 * MIB, "host.numa_nodes": 1,
        "host.cpu_flags": ["sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl",
                           "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "amx_bf16",
                           "amx_int8"],
        "env.variables": {}, "env.complete": False, "packages": {"torch": "2.13.0+cpu"},
    },
    "linux_2x4090_torch2.15dev_cu130_details.md": {
        "torch.version": "2.15.0.dev20260914+cu130", "torch.cuda_version": "13.0", "torch.hip_version": None,
        "torch.cuda_available": True, "torch.xnnpack_available": False,
        "host.os": "Ubuntu 22.04.4 LTS", "host.kernel": "5.15.0-78-generic", "host.python_version": "3.12.3",
        "host.gcc_version": "11.4.0", "host.nvcc_version": "12.4.131",
        "host.cpu_model": "Intel(R) Xeon(R) Platinum 8352V CPU @ 2.10GHz", "host.cpu_sockets": 2,
        "host.physical_cores": 64, "host.logical_cores": 128, "host.l3_cache_bytes": 108 * MIB,
        "host.numa_nodes": 2,
        "driver.version": "580.105.08", "driver.gpu_count": 2,
        "gpus.0.index": 0, "gpus.0.name": "NVIDIA GeForce RTX 4090", "gpus.1.name": "NVIDIA GeForce RTX 4090",
        "env.variables": {},
        # pip's torch (the venv that ran) wins over the conda base environment's torch 2.5.1 beside it.
        "packages.torch": "2.15.0.dev20260914+cu130", "packages.nvidia-cudnn-cu13": "9.25.1.1",
        "packages.nvidia-cudnn-cu12": "9.1.0.70", "packages.triton": "3.8.0+gitc01b6774",
    },
    "linux_rocm_gfx1200_torch2.13_prompt.txt": {
        "torch.version": "2.13.0a0+rocm7.13.0a20260416", "torch.cuda_version": None,
        "torch.hip_version": "7.13.61040", "torch.cuda_available": True,
        "host.os": "Linux Mint 22.2", "host.clang_version": "22.1.2", "host.gcc_version": "15.2.0",
        "host.cpu_model": "12th Gen Intel(R) Core(TM) i3-12100F", "host.physical_cores": 4,
        "host.logical_cores": 8, "host.l3_cache_bytes": 12 * MIB,
        "gpus.0.name": "AMD Radeon Graphics", "gpus.0.architecture": "gfx1200",
        "env.variables": {"PYTORCH_HIP_ALLOC_CONF": "expandable_segments:True"},
        "packages.triton": "3.7.0+git9e2c158e.rocm7.13.0a20260416", "packages.triton-rocm": "3.7.0",
    },
    "windows_rocm_gfx1151_torch2.12.txt": {
        "torch.version": "2.12.0a0+rocm7.13.0a20260313", "torch.cuda_version": None, "torch.hip_version": "7.2.0",
        "host.os": "Microsoft Windows 11 Pro", "host.system": "Windows", "host.kernel": "10.0.26200",
        "host.is_wsl": False, "host.python_version": "3.12.10",
        "host.python_platform": "Windows-11-10.0.26200-SP0",
        "host.cpu_model": "AMD RYZEN AI MAX 385 w/ Radeon 8050S", "host.cpu_vendor": "AuthenticAMD",
        "host.cpu_sockets": 1,
        "gpus.0.name": "AMD Radeon(TM) 8050S Graphics", "gpus.0.architecture": "gfx1151",
        "env.variables": {}, "packages.numpy": "2.4.4",
    },
    "arch_3060ti_torch2.2.2_conda_fenced.md": {
        "torch.version": "2.2.2", "torch.cuda_version": "12.1", "torch.cuda_available": True,
        "host.os": "Arch Linux", "host.kernel": "6.8.2-arch2-1", "host.gcc_version": "13.2.1",
        "host.nvcc_version": "12.4.99", "host.cpu_model": "AMD Ryzen 9 7950X 16-Core Processor",
        "host.physical_cores": 16, "host.logical_cores": 32, "host.l3_cache_bytes": 64 * MIB,
        "driver.version": "550.67", "driver.gpu_count": 1, "gpus.0.name": "NVIDIA GeForce RTX 3060 Ti",
        "env.variables": {"CUDA_MODULE_LOADING": "LAZY"},
        # conda's build string and channel columns are not part of the version.
        "packages.pytorch": "2.2.2", "packages.pytorch-cuda": "12.1", "packages.mkl-fft": "1.3.8",
        "packages.torch": "2.2.2",
    },
    "macos_intel_torch2.2.2_email_wrapped.txt": {
        "torch.version": "2.2.2", "torch.cuda_version": None, "torch.cudnn_version": None,
        "torch.cuda_available": False,
        "host.os": "macOS 14.5", "host.system": "Darwin", "host.machine": "x86_64", "host.is_wsl": False,
        "host.python_version": "3.10.13", "host.clang_version": "15.0.0",
        "host.cpu_model": "Intel(R) Core(TM) i9-9880H CPU @ 2.30GHz",
        "packages": {"mypy-extensions": "1.0.0", "numpy": "1.26.4", "onnxruntime": "1.19.2", "torch": "2.2.2"},
    },
    "linux_3x3090_torch1.12_cu116.txt": {
        "torch.version": "1.12.1+cu116", "torch.cuda_version": "11.6", "torch.cuda_available": True,
        "host.os": "Ubuntu 22.04.1 LTS", "host.python_version": "3.9.13", "host.gcc_version": "11.2.0",
        "host.nvcc_version": "11.6.124",
        "driver.version": "515.65.01", "driver.gpu_count": 3, "gpus.2.index": 2,
        "gpus.2.name": "NVIDIA GeForce RTX 3090",
        "packages": {"numpy": "1.23.3", "torch": "1.12.1+cu116", "torchaudio": "0.12.1+cu116",
                     "torchvision": "0.13.1+cu116"},
    },
    "linux_cpu_torch1.11_fedora_conda.txt": {
        "torch.version": "1.11.0", "torch.cuda_version": None, "torch.cudnn_version": None,
        "host.os": "Fedora release 34 (Thirty Four)", "host.kernel": "5.15.18-100.fc34.x86_64",
        "host.gcc_version": "11.2.1", "host.clang_version": "12.0.1", "host.python_version": "3.8.12",
        "packages.cpuonly": "2.0", "packages.pytorch": "1.11.0", "packages.torch": "1.11.0",
    },
    "windows_3060ti_torch1.11_cu113.txt": {
        "torch.version": "1.11.0", "torch.cuda_version": "11.3", "torch.cuda_available": True,
        "host.os": "Microsoft Windows 11 Pro", "host.system": "Windows", "host.kernel": "10.0.22000",
        "host.python_version": "3.9.7", "host.cmake_version": "3.22.3", "host.nvcc_version": "11.5.50",
        "driver.version": "512.96", "driver.gpu_count": 1, "gpus.0.name": "NVIDIA GeForce RTX 3060 Ti",
        "packages.cudatoolkit": "11.3.1", "packages.torch": "1.11.0",
    },
}


def _facts(name: str):
    kind = "collect_env"
    facts, kinds = facts_from_text(fixture(kind, name), name)
    assert kinds == ["collect_env text"]
    return facts


@pytest.mark.parametrize("name,path,expected",
                         [(name, path, value) for name, table in EXPECTED.items() for path, value in table.items()])
def test_parsed_value(name: str, path: str, expected: object) -> None:
    assert at(_facts(name), path) == expected


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_facts_collect_env_never_prints_stay_unavailable(name: str) -> None:
    facts = _facts(name)
    for path in ("torch.arch_list", "torch.devices", "torch.num_threads", "torch.settings.cudnn_benchmark",
                 "host.memory_total_bytes", "host.hostname", "driver.nvml_version"):
        assert reason(at(facts, path)) == "not in collect_env output", path
    assert "nvidia-smi -q prints it" in reason(facts.driver.cuda_version)
    if isinstance(facts.gpus, list) and "NVIDIA" in str(facts.gpus[0].name):
        for path in ("uuid", "memory_total_bytes", "pcie_gen_current", "clock_event_reasons", "compute_capability"):
            assert "nvidia-smi -q prints it" in reason(getattr(facts.gpus[0], path)), path


def test_cudnn_is_never_taken_from_the_system_libraries() -> None:
    # collect_env lists what ldconfig finds, which need not be the cuDNN torch loads: record it as a reason.
    conda = reason(_facts("arch_3060ti_torch2.2.2_conda_fenced.md").torch.cudnn_version)
    assert "not the one torch loads" in conda and "libcudnn.so.8.9.7" in conda
    windows = reason(_facts("windows_3060ti_torch1.11_cu113.txt").torch.cudnn_version)
    assert "cudnn_ops_train64_8.dll" in windows


def test_could_not_collect_cuda_on_a_cpu_build_means_no_cuda() -> None:
    # The CPU wheel on a machine with nvcc prints "CUDA used to build PyTorch: Could not collect".
    text = fixture("collect_env", "linux_cpu_torch2.13_debian.txt")
    assert "CUDA used to build PyTorch: Could not collect" in text
    assert _facts("linux_cpu_torch2.13_debian.txt").torch.cuda_version is None


def test_missing_tools_and_devices_say_why() -> None:
    facts = _facts("linux_cpu_torch2.13_debian.txt")
    assert reason(facts.host.clang_version) == "collect_env could not run clang ('Could not collect')"
    assert reason(facts.driver.version) == "collect_env could not run nvidia-smi ('Could not collect')"
    assert reason(facts.gpus) == "collect_env could not list GPUs ('Could not collect')"
    mac = _facts("macos_intel_torch2.2.2_email_wrapped.txt")
    assert "Darwin kernel" in reason(mac.host.kernel)
    assert "libc on Linux only" in reason(mac.host.libc)
    assert reason(mac.host.nvcc_version) == "collect_env found no system nvcc ('No CUDA')"
    rocm = _facts("windows_rocm_gfx1151_torch2.12.txt")
    assert "only torch's device 0" in reason(rocm.driver.gpu_count)
    assert "NumberOfCores" in reason(rocm.host.physical_cores)


def test_releases_without_a_cpu_block_leave_cpu_facts_unavailable() -> None:
    facts = _facts("linux_3x3090_torch1.12_cu116.txt")
    for name in ("cpu_model", "physical_cores", "cpu_flags", "l3_cache_bytes"):
        assert reason(getattr(facts.host, name)) == "not in collect_env output"


def test_empty_cuda_module_loading_is_not_recorded_as_a_value() -> None:
    # torch >= 2.5 prints "CUDA_MODULE_LOADING set to:" with nothing when the variable is unset.
    assert _facts("linux_2x4090_torch2.15dev_cu130_details.md").env.variables == {}


def test_old_caching_allocator_line_is_the_cuda_alloc_conf_value() -> None:
    text = fixture("collect_env", "linux_cpu_torch2.13_debian.txt").replace(
        "Caching allocator config: N/A", "Caching allocator config: expandable_segments:True")
    facts, _ = facts_from_text(text, "edited")
    assert facts.env.variables == {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}


def test_torch_not_importable() -> None:
    # collect_env run where `import torch` fails prints N/A for every torch field.
    text = fixture("collect_env", "linux_cpu_torch2.13_debian.txt")
    for line in ("PyTorch version: 2.13.0+cpu", "Is debug build: False",
                 "CUDA used to build PyTorch: Could not collect", "Is CUDA available: False",
                 "Is XNNPACK available: False"):
        label = line.split(":")[0]
        text = text.replace(line, f"{label}: N/A")
    facts, _ = facts_from_text(text, "no-torch")
    assert is_missing(facts.torch.version) and "import torch" in facts.torch.version.unavailable
    assert is_missing(facts.torch.cuda_version) and is_missing(facts.torch.installed)
    assert facts.host.python_version == "3.11.7"
