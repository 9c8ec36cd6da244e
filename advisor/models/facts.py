"""Facts: what the probe found on the machine, with no timing. Every field is a value or Unavailable(reason).

Field names are the fact paths rules read (``torch.cuda_version``, ``driver.version``, ``gpu.mig_mode``), so
renaming one is a schema change: bump ``SCHEMA_VERSION`` in ``report.py`` and teach the loader the old name.
"""

import re
from typing import Optional

from pydantic import Field

from advisor.models.common import NOT_COLLECTED, Fact, StrictModel

_NAME_SEPARATORS = re.compile(r"[-_.]+")


def normalise_name(name: str) -> str:
    """A distribution name as PEP 503 normalises it ("Flash_Attn" -> "flash-attn"): the keys of ``packages``."""
    return _NAME_SEPARATORS.sub("-", name).lower()


class HostFacts(StrictModel):
    os: Fact[str] = NOT_COLLECTED  # "Ubuntu 22.04.4 LTS", "Windows 11", "macOS 14.5"
    system: Fact[str] = NOT_COLLECTED  # platform.system(): Linux / Windows / Darwin
    kernel: Fact[str] = NOT_COLLECTED
    machine: Fact[str] = NOT_COLLECTED  # x86_64, aarch64
    libc: Fact[str] = NOT_COLLECTED
    is_wsl: Fact[bool] = NOT_COLLECTED
    python_version: Fact[str] = NOT_COLLECTED
    python_implementation: Fact[str] = NOT_COLLECTED
    python_platform: Fact[str] = NOT_COLLECTED
    cpu_model: Fact[str] = NOT_COLLECTED
    cpu_vendor: Fact[str] = NOT_COLLECTED
    cpu_sockets: Fact[int] = NOT_COLLECTED
    physical_cores: Fact[int] = NOT_COLLECTED
    logical_cores: Fact[int] = NOT_COLLECTED
    #: CPUs this process may run on (affinity / cgroup), which is what a user's program gets.
    usable_cores: Fact[int] = NOT_COLLECTED
    cpu_flags: Fact[list[str]] = NOT_COLLECTED  # only the performance-relevant ones: avx2, avx512f, amx_tile ...
    l3_cache_bytes: Fact[int] = NOT_COLLECTED
    numa_nodes: Fact[int] = NOT_COLLECTED
    memory_total_bytes: Fact[int] = NOT_COLLECTED
    memory_available_bytes: Fact[int] = NOT_COLLECTED
    gcc_version: Fact[str] = NOT_COLLECTED
    clang_version: Fact[str] = NOT_COLLECTED
    cmake_version: Fact[str] = NOT_COLLECTED
    #: The system nvcc (what collect_env misleadingly calls "CUDA runtime version"); torch does not use it.
    nvcc_version: Fact[str] = NOT_COLLECTED
    hostname: Fact[str] = NOT_COLLECTED


class TorchSettings(StrictModel):
    matmul_allow_tf32: Fact[bool] = NOT_COLLECTED
    cudnn_allow_tf32: Fact[bool] = NOT_COLLECTED
    float32_matmul_precision: Fact[str] = NOT_COLLECTED  # highest / high / medium
    cudnn_enabled: Fact[bool] = NOT_COLLECTED
    cudnn_benchmark: Fact[bool] = NOT_COLLECTED
    cudnn_deterministic: Fact[bool] = NOT_COLLECTED
    deterministic_algorithms: Fact[bool] = NOT_COLLECTED
    anomaly_detection: Fact[bool] = NOT_COLLECTED


class TorchDevice(StrictModel):
    """A GPU as torch sees it (after CUDA_VISIBLE_DEVICES), matched to NVML's view by UUID where possible."""

    index: int
    name: Fact[str] = NOT_COLLECTED
    compute_capability: Fact[str] = NOT_COLLECTED  # "9.0"
    total_memory_bytes: Fact[int] = NOT_COLLECTED
    sm_count: Fact[int] = NOT_COLLECTED
    uuid: Fact[str] = NOT_COLLECTED


class TorchFacts(StrictModel):
    installed: Fact[bool] = NOT_COLLECTED
    #: The exception text when ``import torch`` itself fails (None when it imports).
    import_error: Fact[Optional[str]] = NOT_COLLECTED
    version: Fact[str] = NOT_COLLECTED
    git_version: Fact[str] = NOT_COLLECTED
    debug_build: Fact[bool] = NOT_COLLECTED
    #: CUDA version torch was built with; None for a CPU-only (or ROCm) build.
    cuda_version: Fact[Optional[str]] = NOT_COLLECTED
    hip_version: Fact[Optional[str]] = NOT_COLLECTED
    #: cuDNN that torch actually loads, "9.10.2"; None when torch has no cuDNN.
    cudnn_version: Fact[Optional[str]] = NOT_COLLECTED
    #: GPU architectures compiled into this build: ["sm_75", ..., "sm_120", "compute_120"].
    arch_list: Fact[list[str]] = NOT_COLLECTED
    cuda_available: Fact[bool] = NOT_COLLECTED
    #: torch's own words when CUDA is not usable (the warning or error text); None when it is.
    cuda_unavailable_reason: Fact[Optional[str]] = NOT_COLLECTED
    device_count: Fact[int] = NOT_COLLECTED
    devices: Fact[list[TorchDevice]] = NOT_COLLECTED
    xpu_available: Fact[bool] = NOT_COLLECTED
    mps_available: Fact[bool] = NOT_COLLECTED
    num_threads: Fact[int] = NOT_COLLECTED
    num_interop_threads: Fact[int] = NOT_COLLECTED
    #: torch.backends.cpu.get_cpu_capability(): DEFAULT / AVX2 / AVX512 / ...
    cpu_capability: Fact[str] = NOT_COLLECTED
    mkl_available: Fact[bool] = NOT_COLLECTED
    mkldnn_available: Fact[bool] = NOT_COLLECTED
    openmp_available: Fact[bool] = NOT_COLLECTED
    xnnpack_available: Fact[bool] = NOT_COLLECTED
    parallel_backend: Fact[str] = NOT_COLLECTED
    settings: TorchSettings = Field(default_factory=TorchSettings)


