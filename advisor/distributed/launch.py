"""Which rank this process is, from the env:// rendezvous variables torchrun (or Slurm's srun) sets."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from typing import Mapping, Optional


class NotLaunched(ValueError):
    """This process was not started by a distributed launcher (no RANK / WORLD_SIZE)."""


@dataclass(frozen=True)
class LaunchInfo:
    rank: int
    world_size: int
    local_rank: int
    local_world_size: int
    master_addr: str
    master_port: str
    node: str
    launcher: str  # "torchrun" / "slurm" / "env"


def _int(env: Mapping[str, str], *names: str) -> Optional[int]:
    for name in names:
        value = env.get(name)
        if value is not None and value.strip().lstrip("-").isdigit():
            return int(value)
    return None


def launch_info(env: Optional[Mapping[str, str]] = None) -> LaunchInfo:
    """Read (never guess) the rendezvous; Slurm's SLURM_PROCID/NTASKS/LOCALID stand in for RANK & co."""
    env = os.environ if env is None else env
    launcher = "torchrun" if "TORCHELASTIC_RUN_ID" in env else "env"
    rank = _int(env, "RANK")
    world = _int(env, "WORLD_SIZE")
    if rank is None and "SLURM_PROCID" in env:
        launcher = "slurm"
        rank, world = _int(env, "SLURM_PROCID"), _int(env, "SLURM_NTASKS")
    if rank is None or world is None:
        raise NotLaunched("not started by a distributed launcher: run it as `torchrun --nproc-per-node N "
                          "-m advisor cluster` (or under srun with MASTER_ADDR/MASTER_PORT set)")
    if not 0 <= rank < world:
        raise NotLaunched(f"RANK={rank} is outside WORLD_SIZE={world}")
    local_rank = _int(env, "LOCAL_RANK", "SLURM_LOCALID")
    local_world = _int(env, "LOCAL_WORLD_SIZE", "SLURM_NTASKS_PER_NODE")
    addr, port = env.get("MASTER_ADDR"), env.get("MASTER_PORT")
    if not addr or not port:
        raise NotLaunched("MASTER_ADDR and MASTER_PORT must be set for the env:// rendezvous")
    return LaunchInfo(rank=rank, world_size=world, local_rank=local_rank if local_rank is not None else rank,
                      local_world_size=local_world or world, master_addr=addr, master_port=port,
                      node=socket.gethostname(), launcher=launcher)


def export_rendezvous(info: LaunchInfo) -> None:
    """Make Slurm's numbering visible to torch's env:// init (it reads RANK, WORLD_SIZE, LOCAL_RANK)."""
    os.environ.setdefault("RANK", str(info.rank))
    os.environ.setdefault("WORLD_SIZE", str(info.world_size))
    os.environ.setdefault("LOCAL_RANK", str(info.local_rank))
