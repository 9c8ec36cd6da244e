"""What one rank does, in order: probe, join, measure itself, time the collectives, send its summary to rank 0.

Runs in runner.py's worker thread; each step announces its phase first (the watch's progress mark, the
notice board's "where did it die").
"""

from __future__ import annotations

import shutil
from typing import Any

from advisor.distributed.analysis import derive_fleet_facts
from advisor.distributed.collectives import combine, time_collectives
from advisor.distributed.nccl_log import prepare_nccl_log, read_transports
from advisor.distributed.rank_probe import (
    fingerprint,
    gpu_health,
    h2d_by_affinity,
    matmul_rate,
    measure_peer_copies,
    nccl_version,
    node_topology,
    own_gpu,
    placement_for,
)
from advisor.distributed.runner import NOT_TESTED, new_log_dir, pg_timeout
from advisor.measure.timer import Stopwatch
from advisor.models.fleet import Fleet, RankSummary

H2D_BYTES = {"quick": 64 << 20, "standard": 256 << 20}


def _choose_backend(requested: Any, torch: Any, dist: Any) -> tuple[str, str]:
    """(backend, device): NCCL on this rank's GPU when there is one, gloo on the CPU otherwise."""
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    backend = requested or ("nccl" if count and dist.is_nccl_available() else "gloo")
    if backend == "nccl" and not count:
        raise RuntimeError("--backend nccl needs a GPU, and torch sees none in this process")
    return backend, f"cuda:{_local_device(count)}" if backend == "nccl" else "cpu"


def _local_device(count: int) -> int:
    import os

    return int(os.environ.get("LOCAL_RANK", "0")) % count


def work(state: Any) -> None:
    watch = Stopwatch()
    info, options = state.info, state.options
    state.advance("probe")
    from advisor.probe import collect_facts

    facts = collect_facts()
    state.facts = facts
    import torch
    import torch.distributed as dist

    backend, device = _choose_backend(options.backend, torch, dist)
    state.backend = backend
    log_dir = prepare_nccl_log(new_log_dir(), info.rank) if backend == "nccl" else None
    if device.startswith("cuda"):
        torch.cuda.set_device(device)
    state.advance("rendezvous")
    dist.init_process_group(backend=backend, timeout=pg_timeout(options))
    from advisor.distributed.board import Board

    state.board = Board(dist.distributed_c10d._get_default_store(), info.rank, info.world_size)
    state.board.node(info.node)
    state.board.start_heartbeat()
    # Gathering rides on gloo (CPU, its own timeout) whatever the measured backend is.
    control = dist.new_group(backend="gloo", timeout=pg_timeout(options)) if backend != "gloo" else None

    torch_index = int(device.split(":")[1]) if device.startswith("cuda") else -1
    gpu = own_gpu(facts, torch_index) if torch_index >= 0 else None
    summary = RankSummary(rank=info.rank, local_rank=info.local_rank, node=info.node, backend=backend,
                          device=device, fingerprint=fingerprint(facts, gpu, nccl_version()), gpu=gpu,
                          health=gpu_health(gpu) if gpu is not None else [])
    state.summary = summary

    state.advance("compute")
    name, rate = matmul_rate(device, options.tier == "quick")
    summary.metrics[name] = rate
    reading = None
    if info.local_rank == 0 or device.startswith("cuda"):
        state.advance("topology")
        topology, reading = node_topology(info.node, options.tier == "quick")
        if info.local_rank == 0:
            summary.topology = topology
    if device.startswith("cuda"):
        state.advance("transfer")
        placement = placement_for(reading, gpu.uuid) if gpu is not None else None
        summary.h2d = h2d_by_affinity(device, placement, H2D_BYTES[options.tier])
        if isinstance(summary.h2d.local_gbps, float):
            summary.metrics["h2d_local_gbps"] = summary.h2d.local_gbps

    state.advance("collectives")
    summary.collectives = time_collectives(device, options.tier, info.world_size, on_size=state.advance)
    if summary.topology is not None and options.tier == "standard" and device.startswith("cuda"):
        state.advance("peer copies")
        measure_peer_copies(summary.topology, reading)
    if backend == "nccl":
        summary.nccl_transports, summary.nccl_network, notes = read_transports(log_dir, info.rank)
        summary.notes.extend(notes)
    if log_dir is not None:  # NCCL keeps the file open for later communicators: only the directory entry goes
        shutil.rmtree(log_dir, ignore_errors=True)
    summary.wall_s = round(watch.elapsed(), 2)
    state.board.post_summary(summary.model_dump_json())

    state.advance("gather")
    gathered: Any = [None] * info.world_size if info.rank == 0 else None
    dist.gather_object(summary.model_dump(mode="json"), gathered, dst=0, group=control)
    if info.rank == 0:
        ranks = [RankSummary.model_validate(item) for item in gathered]
        fleet = Fleet(world_size=info.world_size, backend=backend, tier=options.tier, ranks=ranks,
                      not_tested=list(NOT_TESTED[options.tier]), timeout_s=options.timeout_s)
        fleet.collectives = combine(ranks)
        fleet.facts = derive_fleet_facts(fleet)
        state.fleet = fleet
    state.advance("done")
    state.board.stop_heartbeat()
    dist.destroy_process_group()
