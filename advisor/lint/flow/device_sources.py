"""Calls that choose the run's device rather than compute anything.

``torch.set_default_device("cuda")`` and ``torch.set_default_tensor_type("torch.cuda.FloatTensor")`` make every later
factory a CUDA one; ``os.getenv("DEVICE", "cpu")`` is the device a run takes from its environment -- ``"cpu"`` is only
the default there, as with a configuration's ``cfg.get("device", "cpu")``, so it may be CUDA.
"""

from __future__ import annotations

import ast
from typing import Callable, Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.kinds import CUDA_DEVICE, DEVICE_BITS

ENVIRONMENT_READERS = frozenset({"os.getenv", "os.environ.get"})


def sets_default_cuda(name: str, node: ast.Call, arguments: int,
                      qual: Callable[[ast.AST], Optional[str]]) -> Optional[bool]:
    """None when the call sets no default device; else whether the default it sets is CUDA."""
    if name == "torch.set_default_device":
        return bool(arguments & CUDA_DEVICE)
    if name == "torch.set_default_tensor_type" and node.args:  # the pre-2.1 way: ('torch.cuda.FloatTensor')
        first = node.args[0]
        for choice in (first.body, first.orelse) if isinstance(first, ast.IfExp) else (first,):  # cuda if available
            text = choice.value if isinstance(choice, ast.Constant) and isinstance(choice.value, str) \
                else qual(choice) or ""
            if text.startswith("torch.cuda."):
                return True
        return False
    return None


def environment_device(node: ast.Call, pos: list[int]) -> int:
    """``os.getenv("DEVICE", "cpu")``: may be CUDA whatever the default; any other variable says nothing."""
    key = node.args[0] if node.args else None
    if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.lower() in api.DEVICE_NAME_HINT:
        return CUDA_DEVICE | (pos[1] & DEVICE_BITS if len(pos) > 1 else 0)
    return 0
