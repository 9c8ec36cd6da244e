"""Derived facts: small, pure conclusions drawn from raw facts that rules cannot express as comparisons.

They are recomputed every time rules run (also on a loaded report), so they never go stale and are never
stored. Rules read them as ``derived.*`` (machine-wide) and ``gpu.*`` (per GPU, beside the raw GPU facts).
Each one is Unavailable, with the reason, when the facts it needs are.
"""

from typing import Optional, Union

from pydantic import ConfigDict, Field

from advisor import knowledge as kb
from advisor.engine import derive_knowledge as knowledge
from advisor.engine import derive_measured as measured
from advisor.engine.derive_measured import CrossoverSize, Never
from advisor.models.clock_events import PERFORMANCE_LIMITING_REASONS
from advisor.models.common import NOT_COLLECTED, Fact, Unavailable, is_missing, missing
from advisor.models.facts import Facts, GpuFacts
from advisor.models.measurements import CrossoverMode, DType, Measurements, Op

# Minor-version compatibility floors on Linux: a CUDA X.y build runs on any driver of at least this version
# (CUDA Toolkit release notes, table 3). The driver's own CUDA major must still be at least X.
DRIVER_FLOOR_BY_CUDA_MAJOR = {13: "580", 12: "525", 11: "450.80.02"}
# Before CUDA 11 there was no minor-version compatibility: each release needs its own minimum driver.
DRIVER_FLOOR_BY_CUDA_RELEASE = {"10.2": "440.33", "10.1": "418.39", "10.0": "410.48", "9.2": "396.26",
                                "9.1": "390.46", "9.0": "384.81", "8.0": "375.26"}

#: Derived facts that are text for messages, not values: the loader refuses them in a condition.
DISPLAY_ONLY = frozenset({"derived.matmul_crossovers", "derived.add_crossovers"})


class DerivedFacts(knowledge.MachineKnowledge):  # + facts from public tables (derive_knowledge.py)
    # Built when rules first run, not when the loader imports this module to check ``derived.*`` paths.
    model_config = ConfigDict(extra="forbid", defer_build=True)

    torch_cuda_major: Fact[Optional[int]] = NOT_COLLECTED
    driver_cuda_major: Fact[int] = NOT_COLLECTED
    #: The oldest driver torch's CUDA major runs on (minor-version compatibility floor).
    driver_floor_for_torch_cuda: Fact[Optional[str]] = NOT_COLLECTED
    #: GPUs NVML sees that torch in this process does not (CUDA_VISIBLE_DEVICES and friends).
    gpus_hidden_from_torch: Fact[int] = NOT_COLLECTED
    #: CUDA_VISIBLE_DEVICES is set to a value that hides every GPU ("", "-1", "none").
    cuda_visible_devices_hides_all: Fact[bool] = NOT_COLLECTED

    # -- from measurements (engine/derive_measured.py) --
    #: op -> dtype -> mode -> crossover size; "never" where the GPU never won in the range tried; the reason
    #: where the run skipped it or it failed.
    crossover: dict[Op, dict[DType, dict[CrossoverMode, Fact[CrossoverSize]]]] = Field(default_factory=dict)
    #: Display text for messages ("142 (data resident), 209 (synchronized per op), ..."): conditions read
    #: ``crossover`` instead (the loader refuses these in ``when``).
    matmul_crossovers: Fact[str] = NOT_COLLECTED
    add_crossovers: Fact[str] = NOT_COLLECTED
    #: Pinned-copy crossover over resident crossover ("never": copies make the GPU lose at every size tried).
    matmul_transfer_ratio: Fact[Union[float, Never]] = NOT_COLLECTED
    add_transfer_ratio: Fact[Union[float, Never]] = NOT_COLLECTED
    #: Share of a copied elementwise add's GPU-side time spent moving data (largest size measured both ways).
    add_copy_share: Fact[float] = NOT_COLLECTED
    gpu_cpu_matmul_ratio: Fact[float] = NOT_COLLECTED
    fp64_fp32_ratio: Fact[float] = NOT_COLLECTED
    tf32_speedup: Fact[float] = NOT_COLLECTED
    bf16_speedup: Fact[float] = NOT_COLLECTED
    fp16_speedup: Fact[float] = NOT_COLLECTED
    launch_to_kernel_ratio: Fact[float] = NOT_COLLECTED
    link_degraded_under_load: Fact[bool] = NOT_COLLECTED
    slowdown_reasons_under_load: Fact[list[str]] = NOT_COLLECTED
    #: Share of crossover comparisons too close to call within their time cap (noise on the machine).
    close_call_fraction: Fact[float] = NOT_COLLECTED


