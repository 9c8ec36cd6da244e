"""Collective bandwidth as nccl-tests reports it, and what the detected hardware should give.

nccl-tests (doc/PERFORMANCE.md, https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md):
algorithm bandwidth = size / time; bus bandwidth = algbw x 2(n-1)/n for all-reduce and x (n-1)/n for
all-gather / reduce-scatter (size = the whole output), so the number compares with the link's rate
whatever the rank count. One rank moves nothing: its bus bandwidth is undefined (nccl-tests prints 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

#: Per-direction GB/s of one NVLink link (NVLink 2, 3 and 4 all signal 25 GB/s per link per direction;
#: H100 SXM: 18 links = 450 GB/s per direction, "900 GB/s" bidirectional -- NVIDIA H100 datasheet).
NVLINK_LINK_GBPS = 25.0
#: Share of the raw link rate a large ring all-reduce reaches in practice. 8xH100 NVLink: ~370 GB/s busbw
#: ring of 450 (0.82), ~480 with NVLink SHARP (NVLS) -- NVIDIA NCCL 2.18+ release notes / DGX H100 results
#: quoted in gpu-advisor issue 16; 8xA100: ~230 of 300 (0.77).
RING_EFFICIENCY = 0.8
#: PCIe per-direction GB/s of one lane after encoding, by generation (x16 = 4, 8, 15.75, 31.5, 63).
PCIE_LANE_GBPS = {1: 0.25, 2: 0.5, 3: 0.984375, 4: 1.96875, 5: 3.9375, 6: 7.875}
#: Share of a NIC's line rate all-reduce busbw reaches across nodes: NDR 400 Gb/s (50 GB/s) gives
#: ~46-48 GB/s per NIC in nccl-tests (0.92-0.96); 0.9 leaves room for HDR/RoCE.
NIC_EFFICIENCY = 0.9
#: InfiniBand rate strings (/sys/class/infiniband/*/ports/*/rate: "400 Gb/sec (4X NDR)") -> GB/s.
GBIT_PER_GBYTE = 8.0
SOURCES = (
    "nccl-tests doc/PERFORMANCE.md (algbw/busbw definitions)",
    "NVIDIA H100 / A100 datasheets (NVLink 4: 18 links, 900 GB/s bidirectional; NVLink 3: 12 links, 600 GB/s)",
    "PCI-SIG line rates (Gen4 16 GT/s, Gen5 32 GT/s per lane, 128b/130b encoding)",
    "InfiniBand NDR 400 Gb/s per port; nccl-tests inter-node busbw ~46-48 GB/s per NDR NIC",
)


def bus_factor(op: str, ranks: int) -> Optional[float]:
    if ranks < 2:
        return None
    if op == "all_reduce":
        return 2 * (ranks - 1) / ranks
    if op in ("all_gather", "reduce_scatter"):
        return (ranks - 1) / ranks
    raise ValueError(f"no bus-bandwidth factor for {op!r}")


def algbw_gbps(size_bytes: int, time_s: float) -> float:
    return size_bytes / time_s / 1e9


def busbw_gbps(op: str, size_bytes: int, time_s: float, ranks: int) -> Optional[float]:
    factor = bus_factor(op, ranks)
    return None if factor is None else algbw_gbps(size_bytes, time_s) * factor


def ib_rate_gbps(rate_text: str) -> Optional[float]:
    """"400 Gb/sec (4X NDR)" -> 50.0 GB/s."""
    head = rate_text.strip().split(" ")[0]
    try:
        return float(head) / GBIT_PER_GBYTE
    except ValueError:
        return None


@dataclass(frozen=True)
class Expected:
    gbps: float
    basis: str


@dataclass(frozen=True)
class FabricView:
    """What the fleet is built from, as the ranks reported it."""

    ranks: int
    nodes: int
    backend: str
    #: Smallest count of active NVLink links of any GPU in the job (0: PCIe only); None when unknown.
    nvlink_links_min: Optional[int] = None
    #: Slowest GPU PCIe link (generation, width) in the job; None when unknown.
    pcie_min: Optional[tuple[int, int]] = None
    #: Smallest total InfiniBand/RoCE rate of any node, GB/s; None when no node has such a device.
    nic_gbps_per_node_min: Optional[float] = None


def expected_allreduce_busbw(fabric: FabricView) -> tuple[Optional[Expected], str]:
    """(what a large all-reduce should reach, or None) and, when None, why there is no expectation."""
    if fabric.ranks < 2:
        return None, "one rank: a collective moves no data, so there is no bus bandwidth to judge"
    if fabric.backend != "nccl":
        return None, f"backend {fabric.backend}: the table covers NCCL on GPUs only"
    if fabric.nvlink_links_min:
        intra = Expected(fabric.nvlink_links_min * NVLINK_LINK_GBPS * RING_EFFICIENCY,
                         f"NVLink, {fabric.nvlink_links_min} links x {NVLINK_LINK_GBPS:g} GB/s x {RING_EFFICIENCY} ring")
    elif fabric.pcie_min is not None and fabric.pcie_min[0] in PCIE_LANE_GBPS:
        generation, width = fabric.pcie_min
        intra = Expected(PCIE_LANE_GBPS[generation] * width * RING_EFFICIENCY,
                         f"PCIe Gen{generation} x{width} x {RING_EFFICIENCY} ring")
    else:
        return None, "neither NVLink nor the PCIe link of the GPUs is known"
    if fabric.nodes < 2:
        return intra, ""
    if fabric.nic_gbps_per_node_min is None:
        return None, "across nodes with no InfiniBand/RoCE device found: socket rates are not tabulated"
    network = fabric.nic_gbps_per_node_min * NIC_EFFICIENCY
    if network < intra.gbps:
        return Expected(network, f"InfiniBand/RoCE {fabric.nic_gbps_per_node_min:g} GB/s per node x {NIC_EFFICIENCY}"), ""
    return intra, ""
