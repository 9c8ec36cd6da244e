"""NVML's view of a node's layout for the distributed diagnosis: placement, NVLink, common ancestors.

Built on nvml.py's one lazy wrapper (``_Nvml``, ``_import``): pynvml is still imported in nvml.py only.
Read-only, no CUDA context, like the rest of the probe.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor.models.common import Fact, is_missing, missing
from advisor.probe.nvml import _ENABLED, NOT_SUPPORTED, _import, _init, _Nvml, _shutdown, _str

#: nvmlGpuTopologyLevel_t -> the column names ``nvidia-smi topo -m`` prints.
TOPOLOGY_LEVELS = {0: "SELF", 10: "PIX", 20: "PXB", 30: "PHB", 40: "NODE", 50: "SYS"}
_NVLINK_MAX_LINKS = 18  # NVML_NVLINK_MAX_LINKS (Hopper has 18)
_NVLINK_SWITCH = 2  # NVML_NVLINK_DEVICE_TYPE_SWITCH


@dataclass(frozen=True)
class GpuPlacement:
    """Where one GPU sits: its host cores and NUMA node, and where its NVLinks go."""

    index: int
    uuid: Fact[str]
    pci_bus_id: Fact[str]
    cpu_affinity: Fact[list[int]]
    numa_node: Fact[int]
    nvlink_active: Fact[int]
    #: PCI bus id at the far end of each active link ("switch" for an NVSwitch port).
    nvlink_peers: Fact[list[str]]


@dataclass(frozen=True)
class NodeTopologyReading:
    gpus: Fact[list[GpuPlacement]]
    #: (NVML index a, NVML index b), a < b -> "NVLINK" when linked, else the common ancestor (PIX ... SYS).
    paths: dict[tuple[int, int], Fact[str]]


def cpu_list_from_mask(words: Any, word_bits: int = 64) -> list[int]:
    """NVML's affinity bitmask (an array of 64-bit words, CPU 0 in bit 0 of word 0) -> CPU numbers."""
    return [word_index * word_bits + bit for word_index, word in enumerate(words)
            for bit in range(word_bits) if int(word) >> bit & 1]


def _sysfs_numa_node(bus_id: Fact[str]) -> Fact[int]:
    if is_missing(bus_id):
        return bus_id
    # NVML spells the domain with 8 digits ("00000000:18:00.0"), sysfs with 4.
    domain, _, rest = bus_id.lower().partition(":")
    try:
        value = int(Path(f"/sys/bus/pci/devices/{domain[-4:]}:{rest}/numa_node").read_text().strip())
    except (OSError, ValueError) as error:
        return missing(f"NUMA node unknown ({error})")
    return value if value >= 0 else missing("the kernel reports no NUMA node for this GPU (single-node system)")


def _nvlinks(nv: _Nvml, handle: Any) -> tuple[Fact[int], Fact[list[str]]]:
    lib = nv.lib
    peers: list[str] = []
    for link in range(getattr(lib, "NVML_NVLINK_MAX_LINKS", _NVLINK_MAX_LINKS)):
        state = nv.query(lambda link=link: lib.nvmlDeviceGetNvLinkState(handle, link))
        if is_missing(state):
            if link == 0:  # no NVLink on this GPU at all (PCIe card): zero links is a fact, not a gap
                return (0, []) if state.unavailable == NOT_SUPPORTED else (state, state)
            break  # past the last link this GPU has
        if state != _ENABLED:
            continue
        kind = nv.query(lambda link=link: lib.nvmlDeviceGetNvLinkRemoteDeviceType(handle, link))
        if kind == _NVLINK_SWITCH:
            peers.append("switch")
            continue
        remote = nv.query(lambda link=link: lib.nvmlDeviceGetNvLinkRemotePciInfo(handle, link),
                          convert=lambda info: _str(info.busId))
        peers.append("unknown" if is_missing(remote) else remote)
    return len(peers), peers


def _placement(nv: _Nvml, index: int, words: int) -> GpuPlacement:
    lib = nv.lib
    handle = nv.query(lambda: lib.nvmlDeviceGetHandleByIndex(index))
    if is_missing(handle):
        return GpuPlacement(index, handle, handle, handle, handle, handle, handle)
    bus_id = nv.query(lambda: lib.nvmlDeviceGetPciInfo(handle), convert=lambda info: _str(info.busId))
    numa = nv.query(lambda: lib.nvmlDeviceGetNumaNodeId(handle))
    if is_missing(numa) or numa < 0:
        numa = _sysfs_numa_node(bus_id)
    active, peers = _nvlinks(nv, handle)
    return GpuPlacement(
        index=index,
        uuid=nv.query(lambda: lib.nvmlDeviceGetUUID(handle), convert=_str),
        pci_bus_id=bus_id,
        cpu_affinity=nv.query(lambda: lib.nvmlDeviceGetCpuAffinity(handle, words), convert=cpu_list_from_mask),
        numa_node=numa,
        nvlink_active=active,
        nvlink_peers=peers,
    )


def probe_node_topology() -> NodeTopologyReading:
    """Every GPU's placement and every pair's path on this node (NVML reads only, no CUDA context)."""
    lib, error = _import()
    if error is None:
        error = _init(lib)
    if error is not None:
        return NodeTopologyReading(missing(error), {})
    try:
        nv = _Nvml(lib)
        count = nv.query(lambda: lib.nvmlDeviceGetCount())
        if is_missing(count):
            return NodeTopologyReading(count, {})
        words = max(1, -(-(os.cpu_count() or 64) // 64))
        gpus = [_placement(nv, index, words) for index in range(count)]
        paths: dict[tuple[int, int], Fact[str]] = {}
        for a in range(count):
            for b in range(a + 1, count):
                paths[(a, b)] = _pair_path(nv, gpus[a], gpus[b])
        return NodeTopologyReading(gpus, paths)
    finally:
        _shutdown(lib)


def _pair_path(nv: _Nvml, a: GpuPlacement, b: GpuPlacement) -> Fact[str]:
    lib = nv.lib
    peers_a = [] if is_missing(a.nvlink_peers) else a.nvlink_peers
    peers_b = [] if is_missing(b.nvlink_peers) else b.nvlink_peers
    if (not is_missing(b.pci_bus_id) and b.pci_bus_id in peers_a) or ("switch" in peers_a and "switch" in peers_b):
        return "NVLINK"
    ancestor = nv.query(lambda: lib.nvmlDeviceGetTopologyCommonAncestor(lib.nvmlDeviceGetHandleByIndex(a.index),
                                                                        lib.nvmlDeviceGetHandleByIndex(b.index)))
    if is_missing(ancestor):
        return ancestor
    return TOPOLOGY_LEVELS.get(int(ancestor), f"unknown ({ancestor})")


def nvlink_pair_count(a: GpuPlacement, b: GpuPlacement) -> Fact[int]:
    """Links joining two GPUs: direct links to b's bus id, or through NVSwitch the smaller side's switch links."""
    if is_missing(a.nvlink_peers) or is_missing(b.nvlink_peers):
        return a.nvlink_peers if is_missing(a.nvlink_peers) else b.nvlink_peers
    direct = 0 if is_missing(b.pci_bus_id) else a.nvlink_peers.count(b.pci_bus_id)
    if direct:
        return direct
    return min(a.nvlink_peers.count("switch"), b.nvlink_peers.count("switch"))
