"""This rank's own summary: its fingerprint, its GPU, host->device bandwidth by NUMA placement, its node's topology.

Per-rank work is constant whatever the job's size: one GPU, one NUMA pair of copies, one matmul rate; the
node's topology only on each node's local rank 0.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

from advisor.measure.timer import TimerConfig, time_cpu, time_cuda_events
from advisor.models.clock_events import SLOWDOWN_REASONS
from advisor.models.common import Fact, is_missing, missing
from advisor.models.facts import Facts, GpuFacts
from advisor.models.fleet import HostToDeviceAffinity, NodeTopology, TopologyLink

#: Environment compared across ranks (values, not only presence). Rank numbering differs by design: left out.
FINGERPRINT_ENV_PREFIXES = ("NCCL_", "TORCH_NCCL_", "TORCH_DISTRIBUTED_", "CUDA_", "OMP_", "PYTORCH_CUDA_")
_PER_RANK_BY_DESIGN = {"NCCL_DEBUG_FILE"}
_MATMUL_TIMER = TimerConfig(warmup_runs=2, min_samples=5, budget_s=0.3, target_rel_spread=0.05)
_COPY_TIMER = TimerConfig(warmup_runs=2, min_samples=5, min_samples_slow=5, budget_s=0.2, min_sample_s=1e-3)


def _text(value: Any) -> str:
    return str(value) if not is_missing(value) else "unavailable"


def fingerprint(facts: Facts, gpu: Optional[GpuFacts], nccl_version: Fact[str]) -> dict[str, str]:
    """What must match across ranks: versions, environment, and the GPU's settings."""
    prints = {
        "torch": _text(facts.torch.version), "torch_cuda": _text(facts.torch.cuda_version),
        "nccl": _text(nccl_version), "driver": _text(facts.driver.version),
        "python": _text(facts.host.python_version),
    }
    if gpu is not None:
        prints.update({
            "gpu": _text(gpu.name), "memory_total_bytes": _text(gpu.memory_total_bytes),
            "pcie_max": f"gen{_text(gpu.pcie_gen_max)} x{_text(gpu.pcie_width_max)}",
            "pcie_width_current": _text(gpu.pcie_width_current),
            "sm_clock_max_mhz": _text(gpu.clock_sm_max_mhz), "power_limit_w": _text(gpu.power_limit_w),
            "ecc_enabled": _text(gpu.ecc_enabled), "mig_enabled": _text(gpu.mig_enabled),
        })
    for name, value in facts.env.variables.items():
        if name.startswith(FINGERPRINT_ENV_PREFIXES) and name not in _PER_RANK_BY_DESIGN:
            prints[f"env.{name}"] = value
    return prints


def gpu_health(gpu: GpuFacts) -> list[str]:
    flags = []
    if isinstance(gpu.ecc_uncorrected_volatile, int) and gpu.ecc_uncorrected_volatile > 0:
        flags.append(f"{gpu.ecc_uncorrected_volatile} uncorrected ECC errors")
    if gpu.remapped_rows_pending is True or gpu.remapped_rows_failure is True:
        flags.append("row remapping pending or failed (reset the GPU)")
    if isinstance(gpu.clock_event_reasons, list):
        # Slowdowns only: a power cap under load is how GPUs normally run, not a fault of this one.
        held = sorted(set(SLOWDOWN_REASONS).intersection(gpu.clock_event_reasons))
        if held:
            flags.append("clocks held back: " + ", ".join(held))
    width, width_max = gpu.pcie_width_current, gpu.pcie_width_max
    if isinstance(width, int) and isinstance(width_max, int) and width < width_max:
        flags.append(f"PCIe link x{width} of x{width_max}")
    return flags


def own_gpu(facts: Facts, torch_index: int) -> Optional[GpuFacts]:
    """NVML's record of the GPU torch uses as ``cuda:torch_index`` (matched by UUID, not by index)."""
    if is_missing(facts.gpus):
        return None
    return next((g for g in facts.gpus if g.torch_index == torch_index), None)  # type: ignore[union-attr]


def nccl_version() -> Fact[str]:
    try:
        import torch

        version = torch.cuda.nccl.version()
    except Exception as error:  # noqa: BLE001 - a CPU build has no NCCL
        return missing(f"torch has no NCCL ({type(error).__name__})")
    return ".".join(map(str, version)) if isinstance(version, tuple) else str(version)


def matmul_rate(device: str, quick: bool) -> tuple[str, float]:
    """A rank-local compute rate (no communication), the number stragglers show up in first."""
    import torch

    on_gpu = device.startswith("cuda")
    n = (4096 if not quick else 2048) if on_gpu else 256
    dtype = torch.bfloat16 if on_gpu else torch.float32
    a = torch.randn(n, n, device=device, dtype=dtype)
    b = torch.randn(n, n, device=device, dtype=dtype)
    stats = (time_cuda_events if on_gpu else time_cpu)(lambda: a @ b, _MATMUL_TIMER)
    return ("matmul_bf16_tflops" if on_gpu else "cpu_matmul_fp32_gflops",
            2 * n ** 3 / stats.median_s / (1e12 if on_gpu else 1e9))


def _cpu_list_text(cpus: list[int]) -> str:
    ranges: list[str] = []
    for cpu in sorted(cpus):
        if ranges and int(ranges[-1].split("-")[-1]) == cpu - 1:
            ranges[-1] = f"{ranges[-1].split('-')[0]}-{cpu}"
        else:
            ranges.append(str(cpu))
    return ",".join(ranges)