class GpuProcess(StrictModel):
    pid: int
    name: Fact[str] = NOT_COLLECTED
    used_memory_bytes: Fact[Optional[int]] = NOT_COLLECTED
    is_self: bool = False


class GpuFacts(StrictModel):
    """One physical GPU as the driver (NVML) reports it; NVML sees every GPU, whatever CUDA_VISIBLE_DEVICES says."""

    index: int
    name: Fact[str] = NOT_COLLECTED
    uuid: Fact[str] = NOT_COLLECTED
    serial: Fact[Optional[str]] = NOT_COLLECTED
    pci_bus_id: Fact[str] = NOT_COLLECTED
    architecture: Fact[str] = NOT_COLLECTED  # Hopper, Ampere, Blackwell ...
    compute_capability: Fact[str] = NOT_COLLECTED  # "9.0"
    sm_count: Fact[int] = NOT_COLLECTED
    memory_total_bytes: Fact[int] = NOT_COLLECTED
    memory_used_bytes: Fact[int] = NOT_COLLECTED
    memory_free_bytes: Fact[int] = NOT_COLLECTED
    pcie_gen_current: Fact[int] = NOT_COLLECTED
    #: Highest generation GPU and slot both support (the link can train to it).
    pcie_gen_max: Fact[int] = NOT_COLLECTED
    #: Highest generation the GPU itself supports (a lower pcie_gen_max means the slot/board limits it).
    pcie_gen_gpu_max: Fact[int] = NOT_COLLECTED
    pcie_width_current: Fact[int] = NOT_COLLECTED
    pcie_width_max: Fact[int] = NOT_COLLECTED
    clock_sm_mhz: Fact[int] = NOT_COLLECTED
    clock_sm_max_mhz: Fact[int] = NOT_COLLECTED
    clock_mem_mhz: Fact[int] = NOT_COLLECTED
    clock_mem_max_mhz: Fact[int] = NOT_COLLECTED
    #: Active clock-event (throttle) reasons by name: gpu_idle, sw_power_cap, hw_slowdown, sw_thermal ...
    clock_event_reasons: Fact[list[str]] = NOT_COLLECTED
    power_draw_w: Fact[float] = NOT_COLLECTED
    power_limit_w: Fact[float] = NOT_COLLECTED
    temperature_c: Fact[int] = NOT_COLLECTED
    ecc_enabled: Fact[Optional[bool]] = NOT_COLLECTED
    ecc_uncorrected_volatile: Fact[int] = NOT_COLLECTED
    ecc_corrected_volatile: Fact[int] = NOT_COLLECTED
    ecc_uncorrected_aggregate: Fact[int] = NOT_COLLECTED
    remapped_rows_pending: Fact[bool] = NOT_COLLECTED
    remapped_rows_failure: Fact[bool] = NOT_COLLECTED
    mig_enabled: Fact[bool] = NOT_COLLECTED
    compute_mode: Fact[str] = NOT_COLLECTED  # default / exclusive_process / prohibited
    persistence_mode: Fact[bool] = NOT_COLLECTED
    processes: Fact[list[GpuProcess]] = NOT_COLLECTED
    #: Memory held by processes other than this one (bytes); what another job takes from yours.
    other_processes_memory_bytes: Fact[int] = NOT_COLLECTED
    #: Whether torch in this process can see this GPU (CUDA_VISIBLE_DEVICES), and as which index.
    torch_index: Fact[Optional[int]] = NOT_COLLECTED


class DriverFacts(StrictModel):
    nvml_available: Fact[bool] = NOT_COLLECTED
    #: Why NVML could not be used (library missing, driver not loaded ...); None when it works.
    nvml_error: Fact[Optional[str]] = NOT_COLLECTED
    version: Fact[str] = NOT_COLLECTED  # "580.159.04"
    #: Highest CUDA version this driver supports, "13.0" (nvidia-smi's "CUDA Version").
    cuda_version: Fact[str] = NOT_COLLECTED
    nvml_version: Fact[str] = NOT_COLLECTED
    gpu_count: Fact[int] = NOT_COLLECTED


class EnvFacts(StrictModel):
    """Environment variables that change GPU behaviour, from an allowlist only (never the whole environment)."""

    variables: dict[str, str] = Field(default_factory=dict)
    #: True when the whole allowlist was read, so a variable absent from ``variables`` is known to be unset.
    complete: bool = False


class Facts(StrictModel):
    host: HostFacts = Field(default_factory=HostFacts)
    torch: TorchFacts = Field(default_factory=TorchFacts)
    driver: DriverFacts = Field(default_factory=DriverFacts)
    gpus: Fact[list[GpuFacts]] = NOT_COLLECTED
    env: EnvFacts = Field(default_factory=EnvFacts)
    #: Versions of related packages present: torchvision, lightning, numpy, nvidia-* wheels ... keyed by
    #: ``normalise_name``.
    packages: Fact[dict[str, str]] = NOT_COLLECTED