#: The derived facts computed from measurements: every field from ``crossover`` on, in declaration order.
_FIELDS = list(DerivedFacts.model_fields)
MEASURED_DERIVED = frozenset(_FIELDS[_FIELDS.index("crossover"):])


def reads_measurements(paths: list[str]) -> bool:
    """Whether a rule reading these fact paths needs measurements (a command that measures, not `env`)."""
    return any(path.startswith("measurements.") or
               (path.startswith("derived.") and path.split(".")[1] in MEASURED_DERIVED) for path in paths)


class GpuDerived(knowledge.GpuKnowledge):  # + facts from public tables (derive_knowledge.py)
    model_config = ConfigDict(extra="forbid", defer_build=True)

    sm_arch: Fact[str] = NOT_COLLECTED  # "sm_90"
    #: torch's build holds machine code (or PTX it can JIT) that runs on this GPU.
    torch_arch_supported: Fact[bool] = NOT_COLLECTED
    other_processes_memory_fraction: Fact[float] = NOT_COLLECTED
    memory_free_fraction: Fact[float] = NOT_COLLECTED
    performance_limiting_reasons: Fact[list[str]] = NOT_COLLECTED
    pcie_below_max: Fact[bool] = NOT_COLLECTED
    ecc_problem: Fact[bool] = NOT_COLLECTED


def _first_missing(*values: object) -> Optional[Unavailable]:
    return next((v for v in values if isinstance(v, Unavailable)), None)


def _major(version: object) -> Fact[Optional[int]]:
    if is_missing(version):
        return version  # type: ignore[return-value]
    if version is None:
        return None
    try:
        return int(str(version).split(".")[0])
    except ValueError:
        return missing(f"cannot read a major version from {version!r}")


def derive_machine(facts: Facts, measurements: Optional[Measurements] = None) -> DerivedFacts:
    torch_major = _major(facts.torch.cuda_version)
    driver_major = _major(facts.driver.cuda_version)
    if is_missing(torch_major):
        floor: Fact[Optional[str]] = torch_major
    elif torch_major is None:
        floor = None
    elif torch_major in DRIVER_FLOOR_BY_CUDA_MAJOR:
        floor = DRIVER_FLOOR_BY_CUDA_MAJOR[torch_major]
    else:
        release = ".".join(str(facts.torch.cuda_version).split(".")[:2])
        floor = DRIVER_FLOOR_BY_CUDA_RELEASE.get(release, missing(f"no known driver floor for CUDA {release}"))

    cvd = facts.env.variables.get("CUDA_VISIBLE_DEVICES")
    if cvd is not None:
        hides_all: Fact[bool] = cvd.strip() in ("", "-1", "none", "None", "NoDevFiles")
    elif facts.env.complete:
        hides_all = False
    else:
        hides_all = missing("CUDA_VISIBLE_DEVICES is not in the source")

    nvml_count, torch_count = facts.driver.gpu_count, facts.torch.device_count
    hidden = _first_missing(nvml_count, torch_count) or max(0, nvml_count - torch_count)  # type: ignore[operator]

    derived = DerivedFacts(
        torch_cuda_major=torch_major,
        driver_cuda_major=driver_major,
        driver_floor_for_torch_cuda=floor,
        gpus_hidden_from_torch=hidden,
        cuda_visible_devices_hides_all=hides_all,
    )
    knowledge.enrich_machine(derived, facts)
    if measurements is not None:
        _derive_measured(derived, measurements)
    return derived


