"""The effects an expression can have on the GPU (bits of an Event), and the events of a body in order."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional

from advisor.lint.flow.scopes import FunctionInfo

WORK = 1  # queues GPU work (a kernel, a copy)
COMPUTE = 2  # ... that computes (not just allocates or copies): what warms up cuBLAS/cuDNN
SYNC = 4  # waits for all queued GPU work
CLOCK = 8  # reads a host clock
HOST_READ = 16  # the sync is a host read of a tensor (.item(), print(t), if t:), not an explicit synchronize
KERNEL = 32  # runs a kernel without computing on data: a factory that fills (torch.randn(..., device="cuda"))


@dataclass(frozen=True)
class Event:
    node: ast.AST
    bits: int
    callee: Optional[FunctionInfo] = None  # set when the effect is a call into the user's function


@dataclass
class Summary:
    bits: int = 0  # WORK/COMPUTE if the body does that; SYNC if it ends synchronized
    events: list[Event] = field(default_factory=list)
