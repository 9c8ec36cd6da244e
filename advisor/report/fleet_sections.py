"""A distributed job's report as tables: the summary and the ranks that stand out first, the details after.

Readable at 64 GPUs: the summary and the outliers are a few rows whatever the size; per-node rows grow with
nodes, per-rank rows with ranks (Markdown folds every table); identical node topologies are shown once.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from advisor.formatting import Section, human_value, plural
from advisor.models.common import Unavailable
from advisor.models.fleet import CollectiveResult, Fleet, NodeTopology, RankSummary

_RANK_LINE = re.compile(r"^rank (\d+) on (\S+): (.*)$")


def _size(size: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:g} {unit}"
    return f"{size} B"


def _num(value: Any, digits: int = 1) -> str:
    if isinstance(value, bool) or value is None:
        return human_value(value)
    if isinstance(value, (int, float)):
        return f"{value:.{digits}f}"
    return human_value(value)


def summary_section(fleet: Fleet) -> Section:
    facts = fleet.facts
    section = Section("Fleet summary", note="Not tested in this tier: " + "; ".join(fleet.not_tested)
                      if fleet.not_tested else "")
    reported = sum(r.status == "ok" for r in fleet.ranks)
    section.add("Ranks reported", f"{reported} of {fleet.world_size}")
    section.add("Nodes", facts.nodes)
    section.add("Backend / tier", f"{fleet.backend} / {fleet.tier}")
    largest = _largest(fleet.collectives, "all_reduce")
    if largest is not None:
        busbw = _num(largest.busbw_gbps) + " GB/s" if largest.busbw_gbps is not None else "n/a (one rank)"
        section.add(f"All-reduce {_size(largest.size_bytes)}", f"busbw {busbw}, algbw {_num(largest.algbw_gbps)} GB/s")
    expected = facts.expected_busbw_gbps
    section.add("Expected all-reduce busbw", f"{_num(expected, 0)} GB/s ({facts.expected_busbw_basis})"
                if not isinstance(expected, Unavailable) else expected)
    for label, value in (("Version differences", facts.version_differences_text),
                         ("Environment differences", facts.env_differences_text),
                         ("Stragglers", facts.stragglers_text),
                         ("NCCL over sockets despite a fast fabric", facts.socket_fallback_text),
                         ("NCCL transports switched off", facts.transport_disabled_text),
                         ("Ranks sharing a GPU", facts.shared_gpu_text),
                         ("Peer access blocked (ACS/IOMMU?)", facts.peer_access_blocked_text)):
        section.add(label, value)
    if fleet.timeout_s is not None:
        section.add("Timeout for an unresponsive rank", f"{fleet.timeout_s:g} s")
    return section


def _largest(results: list[CollectiveResult], op: str) -> Optional[CollectiveResult]:
    matching = [r for r in results if r.op == op]
    return max(matching, key=lambda r: r.size_bytes) if matching else None


def outliers_section(fleet: Fleet) -> Optional[Section]:
    rows = []
    for rank in fleet.ranks:
        if rank.status != "ok":
            phase = f" (last phase: {rank.last_phase})" if rank.last_phase else ""
            rows.append((str(rank.rank), rank.node or "?", f"{rank.status}: {rank.reason}{phase}"))
        elif rank.health:
            rows.append((str(rank.rank), rank.node, "; ".join(rank.health)))
    straggler_text = fleet.facts.stragglers_text
    if isinstance(straggler_text, str) and straggler_text != "none":
        for line in straggler_text.split(" | "):
            match = _RANK_LINE.match(line)
            if match is None:  # a GPU of a node (NVLinks down), not a rank
                rows.append(("", "", line))
            elif not any(row[0] == match.group(1) for row in rows):
                rows.append((match.group(1), match.group(2), match.group(3)))
    if not rows:
        return None
    return Section("Ranks that stand out", rows=rows, header=("Rank", "Node", "Why"))


def collectives_section(fleet: Fleet) -> Optional[Section]:
    if not fleet.collectives:
        return None
    rows = [(r.op, _size(r.size_bytes), f"{r.time_s * 1e6:.0f}", _num(r.algbw_gbps, 2),
             _num(r.busbw_gbps, 2) if r.busbw_gbps is not None else "n/a", f"{r.rank_time_ratio:.2f}")
            for r in fleet.collectives]
    return Section("Collectives (nccl-tests conversion: busbw = algbw x 2(n-1)/n all-reduce, x (n-1)/n all-gather)",
                   rows=rows, header=("Op", "Size", "Time us (mean of ranks)", "algbw GB/s", "busbw GB/s",
                                      "Slowest/fastest rank"),
                   note=f"{plural(fleet.collectives[0].ranks, 'rank')}; every rank ran the same fixed iteration count."
                   + (" One rank moves no data: algbw is a local copy, busbw undefined." if fleet.collectives[0].ranks == 1 else ""))


def _range(values: list[float]) -> str:
    if not values:
        return "-"
    low, high = min(values), max(values)
    return f"{low:.3g}" if abs(high - low) < 1e-9 else f"{low:.3g}-{high:.3g}"


def nodes_section(fleet: Fleet) -> Section:
    nodes: dict[str, list[RankSummary]] = {}
    for rank in fleet.ranks:
        nodes.setdefault(rank.node or "?", []).append(rank)
    metric_names = sorted({name for r in fleet.ranks for name in r.metrics})
    rows = []
    for node, ranks in nodes.items():
        ok = [r for r in ranks if r.status == "ok"]
        transports = sorted({t for r in ok if isinstance(r.nccl_transports, list) for t in r.nccl_transports})
        gpus = sorted({r.gpu.name for r in ok if r.gpu is not None and isinstance(r.gpu.name, str)})
        rows.append((node, f"{len(ok)}/{len(ranks)}", ", ".join(gpus) or "cpu",
                     *(_range([r.metrics[m] for r in ok if m in r.metrics]) for m in metric_names),
                     ", ".join(transports) or "-"))
    return Section("Per node", rows=rows, header=("Node", "Ranks ok", "GPU", *metric_names, "NCCL transports"))


def _h2d(rank: RankSummary) -> str:
    if rank.h2d is None:
        return "-"
    local, remote = rank.h2d.local_gbps, rank.h2d.remote_gbps
    text = f"{_num(local)} local"
    text += f" / {_num(remote)} remote" if not isinstance(remote, Unavailable) else " (no remote cores)"
    return text + (f" (NUMA {rank.h2d.numa_node})" if isinstance(rank.h2d.numa_node, int) else "")


def _transports(rank: RankSummary) -> str:
    if not isinstance(rank.nccl_transports, list):
        return "-"
    text = ", ".join(rank.nccl_transports) or "none used"
    return text + (f" (network: {rank.nccl_network})" if isinstance(rank.nccl_network, str) else "")


def ranks_section(fleet: Fleet) -> Section:
    metric_names = sorted({name for r in fleet.ranks for name in r.metrics if name != "h2d_local_gbps"})
    rows = []
    for rank in fleet.ranks:
        gpu = rank.gpu
        pcie = (f"gen{human_value(gpu.pcie_gen_current)}/{human_value(gpu.pcie_gen_max)} "
                f"x{human_value(gpu.pcie_width_current)}/{human_value(gpu.pcie_width_max)}") if gpu else "-"
        transports = _transports(rank)
        metrics = [f"{rank.metrics[name]:.3g}" if name in rank.metrics else "-" for name in metric_names]
        rows.append((str(rank.rank), rank.node, rank.device or "-", rank.status, *metrics, _h2d(rank), pcie,
                     transports))
    return Section("Per rank", rows=rows, header=("Rank", "Node", "Device", "Status", *metric_names,
                                                  "H2D pinned GB/s", "PCIe cur/max", "NCCL transports"))


def _matrix(topology: NodeTopology) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    count = topology.gpu_count
    cells: dict[tuple[int, int], str] = {}
    for link in topology.links:
        text = human_value(link.path) if not isinstance(link.path, Unavailable) else "?"
        if text == "NVLINK" and isinstance(link.nvlink_count, int):
            text = f"NV{link.nvlink_count}"
        if link.peer_access is False:
            text += " (no P2P)"
        if isinstance(link.copy_gbps, float):
            text += f" {link.copy_gbps:.0f} GB/s"
        cells[(link.gpu_a, link.gpu_b)] = cells[(link.gpu_b, link.gpu_a)] = text
    header = ("", *(f"GPU{i}" for i in range(count)), "NVLinks up")
    rows = [(f"GPU{a}", *("X" if a == b else cells.get((a, b), "?") for b in range(count)),
             human_value(topology.nvlink_active.get(a))) for a in range(count)]
    return header, rows


def topology_sections(fleet: Fleet) -> list[Section]:
    """Like `nvidia-smi topo -m`, one table per distinct topology (nodes built alike share one)."""
    groups: dict[str, tuple[NodeTopology, list[str]]] = {}
    for rank in fleet.ranks:
        topology = rank.topology
        if topology is None or not (topology.gpu_count or (isinstance(topology.ib_devices, list) and topology.ib_devices)):
            continue  # a CPU-only node without NICs has no topology to show
        header, rows = _matrix(topology)
        key = repr((rows, topology.ib_devices))
        groups.setdefault(key, (topology, []))[1].append(topology.node)
    sections = []
    for topology, nodes in groups.values():
        header, rows = _matrix(topology)
        nics = topology.ib_devices
        note = ("GB/s: measured copy from the row's GPU to the column's. NVn: n NVLink links; PIX: same PCIe switch; PXB: several switches; PHB: host bridge; "
                "NODE: same NUMA node; SYS: across CPU sockets. InfiniBand/RoCE: "
                + (", ".join(nics) if isinstance(nics, list) and nics else human_value(nics) if isinstance(nics, Unavailable) else "none"))
        name = ", ".join(nodes[:4]) + (f" and {len(nodes) - 4} more" if len(nodes) > 4 else "")
        sections.append(Section(f"Topology of {name} ({plural(topology.gpu_count, 'GPU')})", rows=rows if topology.gpu_count else [],
                                header=header if topology.gpu_count else (), note=note))
    return sections


def fleet_sections(fleet: Optional[Fleet]) -> list[Section]:
    if fleet is None:
        return []
    sections = [summary_section(fleet)]
    outliers = outliers_section(fleet)
    if outliers is not None:
        sections.append(outliers)
    collectives = collectives_section(fleet)
    if collectives is not None:
        sections.append(collectives)
    return [*sections, nodes_section(fleet), ranks_section(fleet), *topology_sections(fleet)]
