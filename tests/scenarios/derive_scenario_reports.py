"""Scenario reports derived from the real H200 recording, where no real report of the scenario exists.

Nobody pastes a `gpu-advisor diagnose` report of a weak laptop GPU, nor one probed from inside a process while
another job holds the GPU, so those two scenarios start from the real ``tests/fixtures/reports/h200_diagnose.json``
and change only what the scenario needs, by the rules written below (and in tests/fixtures/scenarios/SOURCES.md).
Everything not named here is the H200 machine's recording, unchanged.

Regenerate with:  python tests/scenarios/derive_scenario_reports.py
test_scenarios.py checks that the committed files are exactly what this script writes.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent
H200_REPORT = TESTS / "fixtures" / "reports" / "h200_diagnose.json"
SCENARIOS = TESTS / "fixtures" / "scenarios"
WEAK_LAPTOP_GPU = SCENARIOS / "weak_laptop_rtx3050_vs_16core_cpu_derived.json"
OTHER_PROCESS = SCENARIOS / "other_process_holds_h200_memory_derived.json"

NOT_DERIVED = "not derived for this scenario: the recorded H200 value does not describe this GPU"

# --- weak laptop GPU -------------------------------------------------------------------------------------------
# GeForce RTX 3050 Laptop GPU (GA107, 80 W variant): 2048 CUDA cores at up to 1740 MHz boost, 4 GB GDDR6 on a
# 128-bit bus at 12 Gbps, PCIe 4.0 x8 (as listed for the same chip's Refresh part). Dense peaks (TFLOP/s) as
# published for that part: FP32 7.13, TF32 tensor 7.13, FP16 and BF16 tensor with FP32 accumulate 14.25, FP64 0.11
# (1/64 of FP32). The pages these come from are named in tests/fixtures/scenarios/SOURCES.md.
LAPTOP_NAME = "NVIDIA GeForce RTX 3050 Laptop GPU"
LAPTOP_SPEC_TFLOPS = {"float32": 7.13, "tf32": 7.13, "float16": 14.25, "bfloat16": 14.25, "float64": 0.11}
LAPTOP_MEMORY_GBPS = 192.0  # 128 bit x 12 Gbps / 8
LAPTOP_MEMORY_BYTES = 4 * 2**30
LAPTOP_SM_COUNT = 16  # 2048 cores / 128 per Ampere SM
LAPTOP_BOOST_MHZ = 1740
LAPTOP_LINK = (4, 8)  # PCIe generation, width
H200_LINK_GBPS, LAPTOP_LINK_GBPS = 63.0, 15.75  # per direction, as the probe computes it (Gen5 x16, Gen4 x8)
TIE_MARGIN = 0.05  # advisor.measure.search.TIE_MARGIN: within 5% the two sides are a tie, not a GPU win


def _scale_stats(stats: dict[str, Any] | None, factor: float) -> None:
    if stats:
        for key in ("median_s", "q1_s", "q3_s", "min_s", "max_s"):
            stats[key] *= factor


def _stretch_gpu_times(result: dict[str, Any], slowdown: float) -> None:
    """Each GPU time t becomes floor + (t - floor) * slowdown; floor is the table's fastest GPU median.

    The floor is the fixed per-op cost (launch, synchronize, copy set-up), paid by the host and kept as measured;
    only the work above it is slowed by the ratio of the two parts' published rates.
    """
    floor = min(point["gpu"]["median_s"] for point in result["points"])
    for point in result["points"]:
        for key in ("median_s", "q1_s", "q3_s", "min_s", "max_s"):
            value = point["gpu"][key]
            point["gpu"][key] = floor + max(0.0, value - floor) * slowdown
        speedup = point["cpu"]["median_s"] / point["gpu"]["median_s"]
        point["speedup"] = speedup
        point["winner"] = "gpu" if speedup > 1 + TIE_MARGIN else "cpu" if speedup < 1 / (1 + TIE_MARGIN) else "tie"
        point["close_call"] = False
    # The crossover the points now imply, as advisor.measure.search.crossover_from_winners decides it.
    ordered = sorted(result["points"], key=lambda p: p["size"])
    index = None
    for i in range(len(ordered) - 1, -1, -1):
        if ordered[i]["winner"] != "gpu":
            break
        index = i
    result["crossover_size"] = ordered[index]["size"] if index is not None else None
    result["gpu_never_wins"] = index is None
    result["gpu_always_wins"] = index == 0
    result["close_race_from"] = result["close_race_to"] = None


def derive_weak_laptop_gpu(h200: dict[str, Any]) -> dict[str, Any]:
    report = copy.deepcopy(h200)
    report["meta"]["sources"] = ["probe", "measurements",
                                 "derived: H200 recording rescaled to a GeForce RTX 3050 Laptop GPU (see SOURCES.md)"]
    report["findings"], report["skipped"] = [], []
    peaks = report["measurements"]["peaks"]
    h200_spec = dict(peaks["spec_matmul_tflops"])
    h200_memory = peaks["spec_memory_gbps"]
    rate = {dtype: LAPTOP_SPEC_TFLOPS[dtype] / h200_spec[dtype] for dtype in LAPTOP_SPEC_TFLOPS}
    memory_rate = LAPTOP_MEMORY_GBPS / h200_memory
    link_rate = LAPTOP_LINK_GBPS / H200_LINK_GBPS

    # Peaks: the same fraction of the published peak the H200 reached, for each dtype.
    for dtype in rate:
        peaks["matmul_tflops"][dtype] *= rate[dtype]
    peaks["spec_matmul_tflops"] = dict(LAPTOP_SPEC_TFLOPS)
    peaks["spec_memory_gbps"] = LAPTOP_MEMORY_GBPS
    peaks["device_copy_gbps"] *= memory_rate
    for detail in peaks["details"]:
        name = detail["name"]
        if name.startswith("GPU matmul "):
            factor = rate[name.removeprefix("GPU matmul ")]
        elif name == "device memory copy":
            factor = memory_rate
        else:
            continue  # CPU matmul: the recorded 16-core CPU, unchanged
        detail["value"] *= factor
        _scale_stats(detail["stats"], 1 / factor)

    # Crossover tables: GPU work slowed by the compute ratio (matmul, conv2d) or the memory-bandwidth ratio (add,
    # sum); in the copy modes the work above the floor is mostly the PCIe copy, slowed by the link ratio instead.
    for result in report["measurements"]["crossover"]:
        if result["status"] != "ok" or not result["points"]:
            continue
        if result["mode"].startswith("transfer"):
            slowdown = 1 / link_rate
        elif result["op"] in ("matmul", "conv2d"):
            slowdown = 1 / rate[result["dtype"]]
        else:
            slowdown = 1 / memory_rate
        _stretch_gpu_times(result, slowdown)

    # The timed-without-synchronize demo: its GPU side is a 4096^3 float32 matmul; the host-side naive time stays.
    unsync = report["measurements"]["unsync_timing"]
    unsync["correct_s"] /= rate["float32"]
    unsync["underreport_factor"] = unsync["correct_s"] / unsync["naive_s"]

    # Host<->device copies: the same fraction of a Gen4 x8 link as the H200 reached of its Gen5 x16 link.
    transfer = report["measurements"]["transfer"]
    for key in ("h2d_pinned_gbps", "h2d_pageable_gbps", "d2h_pinned_gbps", "d2h_pageable_gbps"):
        transfer[key] *= link_rate
    for point in transfer["points"]:
        point["value"] *= link_rate
        _scale_stats(point["stats"], 1 / link_rate)
    transfer["link_gen_under_load"], transfer["link_width_under_load"] = LAPTOP_LINK
    transfer["link_gen_max"], transfer["link_width_max"] = LAPTOP_LINK
    transfer["link_theoretical_gbps"] = transfer["link_max_theoretical_gbps"] = LAPTOP_LINK_GBPS

    state = report["measurements"]["gpu_state"]
    for key in ("sm_clock_min_mhz", "sm_clock_max_mhz", "temperature_max_c", "power_max_w"):
        state[key] = {"unavailable": NOT_DERIVED}
    report["measurements"]["run"]["device_name"] = LAPTOP_NAME

    gpu = report["facts"]["gpus"][0]
    free_share = gpu["memory_free_bytes"] / gpu["memory_total_bytes"]  # what the driver keeps back, as on the H200
    free = int(LAPTOP_MEMORY_BYTES * free_share)
    gpu.update({
        "name": LAPTOP_NAME, "architecture": "Ampere", "compute_capability": "8.6", "sm_count": LAPTOP_SM_COUNT,
        "serial": None, "memory_total_bytes": LAPTOP_MEMORY_BYTES, "memory_used_bytes": 0, "memory_free_bytes": free,
        "pcie_gen_current": LAPTOP_LINK[0], "pcie_gen_max": LAPTOP_LINK[0], "pcie_gen_gpu_max": LAPTOP_LINK[0],
        "pcie_width_current": LAPTOP_LINK[1], "pcie_width_max": LAPTOP_LINK[1],
        "clock_sm_max_mhz": LAPTOP_BOOST_MHZ, "ecc_enabled": None,
    })
    for key in ("clock_sm_mhz", "clock_mem_mhz", "clock_mem_max_mhz", "power_draw_w", "power_limit_w",
                "temperature_c"):
        gpu[key] = {"unavailable": NOT_DERIVED}
    for key in ("ecc_uncorrected_volatile", "ecc_corrected_volatile", "ecc_uncorrected_aggregate",
                "remapped_rows_pending", "remapped_rows_failure"):
        gpu[key] = {"unavailable": "GeForce GPUs have no ECC memory or row remapping"}
    device = report["facts"]["torch"]["devices"][0]
    device.update({"name": LAPTOP_NAME, "compute_capability": "8.6", "total_memory_bytes": free,
                   "sm_count": LAPTOP_SM_COUNT})
    return report


# --- another process holds most of the memory -------------------------------------------------------------------
# Probed from inside the user's process (the only view in which gpu-advisor can tell its own memory from another
# job's): a second process -- say a notebook kernel left running -- holds 128 GiB of the H200's memory.
OTHER_PID = 4242
OTHER_NAME = "/usr/bin/python3"
OTHER_BYTES = 128 * 2**30


def derive_other_process(h200: dict[str, Any]) -> dict[str, Any]:
    report = copy.deepcopy(h200)
    report["meta"]["command"] = "env"
    report["meta"]["sources"] = ["probe",
                                 "derived: H200 probe with another process holding 128 GiB (see SOURCES.md)"]
    report["meta"]["wall_s"] = None
    report["findings"], report["skipped"] = [], []
    # A facts-only report (`gpu-advisor env`): the H200's timings were taken on an idle GPU and would not hold
    # with another job on it, so none are kept.
    report["measurements"] = _unmeasured()
    gpu = report["facts"]["gpus"][0]
    gpu["processes"] = [{"pid": OTHER_PID, "name": OTHER_NAME, "used_memory_bytes": OTHER_BYTES, "is_self": False}]
    gpu["other_processes_memory_bytes"] = OTHER_BYTES
    gpu["memory_used_bytes"] = OTHER_BYTES
    gpu["memory_free_bytes"] -= OTHER_BYTES
    return report


def _unmeasured() -> dict[str, Any]:
    from advisor.models.measurements import Measurements

    return json.loads(Measurements().model_dump_json())


def write_all() -> None:
    h200 = json.loads(H200_REPORT.read_text())
    for path, derive in ((WEAK_LAPTOP_GPU, derive_weak_laptop_gpu), (OTHER_PROCESS, derive_other_process)):
        path.write_text(render(derive(h200)))


def render(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2) + "\n"


if __name__ == "__main__":
    write_all()
