"""The facts of a report as titled tables of (label, text) rows, shared by the terminal and Markdown reporters."""

from __future__ import annotations

from typing import Any

from advisor.formatting import Section, human_bytes, human_value
from advisor.knowledge import gpu_model
from advisor.models.common import Unavailable
from advisor.models.facts import Facts, GpuFacts


def host_section(facts: Facts) -> Section:
    host = facts.host
    section = Section("Host")
    section.add("OS", host.os)
    section.add("Kernel", host.kernel)
    section.add("WSL", host.is_wsl)
    section.add("Python", host.python_version)
    section.add("Python platform", host.python_platform)
    section.add("libc", host.libc)
    section.add("CPU", host.cpu_model)
    section.add("Cores (physical / logical / usable)",
                f"{human_value(host.physical_cores)} / {human_value(host.logical_cores)} / {human_value(host.usable_cores)}")
    section.add("CPU flags", host.cpu_flags)
    section.add_bytes("RAM total", host.memory_total_bytes)
    section.add_bytes("RAM available", host.memory_available_bytes)
    section.add("GCC / Clang / CMake",
                f"{human_value(host.gcc_version)} / {human_value(host.clang_version)} / {human_value(host.cmake_version)}")
    section.add("System nvcc (not used by torch)", host.nvcc_version)
    return section


def torch_section(facts: Facts) -> Section:
    torch = facts.torch
    settings = torch.settings
    section = Section("PyTorch")
    section.add("Version", torch.version)
    if isinstance(torch.import_error, str):
        section.add("Import error", torch.import_error)
    section.add("Debug build", torch.debug_build)
    section.add("Built with CUDA", torch.cuda_version)
    if torch.hip_version not in (None,) and not isinstance(torch.hip_version, Unavailable):
        section.add("Built with ROCm/HIP", torch.hip_version)
    section.add("cuDNN torch loads", torch.cudnn_version)
    section.add("Arch list", torch.arch_list)
    section.add("CUDA available", torch.cuda_available)
    if isinstance(torch.cuda_unavailable_reason, str):
        section.add("Why not", torch.cuda_unavailable_reason)
    section.add("Devices torch sees", torch.device_count)
    section.add("CPU threads (intra / inter-op)",
                f"{human_value(torch.num_threads)} / {human_value(torch.num_interop_threads)}")
    section.add("CPU capability", torch.cpu_capability)
    section.add("MKL / oneDNN / OpenMP",
                " / ".join(human_value(v) for v in (torch.mkl_available, torch.mkldnn_available, torch.openmp_available)))
    section.add("TF32 matmul / cuDNN", f"{human_value(settings.matmul_allow_tf32)} / {human_value(settings.cudnn_allow_tf32)}")
    section.add("float32 matmul precision", settings.float32_matmul_precision)
    section.add("cudnn.benchmark / deterministic",
                f"{human_value(settings.cudnn_benchmark)} / {human_value(settings.cudnn_deterministic)}")
    return section


def driver_section(facts: Facts) -> Section:
    driver = facts.driver
    section = Section("NVIDIA driver")
    section.add("NVML available", driver.nvml_available)
    if isinstance(driver.nvml_error, str):
        section.add("NVML error", driver.nvml_error)
    section.add("Driver version", driver.version)
    section.add("Highest CUDA the driver supports", driver.cuda_version)
    section.add("GPUs the driver sees", driver.gpu_count)
    return section


def _pair(current: Any, maximum: Any, unit: str = "") -> str:
    return f"{human_value(current)} / {human_value(maximum)}{(' ' + unit) if unit else ''}"