def _derive_measured(derived: DerivedFacts, m: Measurements) -> None:
    overheads = m.overheads
    derived.crossover = measured.crossover_map(m)
    derived.matmul_crossovers = measured.crossover_summary(m, "matmul", "float32")
    derived.add_crossovers = measured.crossover_summary(m, "add", "float32")
    derived.matmul_transfer_ratio = measured.transfer_ratio(m, "matmul", "float32")
    derived.add_transfer_ratio = measured.transfer_ratio(m, "add", "float32")
    derived.add_copy_share = measured.copy_share(m, "add", "float32")
    derived.gpu_cpu_matmul_ratio = measured.gpu_cpu_ratio(m)
    derived.fp64_fp32_ratio = measured.peak_ratio(m, "float64")
    derived.tf32_speedup = measured.peak_ratio(m, "tf32")
    derived.bf16_speedup = measured.peak_ratio(m, "bfloat16")
    derived.fp16_speedup = measured.peak_ratio(m, "float16")
    derived.launch_to_kernel_ratio = measured.ratio(overheads.launch_us, overheads.tiny_kernel_us, "not measured")
    derived.link_degraded_under_load = measured.link_degraded(m)
    derived.slowdown_reasons_under_load = measured.slowdown_seen(m)
    derived.close_call_fraction = measured.close_call_fraction(m)


def parse_compute_capability(cc: str) -> tuple[int, int]:
    major, minor = cc.strip().split(".")
    return int(major), int(minor)


def arch_runs_on(arch: str, cc: tuple[int, int]) -> bool:
    """Whether one entry of torch's arch list can run on a GPU of compute capability ``cc`` (the knowledge
    tables' rule, which the advice uses too: sm_XY on the same major with minor >= Y, sm_XYa only on X.Y,
    compute_XY PTX on any GPU of at least X.Y)."""
    return kb.arch_runs_on(arch, cc)


def derive_gpu(gpu: GpuFacts, facts: Facts) -> GpuDerived:
    derived = GpuDerived()
    if not is_missing(gpu.compute_capability):
        try:
            cc = parse_compute_capability(gpu.compute_capability)
        except ValueError:
            cc = None
        if cc is not None:
            derived.sm_arch = f"sm_{cc[0]}{cc[1]}"
            arch_list = facts.torch.arch_list
            if is_missing(arch_list):
                derived.torch_arch_supported = arch_list
            elif not arch_list:
                derived.torch_arch_supported = missing("torch reports an empty arch list (CPU build?)")
            else:
                derived.torch_arch_supported = any(arch_runs_on(a, cc) for a in arch_list)
    else:
        derived.sm_arch = derived.torch_arch_supported = gpu.compute_capability

    total = gpu.memory_total_bytes
    others = gpu.other_processes_memory_bytes
    derived.other_processes_memory_fraction = _first_missing(others, total) or (
        others / total if total else missing("GPU reports zero memory")  # type: ignore[operator]
    )
    free = gpu.memory_free_bytes
    derived.memory_free_fraction = _first_missing(free, total) or (
        free / total if total else missing("GPU reports zero memory")  # type: ignore[operator]
    )
    derived.performance_limiting_reasons = _limiting_reasons(gpu)
    derived.pcie_below_max = _first_missing(
        gpu.pcie_gen_current, gpu.pcie_gen_max, gpu.pcie_width_current, gpu.pcie_width_max
    ) or (gpu.pcie_gen_current < gpu.pcie_gen_max or gpu.pcie_width_current < gpu.pcie_width_max)  # type: ignore[operator]
    derived.ecc_problem = _ecc_problem(gpu)
    knowledge.enrich_gpu(derived, gpu, facts)
    return derived


def _limiting_reasons(gpu: GpuFacts) -> Fact[list[str]]:
    """Clock-event reasons that cost speed now. A software power cap only limits a GPU drawing close to its
    limit: drivers report it "active" on idle GPUs drawing a tenth of it, which limits nothing."""
    reasons = gpu.clock_event_reasons
    if is_missing(reasons):
        return reasons
    limiting = [r for r in reasons if r in PERFORMANCE_LIMITING_REASONS]
    draw, limit = gpu.power_draw_w, gpu.power_limit_w
    if "sw_power_cap" in limiting and isinstance(draw, float) and isinstance(limit, float) and draw < 0.8 * limit:
        limiting.remove("sw_power_cap")
    return limiting


def _ecc_problem(gpu: GpuFacts) -> Fact[bool]:
    signals = [gpu.ecc_uncorrected_volatile, gpu.ecc_uncorrected_aggregate,
               gpu.remapped_rows_pending, gpu.remapped_rows_failure]
    known = [s for s in signals if not is_missing(s)]
    if any(bool(s) for s in known):
        return True
    if not known:
        return _first_missing(*signals)  # type: ignore[return-value]
    return False
