"""Calls that choose the run's device rather than compute anything.

``torch.set_default_device("cuda")`` and ``torch.set_default_tensor_type("torch.cuda.FloatTensor")`` make every later
factory a CUDA one; ``os.getenv("DEVICE", "cpu")`` is the device a run takes from its environment -- ``"cpu"`` is only
the default there, as with a configuration's ``cfg.get("device", "cpu")``, so it may be CUDA.
"""

from __future__ import annotations

import ast
from functools import reduce
from operator import or_
from typing import Callable, Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.conditions import a_cpu_fallback
from advisor.lint.flow.kinds import CPU_DEVICE, CUDA_DEVICE, DEVICE_BITS
from advisor.lint.flow.literals import is_cpu_device
from advisor.lint.names import last_identifier

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


def assigned_device(target: ast.AST, value: ast.AST, scope: ast.AST, qual: Callable[[ast.AST], Optional[str]],
                    values: dict) -> int:
    """What ``device = <value>`` binds when the pass knows nothing of the value: ``device = get_device()`` /
    ``self.device = cfg["device"]`` are chosen elsewhere and can be CUDA (unless a fallback is handed in);
    ``device = y.device`` of the data a function is handed (or ``next(model.parameters()).device`` of its model) is
    wherever the caller put it, which can be CUDA."""
    if not isinstance(target, (ast.Name, ast.Attribute)) or last_identifier(target) not in api.DEVICE_NAME_HINT:
        return 0
    if chosen_elsewhere(value, qual):
        arguments = list(value.args) + [k.value for k in value.keywords] if isinstance(value, ast.Call) else []
        return reduce(or_, (values.get(argument, 0) & DEVICE_BITS for argument in arguments), 0) or CUDA_DEVICE
    return CUDA_DEVICE if isinstance(target, ast.Name) and handed_device(value, scope) else 0


def handed_device(node: ast.AST, scope: ast.AST) -> bool:
    """``y.device`` (or ``next(model.parameters()).device``) of a value the function ``scope`` is handed: wherever
    the caller put it, which can be CUDA."""
    if not (isinstance(node, ast.Attribute) and node.attr == "device"):
        return False
    parameters = getattr(scope, "args", None)
    handed = _handed_value(node.value)
    if handed == "self" and node.value is not None and not isinstance(node.value, ast.Name):
        return True  # next(self.parameters()).device in a module's method: wherever its user moved the model
    return handed is not None and handed != "self" and isinstance(parameters, ast.arguments) \
        and any(a.arg == handed for a in parameters.posonlyargs + parameters.args + parameters.kwonlyargs)


def _handed_value(node: ast.AST) -> Optional[str]:
    """The name a device is read from: ``y`` of ``y.device``, ``model`` of ``next(model.parameters()).device`` (a
    model the function is handed sits wherever the caller put it)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "next" and len(node.args) == 1:
        node = node.args[0]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
                and node.func.attr in ("parameters", "buffers"):
            node = node.func.value
    return node.id if isinstance(node, ast.Name) else None


def chosen_elsewhere(value: ast.AST, qual: Callable[[ast.AST], Optional[str]]) -> bool:
    """A value the file does not spell out (a config entry, a helper's result), as opposed to a literal
    (None, "mps"), torch's own constructor of a device the pass does not model (torch.device("mps")), or a
    tensor's own device (``device = idx.device``: wherever the input is; exprs.py reads configured ones)."""
    if isinstance(value, ast.IfExp):  # self.local_rank if distributed else get_device(name)
        return chosen_elsewhere(value.body, qual) or chosen_elsewhere(value.orelse, qual)
    return not (qual(value.func) or "").startswith("torch.") if isinstance(value, ast.Call) \
        else isinstance(value, (ast.Name, ast.Subscript))


def from_command_line(node: ast.AST, qual: Callable[[ast.AST], Optional[str]]) -> bool:
    """``sys.argv[1]``: a word the run is started with -- as a device, whatever the user types (cuda, cuda:1)."""
    return isinstance(node, ast.Subscript) and qual(node.value) == "sys.argv"


def configured_device(index, key: str, qual: Callable[[ast.AST], Optional[str]]) -> int:
    """``cfg["device"]``: a device a configuration names, can be CUDA -- unless the file itself only ever sets that
    key to the CPU (``configs["device"] = torch.device("cpu")``). A store under ``if not torch.cuda.is_available():``
    is the fallback of a run without CUDA, not that choice."""
    stored = [value for value in index.stored_under_keys.get(key, [])
              if not a_cpu_fallback(value, index.ancestors(value), qual)]
    return CPU_DEVICE if stored and all(is_cpu_device(index, value) for value in stored) else CUDA_DEVICE
