"""Fleet-wide conclusions from the gathered rank summaries: the ``fleet.*`` facts the rules read.

Pure functions over the models (no torch, no NVML), so a saved fleet report re-derives the same answers.
Each count comes with a text naming the ranks and nodes it concerns ("rank 7 on {host-2}").
"""

from __future__ import annotations

import statistics
from typing import Optional

from advisor.distributed.bandwidth import FabricView, expected_allreduce_busbw, ib_rate_gbps
from advisor.models.common import is_missing, missing
from advisor.models.fleet import CollectiveResult, Fleet, FleetFacts, NodeTopology, RankSummary

#: A rank whose number is under this share of the fleet's median is a straggler (more-is-better metrics).
STRAGGLER_SHARE = 0.8
VERSION_KEYS = ("torch", "torch_cuda", "nccl", "driver", "python")
#: Variables whose whole purpose is to turn an NCCL transport off (or force sockets).
DISABLING_ENV = {"NCCL_P2P_DISABLE": "1", "NCCL_IB_DISABLE": "1", "NCCL_SHM_DISABLE": "1", "NCCL_NVLS_ENABLE": "0"}
UNSET = "<unset>"


def rank_names(ranks: list[int]) -> str:
    """[0, 1, 2, 5] -> "ranks 0-2, 5"."""
    ordered = sorted(ranks)
    spans: list[list[int]] = []
    for rank in ordered:
        if spans and spans[-1][1] == rank - 1:
            spans[-1][1] = rank
        else:
            spans.append([rank, rank])
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
    return ("rank " if len(ordered) == 1 else "ranks ") + text


def _differences(ranks: list[RankSummary], keys: list[str]) -> list[str]:
    lines = []
    for key in keys:
        groups: dict[str, list[int]] = {}
        for summary in ranks:
            groups.setdefault(summary.fingerprint.get(key, UNSET), []).append(summary.rank)
        if len(groups) > 1:
            # The majority first: the odd ones out are what the user needs to find.
            ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), min(item[1])))
            lines.append(f"{key.removeprefix('env.')}: " + "; ".join(f"{value} on {rank_names(members)}"
                                                                      for value, members in ordered))
    return lines


def _env_keys(ranks: list[RankSummary]) -> list[str]:
    keys = sorted({key for r in ranks for key in r.fingerprint if key.startswith("env.")})
    visible = [r.fingerprint.get("env.CUDA_VISIBLE_DEVICES") for r in ranks]
    # Slurm's --gpus-per-task (and some launchers) give each rank its own single GPU: different by design.
    if all(v is not None and "," not in v for v in visible) and len(set(zip(visible, (r.node for r in ranks), strict=True))) == len(ranks):
        keys = [k for k in keys if k != "env.CUDA_VISIBLE_DEVICES"]
    return keys


def _where(summary: RankSummary) -> str:
    return f"rank {summary.rank} on {summary.node or 'an unknown node'}"


def stragglers(ranks: list[RankSummary]) -> list[str]:
    """Ranks whose own numbers sit below the fleet's spread, or whose GPU reports a health problem."""
    found: dict[int, list[str]] = {}
    metrics = sorted({name for r in ranks for name in r.metrics})
    for name in metrics:
        values = [(r, r.metrics[name]) for r in ranks if name in r.metrics]
        if len(values) < 2:
            continue
        median = statistics.median(v for _, v in values)
        for summary, value in values:
            if median > 0 and value < STRAGGLER_SHARE * median:
                found.setdefault(summary.rank, []).append(f"{name} {value:.3g} vs fleet median {median:.3g}")
    for summary in ranks:
        if summary.health:
            found.setdefault(summary.rank, []).extend(summary.health)
    by_rank = {r.rank: r for r in ranks}
    lines = [f"{_where(by_rank[rank])}: {'; '.join(reasons)}" for rank, reasons in sorted(found.items())]
    return lines + nvlinks_down(ranks)


def nvlinks_down(ranks: list[RankSummary]) -> list[str]:
    """GPUs with fewer NVLinks up than their node's best GPU: a link down halves that GPU's share of a ring.
    Relative on purpose: a GPU whose links are all down (a VM slice of an SXM board) is uniform, not a straggler."""
    lines = []
    for summary in ranks:
        topology = summary.topology
        if topology is None:
            continue
        counts = {gpu: n for gpu, n in topology.nvlink_active.items() if isinstance(n, int)}
        best = max(counts.values(), default=0)
        lines += [f"GPU {gpu} on {topology.node}: {n} of {best} NVLinks up" for gpu, n in sorted(counts.items())
                  if n < best]
    return lines