def h2d_by_affinity(device: str, placement: Any, size: int) -> HostToDeviceAffinity:
    """Pinned host->device copies from memory first touched on the GPU's own cores, then on the others.

    Runs on the calling thread with its CPU affinity changed and restored (sched_setaffinity(0) is per thread).
    """
    import torch

    result = HostToDeviceAffinity(size_bytes=size)
    if placement is None or is_missing(placement.cpu_affinity):
        reason = "NVML gave no CPU affinity for this GPU" if placement is not None else "GPU not found in NVML"
        result.local_cpus = result.local_gbps = result.remote_gbps = missing(reason if placement is None else
                                                                            placement.cpu_affinity.unavailable)
        return result
    result.numa_node = placement.numa_node
    allowed = os.sched_getaffinity(0)
    local = allowed.intersection(placement.cpu_affinity)
    remote = allowed - set(placement.cpu_affinity)
    result.local_cpus = _cpu_list_text(sorted(local)) if local else missing("none of this GPU's cores are usable here")
    target = torch.empty(size, dtype=torch.uint8, device=device)

    def measure(cpus: set[int]) -> Fact[float]:
        os.sched_setaffinity(0, cpus)
        source = torch.empty(size, dtype=torch.uint8, pin_memory=True)
        source.fill_(1)  # first touch on these cores places the pages on their NUMA node
        stats = time_cuda_events(lambda: target.copy_(source, non_blocking=True), _COPY_TIMER)
        return size / stats.median_s / 1e9

    try:
        if local:
            result.local_gbps = measure(local)
        else:
            result.local_gbps = missing("none of this GPU's cores are usable by this process")
        result.remote_gbps = measure(remote) if remote else missing(
            "every usable core is local to this GPU (one NUMA node, or affinity already restricted)")
    finally:
        os.sched_setaffinity(0, allowed)
    return result


def _ib_devices() -> Fact[list[str]]:
    root = Path("/sys/class/infiniband")
    if not root.is_dir():
        return []
    devices = []
    for port in sorted(root.glob("*/ports/*")):
        try:
            rate = (port / "rate").read_text().strip()
            layer = (port / "link_layer").read_text().strip()
            state = (port / "state").read_text().strip()
        except OSError:
            continue
        kind = "RoCE" if layer == "Ethernet" else "IB"
        devices.append(f"{port.parent.parent.name}:{port.name} {kind} {rate} {state.split(':')[-1].strip()}")
    return devices


def node_topology(node: str, quick: bool) -> tuple[NodeTopology, Any]:
    """This node's GPUs, pairs and NICs (NVML + sysfs), with torch's peer-access answer beside each pair."""
    from advisor.probe.nvml_topology import nvlink_pair_count, probe_node_topology

    reading = probe_node_topology()
    topology = NodeTopology(node=node, ib_devices=_ib_devices())
    if is_missing(reading.gpus):
        topology.links = []
        return topology, reading
    gpus = reading.gpus
    topology.gpu_count = len(gpus)
    topology.nvlink_active = {g.index: g.nvlink_active for g in gpus}
    torch_index = _torch_indices(gpus)
    for (a, b), path in sorted(reading.paths.items()):
        link = TopologyLink(gpu_a=a, gpu_b=b, path=path, nvlink_count=nvlink_pair_count(gpus[a], gpus[b]))
        link.peer_access = _peer_access(torch_index.get(a), torch_index.get(b))
        topology.links.append(link)
    return topology, reading


def _torch_indices(gpus: list[Any]) -> dict[int, int]:
    """NVML index -> torch index (by UUID: CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER renumber GPUs)."""
    import torch

    by_uuid = {}
    for index in range(torch.cuda.device_count() if torch.cuda.is_available() else 0):
        uuid = str(getattr(torch.cuda.get_device_properties(index), "uuid", ""))
        by_uuid[uuid.lower().removeprefix("gpu-")] = index
    return {g.index: by_uuid[g.uuid.lower().removeprefix("gpu-")] for g in gpus
            if not is_missing(g.uuid) and g.uuid.lower().removeprefix("gpu-") in by_uuid}


def _peer_access(a: Optional[int], b: Optional[int]) -> Fact[bool]:
    if a is None or b is None:
        return missing("one of the pair is not visible to torch in this process")
    import torch

    return bool(torch.cuda.can_device_access_peer(a, b))


def placement_for(reading: Any, uuid: Fact[str]) -> Any:
    if reading is None or is_missing(reading.gpus) or is_missing(uuid):
        return None
    wanted = uuid.lower().removeprefix("gpu-")
    return next((g for g in reading.gpus if not is_missing(g.uuid) and g.uuid.lower().removeprefix("gpu-") == wanted),
                None)


PEER_COPY_BYTES = 64 << 20


def measure_peer_copies(topology: NodeTopology, reading: Any, size: int = PEER_COPY_BYTES) -> None:
    """GPU-to-GPU copy bandwidth for each pair torch can see (one direction, a -> b), beside NVML's path.

    Run by each node's local rank 0 after the collectives, while the other ranks wait at the gather, so
    nothing else uses the GPUs. A pair without peer access is still timed: its copy goes through the host,
    and the number shows what that costs.
    """
    import torch

    if reading is None or is_missing(reading.gpus):
        return
    torch_index = _torch_indices(reading.gpus)
    for link in topology.links:
        a, b = torch_index.get(link.gpu_a), torch_index.get(link.gpu_b)
        if a is None or b is None:
            link.copy_gbps = missing("one of the pair is not visible to torch in this process")
            continue
        source = torch.empty(size, dtype=torch.uint8, device=f"cuda:{a}")
        target = torch.empty(size, dtype=torch.uint8, device=f"cuda:{b}")
        with torch.cuda.device(a):  # the copy runs on the source device's stream; the events are recorded there
            stats = time_cuda_events(lambda t=target, s=source: t.copy_(s, non_blocking=True), _COPY_TIMER)
        link.copy_gbps = size / stats.median_s / 1e9
