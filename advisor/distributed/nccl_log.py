"""The transport NCCL actually used, read from its own INFO output (NCCL_DEBUG=INFO into a file per rank).

Lines that matter (NCCL 2.1x-2.2x wording):
    NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read        (NVLink or PCIe peer-to-peer)
    NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0/GDRDMA (InfiniBand / RoCE, GPUDirect RDMA)
    NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/Socket/0    (TCP sockets: the slow fallback)
    NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct      (through host shared memory)
    NCCL INFO Using network IB | Using network Socket
    NCCL INFO NET/IB : No device found.
    NCCL INFO NVLS multicast support is available on dev 0
Only these tokens are kept: the raw lines name hosts, addresses and interfaces.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable, Optional

from advisor.models.common import Fact, missing

_VIA = re.compile(r"\bvia (P2P|SHM|NET|NVLS|CollNet|COLLNET)(?:/([A-Za-z]+))?")
_NETWORK = re.compile(r"Using network (\w+)")
_NO_IB = re.compile(r"NET/IB : No device found")
_NVLS = re.compile(r"NVLS multicast support is available")
#: Environment we set for our own process only, and where the user's own choice wins.
LOG_NAME = "nccl-rank{rank}.%p.log"


def transports(lines: Iterable[str]) -> tuple[list[str], Optional[str], list[str]]:
    """(transports used: P2P, SHM, NET/IB, NET/Socket, NVLS ...; the network NCCL chose; notes)."""
    used: dict[str, None] = {}
    network: Optional[str] = None
    notes: dict[str, None] = {}
    for line in lines:
        if "NCCL" not in line:
            continue
        for kind, detail in _VIA.findall(line):
            used[f"{kind}/{detail}" if kind == "NET" and detail else kind.upper()] = None
        match = _NETWORK.search(line)
        if match:
            network = match.group(1)
        if _NO_IB.search(line):
            notes["no InfiniBand device found by NCCL"] = None
        if _NVLS.search(line):
            notes["NVLS (NVLink SHARP) multicast available"] = None
    return list(used), network, list(notes)


def prepare_nccl_log(directory: Path, rank: int) -> Optional[Path]:
    """Ask NCCL for INFO output in a file of our own, unless the user already routes it somewhere.

    Returns the directory to read later, or None when the user's own NCCL_DEBUG_FILE stays in charge.
    """
    if os.environ.get("NCCL_DEBUG_FILE"):
        return None
    os.environ["NCCL_DEBUG"] = "INFO"
    os.environ["NCCL_DEBUG_FILE"] = str(directory / LOG_NAME.format(rank=rank))
    return directory


def read_transports(directory: Optional[Path], rank: int) -> tuple[Fact[list[str]], Fact[str], list[str]]:
    if directory is None:
        gone = missing("NCCL_DEBUG_FILE was set by the user; its log was left alone")
        return gone, gone, []
    lines: list[str] = []
    for path in sorted(directory.glob(f"nccl-rank{rank}.*.log")):
        try:
            lines += path.read_text(errors="replace").splitlines()
        except OSError:
            continue
    if not lines:
        gone = missing("NCCL wrote no INFO output (not the NCCL backend, or NCCL_DEBUG was overridden)")
        return gone, gone, []
    used, network, notes = transports(lines)
    return used, network if network is not None else missing("NCCL named no network (one node, no NET used)"), notes
