"""nvidia-smi -q text -> DriverFacts/GpuFacts, drivers 418 to 610 (sources in fixtures/nvidia_smi/SOURCES.md)."""

from __future__ import annotations

import pytest
from ingest_helpers import at, fixture, reason

from advisor.ingest import facts_from_text

MIB = 1024**2

EXPECTED = {
    "a10_driver550_ecc.txt": {
        "driver.version": "550.127.05", "driver.cuda_version": "12.4", "driver.gpu_count": 1,
        "gpus.0.index": 0, "gpus.0.name": "NVIDIA A10", "gpus.0.uuid": "GPU-51ae0086-e1ac-4a20-f062-9caa44e4df6d",
        "gpus.0.serial": "1324722021038", "gpus.0.pci_bus_id": "00000000:06:00.0", "gpus.0.architecture": "Ampere",
        "gpus.0.memory_total_bytes": 23028 * MIB, "gpus.0.memory_used_bytes": 1 * MIB,
        "gpus.0.memory_free_bytes": 22503 * MIB,
        "gpus.0.pcie_gen_current": 1, "gpus.0.pcie_gen_max": 4, "gpus.0.pcie_gen_gpu_max": 4,
        "gpus.0.pcie_width_current": 16, "gpus.0.pcie_width_max": 16,
        "gpus.0.clock_sm_mhz": 210, "gpus.0.clock_sm_max_mhz": 1695, "gpus.0.clock_mem_mhz": 405,
        "gpus.0.clock_mem_max_mhz": 6251, "gpus.0.clock_event_reasons": ["gpu_idle"],
        "gpus.0.power_draw_w": 21.3, "gpus.0.power_limit_w": 150.0, "gpus.0.temperature_c": 33,
        "gpus.0.ecc_enabled": True, "gpus.0.ecc_uncorrected_volatile": 0, "gpus.0.ecc_corrected_volatile": 0,
        "gpus.0.ecc_uncorrected_aggregate": 0, "gpus.0.remapped_rows_pending": False,
        "gpus.0.remapped_rows_failure": False, "gpus.0.mig_enabled": False, "gpus.0.compute_mode": "default",
        "gpus.0.persistence_mode": True, "gpus.0.processes": [],
    },
    "rtx3090_driver535.txt": {
        "driver.version": "535.154.05", "driver.cuda_version": "12.2",
        "gpus.0.name": "NVIDIA GeForce RTX 3090", "gpus.0.serial": None,
        # The slot limits this Gen4 GPU to Gen3: Max (GPU and slot) 3, Device Max (the GPU alone) 4.
        "gpus.0.pcie_gen_current": 3, "gpus.0.pcie_gen_max": 3, "gpus.0.pcie_gen_gpu_max": 4,
        "gpus.0.clock_sm_mhz": 1695, "gpus.0.clock_sm_max_mhz": 2100, "gpus.0.clock_mem_max_mhz": 9751,
        "gpus.0.power_draw_w": 99.31, "gpus.0.power_limit_w": 350.0,
        "gpus.0.ecc_enabled": None, "gpus.0.persistence_mode": False, "gpus.0.mig_enabled": False,
    },
    "rtx4090x8_driver535_processes.txt": {
        "driver.gpu_count": 8, "gpus.7.index": 7, "gpus.7.pci_bus_id": "00000000:E1:00.0",
        "gpus.1.uuid": "GPU-8f4d1755-9c8a-3a19-b71e-c190b3801dec", "gpus.1.architecture": "Ada Lovelace",
        "gpus.1.clock_event_reasons": ["sw_power_cap"], "gpus.1.pcie_gen_current": 4,
        "gpus.1.clock_sm_mhz": 2640, "gpus.1.clock_sm_max_mhz": 3105, "gpus.1.power_draw_w": 445.38,
        "gpus.1.memory_used_bytes": 21608 * MIB, "gpus.1.temperature_c": 72,
        "gpus.1.processes.0.pid": 1285135, "gpus.1.processes.0.name": "/usr/bin/python",
        "gpus.1.processes.0.used_memory_bytes": 21602 * MIB, "gpus.1.processes.0.is_self": False,
        "gpus.4.clock_event_reasons": ["sw_power_cap"], "gpus.4.processes.0.pid": 1292330,
        "gpus.5.clock_event_reasons": ["gpu_idle"], "gpus.5.processes": [], "gpus.5.pcie_gen_current": 1,
        "gpus.0.ecc_enabled": False, "gpus.0.remapped_rows_pending": False,
    },
    "v100_sxm2_driver418_throttle_truncated.txt": {
        # "Attached GPUs: 4", but the author printed only the first GPU's section.
        "driver.version": "418.67", "driver.cuda_version": "10.1", "driver.gpu_count": 4,
        "gpus.0.name": "Tesla V100-SXM2-32GB", "gpus.0.pci_bus_id": "00000004:04:00.0",
        "gpus.0.serial": "0561519020531",
        "gpus.0.pcie_gen_current": 3, "gpus.0.pcie_gen_max": 3, "gpus.0.pcie_width_current": 2,
        "gpus.0.pcie_width_max": 16, "gpus.0.clock_event_reasons": ["gpu_idle"],
        "gpus.0.clock_sm_mhz": 135, "gpus.0.clock_sm_max_mhz": 1530, "gpus.0.clock_mem_max_mhz": 877,
        "gpus.0.power_draw_w": 39.78, "gpus.0.power_limit_w": 300.0, "gpus.0.temperature_c": 38,
        "gpus.0.ecc_enabled": True, "gpus.0.ecc_uncorrected_volatile": 0, "gpus.0.ecc_corrected_volatile": 0,
        "gpus.0.ecc_uncorrected_aggregate": 0, "gpus.0.memory_total_bytes": 32480 * MIB,
    },
    "windows_rtx3060_laptop_driver610_wddm.txt": {
        # 610 deprecates "Driver Version"/"CUDA Version" in favour of KMD/CUDA UMD Version.
        "driver.version": "610.88", "driver.cuda_version": "13.3",
        "gpus.0.name": "NVIDIA GeForce RTX 3060 Laptop GPU", "gpus.0.pcie_width_current": 8,
        "gpus.0.pcie_width_max": 16, "gpus.0.power_draw_w": 12.11, "gpus.0.power_limit_w": 80.0,
        "gpus.0.memory_total_bytes": 6144 * MIB, "gpus.0.ecc_enabled": None, "gpus.0.mig_enabled": False,
        "gpus.0.processes.0.pid": 24420, "gpus.0.processes.1.pid": 28204,
        "gpus.0.processes.0.name": r"C:\Program Files\BraveSoftware\Brave-Browser\Application\brave.exe",
    },
}