def _fast_fabric(summary: RankSummary, topology: Optional[NodeTopology]) -> Optional[str]:
    if topology is not None and isinstance(topology.ib_devices, list) and any(" ACTIVE" in d for d in topology.ib_devices):
        return "an active InfiniBand/RoCE port"
    if topology is not None and any(isinstance(n, int) and n > 0 for n in topology.nvlink_active.values()):
        return "NVLink"
    return None


def socket_fallbacks(ranks: list[RankSummary], topologies: dict[str, NodeTopology], nodes: int) -> list[str]:
    found = []
    for summary in ranks:
        used = summary.nccl_transports if isinstance(summary.nccl_transports, list) else []
        # NCCL names its network ("Using network Socket") on every node, even where all traffic stays on
        # NVLink: only a channel "via NET/Socket", or sockets chosen for a job that spans nodes, is a fallback.
        on_sockets = "NET/Socket" in used or (nodes > 1 and summary.nccl_network == "Socket" and not used)
        fabric = _fast_fabric(summary, topologies.get(summary.node))
        if on_sockets and fabric:
            found.append(f"{_where(summary)}: NCCL used sockets although the node has {fabric}{_fallback_causes(summary)}")
    return found


def disabled_transports(ranks: list[RankSummary]) -> list[str]:
    found = []
    for summary in ranks:
        names = [f"{name}={summary.fingerprint[f'env.{name}']}" for name, value in DISABLING_ENV.items()
                 if summary.fingerprint.get(f"env.{name}") == value]
        if summary.fingerprint.get("env.NCCL_NET", "").lower() == "socket":
            names.append("NCCL_NET=Socket")
        if names:
            found.append(f"{_where(summary)}: {', '.join(names)}")
    return found


#: Paths on which two GPUs should reach each other directly; no peer access there points at ACS or the IOMMU.
_DIRECT_PATHS = {"NVLINK", "PIX", "PXB"}


def blocked_peer_access(ranks: list[RankSummary]) -> list[str]:
    lines = []
    for summary in ranks:
        topology = summary.topology
        if topology is None:
            continue
        pairs = [f"GPU{link.gpu_a}-GPU{link.gpu_b} ({link.path})" for link in topology.links
                 if link.peer_access is False and link.path in _DIRECT_PATHS]
        if pairs:
            lines.append(f"{topology.node}: " + ", ".join(pairs[:8]) + (f" and {len(pairs) - 8} more" if len(pairs) > 8 else ""))
    return lines


def _fallback_causes(summary: RankSummary) -> str:
    causes = [note for note in summary.notes if "InfiniBand" in note]
    for name in ("NCCL_IB_DISABLE", "NCCL_NET"):
        if f"env.{name}" in summary.fingerprint:
            causes.append(f"{name}={summary.fingerprint[f'env.{name}']}")
    return f" (cause: {', '.join(causes)})" if causes else ""


def shared_gpus(ranks: list[RankSummary]) -> list[str]:
    owners: dict[tuple[str, str], list[int]] = {}
    for summary in ranks:
        if summary.gpu is not None and not is_missing(summary.gpu.uuid):
            owners.setdefault((summary.node, summary.gpu.uuid), []).append(summary.rank)
    return [f"{rank_names(members)} on {node} share GPU {uuid}" for (node, uuid), members in owners.items()
            if len(members) > 1]


def fabric_view(fleet: Fleet, topologies: dict[str, NodeTopology]) -> FabricView:
    links = [n for t in topologies.values() for n in t.nvlink_active.values() if isinstance(n, int)]
    pcie = [(r.gpu.pcie_gen_max, r.gpu.pcie_width_max) for r in fleet.ranks if r.gpu is not None]
    pcie_known = [(g, w) for g, w in pcie if isinstance(g, int) and isinstance(w, int)]
    nic_rates = []
    for topology in topologies.values():
        if isinstance(topology.ib_devices, list):
            rates = [ib_rate_gbps(d.split(" ", 2)[2]) for d in topology.ib_devices if " ACTIVE" in d]
            nic_rates.append(sum(r for r in rates if r))
    nodes = len({r.node for r in fleet.ranks})
    return FabricView(
        ranks=fleet.world_size, nodes=nodes, backend=fleet.backend,
        nvlink_links_min=min(links) if links and len(links) >= nodes else None,
        pcie_min=min(pcie_known, key=lambda gw: gw[0] * gw[1]) if pcie_known else None,
        nic_gbps_per_node_min=min(nic_rates) if nic_rates and len(nic_rates) == nodes and min(nic_rates) > 0 else None,
    )


