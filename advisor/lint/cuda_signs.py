"""Does a file show any sign that it runs on CUDA at all?

The project's labelling convention (issue 12, session 5): a file with no `cuda`, no `device`, no `.to(...)` of
anything, no `torch.device` and no GPU-only API is CPU code, and checks that report a GPU cost stay silent on
it. The linter otherwise guesses that a snippet's free `model` / `net` is the program's CUDA model; without a
single sign of the accelerator in the file that guess is wrong more often than right (a CPU tutorial's loop).

Read from the syntax tree, not the text: a comment saying "GPU" is not code that uses one.
"""

from __future__ import annotations

import ast
import re

# Identifiers, attribute names, keyword names and strings that only code meant for an accelerator writes.
_SIGN = re.compile(r"cuda|gpu|device|cudnn|nccl|nvidia|nvml|accelerat|DataParallel|DistributedDataParallel|"
                   r"pin_memory|autocast|GradScaler|tensorrt|triton", re.IGNORECASE)
# Methods that place a tensor or a module somewhere: `.to(anything)` is a move the author meant to make.
_PLACING_METHODS = frozenset({"to", "to_empty"})


def shows_cuda(tree: ast.AST) -> bool:
    """True when anything in the code names CUDA, a device or a GPU-only API, or moves a value with .to()."""
    for node in ast.walk(tree):
        text = _text_of(node)
        if text is not None and _SIGN.search(text):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PLACING_METHODS:
            return True
    return False


def _text_of(node: ast.AST):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.keyword):
        return node.arg
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.alias):
        return node.name
    if isinstance(node, ast.ImportFrom):
        return node.module
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name
    if isinstance(node, ast.arg):
        return node.arg
    return None
