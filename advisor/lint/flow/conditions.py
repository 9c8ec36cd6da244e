"""Conditions that ask where the program runs: ``if device.type == 'cuda':``, ``if torch.cuda.is_available():``,
``if use_cuda:``, ``if args.device != 'cpu':``.

Such a test has the same answer on every iteration of a loop, so a host read under it runs on every step on
a GPU (it is no "only some iterations" guard). And its two branches are two different programs: on the
branch that runs without CUDA nothing is on the GPU, so ``if device.type == 'cuda': loss = loss.cpu()``
leaves ``loss`` on the host on both paths (the analyzer uses this at the join).
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Optional

from advisor.lint.flow.kinds import CPU_DEVICE, CUDA_DEVICE
from advisor.lint.names import dotted

_CUDA_WORDS = ("cuda", "gpu")
_NEGATIONS = ("no_", "not_", "disable", "without_", "skip_")
_FLAG_PREFIXES = ("use_", "is_", "on_", "has_", "with_", "enable_", "use", "is", "with", "enable")  # (usegpu too)
_STRICT_FLAGS = frozenset({"cuda", "gpu", "cuda_available", "gpu_available"})
_CUDA_TEXTS = ("cuda", "gpu")
_CPU_TEXTS = ("cpu", "mps", "xpu", "xla", "hpu", "tpu", "npu")  # devices that are not CUDA GPUs


def _text_polarity(node: ast.AST, strict: bool) -> Optional[bool]:
    """'cuda' / 'cuda:0' -> True, 'cpu' -> False, anything else -> None (``strict``: 'cuda:1' being false
    still leaves another GPU)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value.lower()
        if strict and ":" in text:
            return None
        if text.startswith(_CUDA_TEXTS):
            return True
        if text.startswith(_CPU_TEXTS):
            return False
    return None


def _flag_polarity(node: ast.AST, strict: bool) -> Optional[bool]:
    """``use_cuda`` / ``args.cuda`` / ``x.is_cuda`` -> True, ``args.no_cuda`` -> False. ``strict``: only flags
    whose name says "CUDA or not" (``multi_gpu`` being false still leaves one GPU)."""
    if isinstance(node, ast.Name):
        word = node.id.lower()
    elif isinstance(node, ast.Attribute):
        word = node.attr.lower()
    else:
        return None
    if not any(part in word for part in _CUDA_WORDS):
        return None
    negated = word.startswith(_NEGATIONS)
    if strict:
        bare = word
        for prefix in _NEGATIONS + _FLAG_PREFIXES:
            if bare.startswith(prefix):
                bare = bare[len(prefix):]
        if bare not in _STRICT_FLAGS:
            return None
    return not negated


def cuda_condition(test: ast.AST, qual: Callable[[ast.AST], Optional[str]], strict: bool = False) -> Optional[bool]:
    """True: the test holds when the program runs on CUDA; False: when it runs without; None: not a question
    about the device. ``strict``: only tests whose false branch is sure to run without CUDA."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = cuda_condition(test.operand, qual, strict)
        return None if inner is None else not inner
    if isinstance(test, ast.Call):
        return True if qual(test.func) == "torch.cuda.is_available" else None
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, left, right = test.ops[0], test.left, test.comparators[0]
        if isinstance(right, ast.Constant) and isinstance(right.value, bool) \
                and isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):  # torch.cuda.is_available() == True
            inner = cuda_condition(left, qual, strict)
            return None if inner is None else inner == (right.value == isinstance(op, (ast.Eq, ast.Is)))
        if isinstance(op, (ast.Eq, ast.NotEq)):
            polarity = _text_polarity(right, strict)
            if polarity is None:
                polarity = _text_polarity(left, strict)
            if polarity is None:
                return None
            return polarity if isinstance(op, ast.Eq) else not polarity
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(left, ast.Constant):  # 'cuda' in str(device)
            polarity = _text_polarity(left, strict)
            if polarity is None:
                return None
            return polarity if isinstance(op, ast.In) else not polarity
        return None
    return _flag_polarity(test, strict)


_RANK_NAME = re.compile(r"^(local_|global_|world_|node_|process_)?rank$|^get_rank$|^get_local_rank$", re.IGNORECASE)


def rank_condition(test: ast.AST) -> bool:
    """``if RANK == 0:`` / ``if args.local_rank in (-1, 0):`` / ``if dist.get_rank() == 0:``: which process
    this is. Like a device test it has the same answer on every iteration, so the main process runs the
    branch on every step (it is no "only some iterations" guard)."""
    if not isinstance(test, ast.Compare):
        return False
    for side in [test.left] + test.comparators:
        if isinstance(side, ast.Call):
            side = side.func
        if isinstance(side, (ast.Name, ast.Attribute)) and _RANK_NAME.match(
                side.id if isinstance(side, ast.Name) else side.attr):
            return True
    return False


def mode_switch(test: ast.Compare, assigned: set[str]) -> bool:
    """``if VOTE == 'soft':`` with VOTE set before the loop, ``if args.model_architecture == "joint":``: a mode picked
    once, the same on every iteration."""
    sides = [test.left] + test.comparators
    return len(sides) == 2 and any(isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides) \
        and any(isinstance(s := _setting(side), (ast.Name, ast.Attribute)) and (key := dotted(s)) is not None
                and key not in assigned and key.split(".")[0] not in assigned for side in sides)


def _setting(node: ast.AST) -> ast.AST:
    """What a config lookup reads from: ``self.config`` of ``self.config['mode']`` / ``cfg["train"]["mode"]``."""
    while isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        node = node.value
    return node


def bound_is_fixed(node: ast.AST, assigned: set[str]) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return bound_is_fixed(node.operand, assigned)
    key = dotted(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    return key is not None and key not in assigned and key.split(".")[0] not in assigned


def gpu_branch_device(test: ast.AST, body: int, orelse: int, qual: Callable[[ast.AST], Optional[str]]) -> int:
    """``device if torch.cuda.is_available() else "cpu"``: the branch taken with a GPU is the GPU's device, whatever
    the pass knows of it (a parameter, an option)."""
    return CUDA_DEVICE if not body and orelse & CPU_DEVICE and cuda_condition(test, qual) else 0


def a_cpu_fallback(node: ast.AST, ancestors, qual: Callable[[ast.AST], Optional[str]]) -> bool:
    """``node`` sits in the body of an ``if`` that runs only without CUDA (``if not torch.cuda.is_available():``,
    ``if device != "cpu" and not torch.cuda.is_available():``): ``cfg["device"] = "cpu"`` there is the fallback of a
    device the run means to be the GPU, not the file's choice of the CPU. ``ancestors``: the node's parents, inner
    first."""
    child = node
    for parent in ancestors:
        if isinstance(parent, ast.If) and child in parent.body:
            test = parent.test
            clauses = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
            if any(cuda_condition(clause, qual, strict=True) is False for clause in clauses):
                return True
        child = parent
    return False