def _largest(results: list[CollectiveResult], op: str) -> Optional[CollectiveResult]:
    matching = [r for r in results if r.op == op]
    return max(matching, key=lambda r: r.size_bytes) if matching else None


def _count_and_text(lines: list[str]) -> tuple[int, str]:
    return len(lines), " | ".join(lines) if lines else "none"


def derive_fleet_facts(fleet: Fleet) -> FleetFacts:
    reported = [r for r in fleet.ranks if r.status == "ok"]
    absent = [r for r in fleet.ranks if r.status != "ok"]
    topologies = {r.topology.node: r.topology for r in reported if r.topology is not None}
    facts = FleetFacts(world_size=fleet.world_size, nodes=len({r.node for r in fleet.ranks if r.node}))
    facts.ranks_missing, facts.ranks_missing_text = _count_and_text(
        [f"rank {r.rank}{' on ' + r.node if r.node else ''}: {r.reason or r.status}"
         + (f" (last phase: {r.last_phase})" if r.last_phase else "") for r in absent])
    if not reported:
        return facts
    facts.version_differences, facts.version_differences_text = _count_and_text(
        _differences(reported, list(VERSION_KEYS)))
    facts.env_differences, facts.env_differences_text = _count_and_text(_differences(reported, _env_keys(reported)))
    facts.stragglers, facts.stragglers_text = _count_and_text(stragglers(reported))
    facts.transport_disabled_ranks, facts.transport_disabled_text = _count_and_text(disabled_transports(reported))
    facts.shared_gpu_ranks, facts.shared_gpu_text = _count_and_text(shared_gpus(reported))
    if any(r.topology is not None and r.topology.links for r in reported):
        facts.peer_access_blocked, facts.peer_access_blocked_text = _count_and_text(blocked_peer_access(reported))
    else:
        facts.peer_access_blocked = facts.peer_access_blocked_text = missing("no node has two GPUs to pair")
    if fleet.backend == "nccl":
        if all(is_missing(r.nccl_transports) for r in reported):
            facts.socket_fallback_ranks = facts.socket_fallback_text = missing("no rank could read NCCL's INFO output")
        else:
            facts.socket_fallback_ranks, facts.socket_fallback_text = _count_and_text(
                socket_fallbacks(reported, topologies, len({r.node for r in reported})))
    else:
        facts.socket_fallback_ranks = facts.socket_fallback_text = missing(
            f"backend {fleet.backend}: NCCL transports do not apply")
    _bandwidth_facts(fleet, facts, topologies)
    return facts


def _bandwidth_facts(fleet: Fleet, facts: FleetFacts, topologies: dict[str, NodeTopology]) -> None:
    largest = _largest(fleet.collectives, "all_reduce")
    if largest is None or largest.busbw_gbps is None:
        why = "no all-reduce was timed" if largest is None else "one rank: all-reduce moves no data (busbw undefined)"
        facts.allreduce_busbw_gbps = facts.busbw_fraction_of_expected = missing(why)
    else:
        facts.allreduce_busbw_gbps = largest.busbw_gbps
        facts.allreduce_busbw_size_bytes = largest.size_bytes
    expected, why_not = expected_allreduce_busbw(fabric_view(fleet, topologies))
    if expected is None:
        facts.expected_busbw_gbps = facts.expected_busbw_basis = missing(why_not)
        facts.busbw_fraction_of_expected = missing(why_not)
        return
    facts.expected_busbw_gbps, facts.expected_busbw_basis = expected.gbps, expected.basis
    if isinstance(facts.allreduce_busbw_gbps, float):
        facts.busbw_fraction_of_expected = facts.allreduce_busbw_gbps / expected.gbps