def gpu_section(gpu: GpuFacts) -> Section:
    section = Section(f"GPU {gpu.index}: {human_value(gpu.name)}")
    section.add("UUID", gpu.uuid)
    section.add("PCI bus", gpu.pci_bus_id)
    section.add("Architecture / compute capability", f"{human_value(gpu.architecture)} / {human_value(gpu.compute_capability)}")
    if isinstance(gpu.compute_capability, Unavailable) and isinstance(gpu.name, str):
        model = gpu_model(gpu.name)  # public table (advisor/knowledge/gpus.yaml): what a paste never states
        if model is not None and not model.ambiguous:
            section.add("Compute capability (from the GPU's name)", model.compute_capability)
    section.add("SMs", gpu.sm_count)
    section.add("torch index", gpu.torch_index)
    used, total = gpu.memory_used_bytes, gpu.memory_total_bytes
    section.rows.append(("Memory used / total", " / ".join(
        human_bytes(v) if isinstance(v, int) else human_value(v) for v in (used, total))))
    section.add("PCIe gen current / max", _pair(gpu.pcie_gen_current, gpu.pcie_gen_max))
    section.add("PCIe width current / max", _pair(gpu.pcie_width_current, gpu.pcie_width_max))
    section.add("SM clock current / max", _pair(gpu.clock_sm_mhz, gpu.clock_sm_max_mhz, "MHz"))
    section.add("Memory clock current / max", _pair(gpu.clock_mem_mhz, gpu.clock_mem_max_mhz, "MHz"))
    section.add("Clock-event reasons", gpu.clock_event_reasons)
    section.add("Power draw / limit", _pair(gpu.power_draw_w, gpu.power_limit_w, "W"))
    section.add("Temperature", gpu.temperature_c, unit="C")
    section.add("ECC enabled", gpu.ecc_enabled)
    section.add("ECC uncorrected (volatile / aggregate)", _pair(gpu.ecc_uncorrected_volatile, gpu.ecc_uncorrected_aggregate))
    section.add("MIG enabled", gpu.mig_enabled)
    section.add("Compute mode", gpu.compute_mode)
    section.add("Persistence mode", gpu.persistence_mode)
    processes = gpu.processes
    if isinstance(processes, Unavailable):
        section.add("Processes", processes)
    else:
        listed = [f"{p.pid} {human_value(p.name)} ({human_bytes(p.used_memory_bytes) if isinstance(p.used_memory_bytes, int) else '?'})"
                  + (" [this process]" if p.is_self else "") for p in processes]
        section.add("Processes", listed or "none")
    return section


def env_section(facts: Facts) -> Section:
    env = facts.env
    section = Section("Environment variables (allowlist)")
    for name, value in sorted(env.variables.items()):
        section.add(name, value)
    if not env.variables:
        section.note = "none of the allowlisted variables is set" if env.complete else "not recorded in this source"
    return section


def packages_section(facts: Facts) -> Section:
    section = Section("Related packages")
    packages = facts.packages
    if isinstance(packages, Unavailable):
        section.note = f"unavailable: {packages.unavailable}"
        return section
    for name, version in sorted(packages.items()):
        section.add(name, version)
    return section


#: Sources that are pasted text (advisor/ingest names them so), and how their "cannot contain" reasons start.
PASTE_KINDS = ("collect_env text", "nvidia-smi -q text")
_NOT_IN_PASTE = ("unavailable: not in collect_env output", "unavailable: not in nvidia-smi -q output",
                 "unavailable: not in the pasted text")


def fact_sections(facts: Facts, sources: tuple[str, ...] | list[str] = ()) -> list[Section]:
    sections = [host_section(facts), torch_section(facts), driver_section(facts)]
    if not isinstance(facts.gpus, Unavailable):
        sections.extend(gpu_section(gpu) for gpu in facts.gpus)
    sections.extend([env_section(facts), packages_section(facts)])
    pasted = [source for source in sources if source.startswith(PASTE_KINDS)]
    if pasted:
        _leave_out_what_pastes_cannot_hold(sections, pasted)
    return sections


def _leave_out_what_pastes_cannot_hold(sections: list[Section], pasted: list[str]) -> None:
    """A paste holds a fraction of the facts: rows whose every value it cannot contain are noise, so they go,
    and the first table says once what the input was."""
    for section in sections:
        section.rows = [row for row in section.rows
                        if not all(part.strip().startswith(_NOT_IN_PASTE) for part in row[-1].split(" / "))]
    note = (f"Read from {' and '.join(pasted)}: rows such a paste cannot contain are left out; "
            "anything else it lacks says why.")
    sections[0].note = f"{note} {sections[0].note}".strip()