def _facts(name: str):
    facts, kinds = facts_from_text(fixture("nvidia_smi", name), name)
    assert kinds == ["nvidia-smi -q text"]
    return facts


@pytest.mark.parametrize("name,path,expected",
                         [(name, path, value) for name, table in EXPECTED.items() for path, value in table.items()])
def test_parsed_value(name: str, path: str, expected: object) -> None:
    assert at(_facts(name), path) == expected


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_facts_nvidia_smi_never_prints_stay_unavailable(name: str) -> None:
    facts = _facts(name)
    gpu = facts.gpus[0]
    assert reason(gpu.compute_capability) == "nvidia-smi -q does not print the compute capability"
    assert reason(gpu.sm_count) == "nvidia-smi -q does not print the SM count"
    assert "probed from inside" in reason(gpu.other_processes_memory_bytes)
    assert "collect_env" in reason(facts.torch.version)
    assert "collect_env" in reason(facts.host.cpu_model)
    assert reason(facts.driver.nvml_version) == "not in nvidia-smi -q output"


def test_older_drivers_lack_fields_and_say_so() -> None:
    v100 = _facts("v100_sxm2_driver418_throttle_truncated.txt").gpus[0]
    assert reason(v100.architecture) == "not in nvidia-smi -q output"
    assert reason(v100.pcie_gen_gpu_max) == "not in nvidia-smi -q output"
    assert "drivers before 450" in reason(v100.mig_enabled)
    assert "row remapping" in reason(v100.remapped_rows_pending)


def test_na_values_become_reasons_in_nvidia_smis_words() -> None:
    gpu = _facts("rtx3090_driver535.txt").gpus[0]
    assert "ECC unsupported or disabled" in reason(gpu.ecc_uncorrected_volatile)
    assert reason(gpu.remapped_rows_failure) == "nvidia-smi printed 'N/A': this GPU does not remap rows"
    windows = _facts("windows_rtx3060_laptop_driver610_wddm.txt").gpus[0]
    assert "Windows" in reason(windows.persistence_mode)
    assert reason(windows.processes[0].used_memory_bytes) == \
        "nvidia-smi printed 'Not available in WDDM driver model'"
    assert reason(windows.remapped_rows_pending).startswith("nvidia-smi printed 'N/A'")


def test_every_reason_name_under_either_heading() -> None:
    # "Not Active" appears only among the reasons in this file; turning every one on names all nine.
    text = fixture("nvidia_smi", "v100_sxm2_driver418_throttle_truncated.txt")
    assert text.count(": Not Active") == 8
    facts, _ = facts_from_text(text.replace(": Not Active", ": Active"), "all-active")
    assert facts.gpus[0].clock_event_reasons == [
        "gpu_idle", "applications_clocks_setting", "sw_power_cap", "hw_slowdown", "hw_thermal_slowdown",
        "hw_power_brake_slowdown", "sync_boost", "sw_thermal_slowdown", "display_clock_setting"]
    event = fixture("nvidia_smi", "a10_driver550_ecc.txt").replace(
        "        SW Thermal Slowdown               : Not Active",
        "        SW Thermal Slowdown               : Active")
    assert facts_from_text(event, "thermal")[0].gpus[0].clock_event_reasons == ["gpu_idle", "sw_thermal_slowdown"]
