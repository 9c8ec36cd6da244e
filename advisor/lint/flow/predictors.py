"""A predictor library's object placed on the GPU: a diffusers pipeline moved there (``pipe.to("cuda")``), a
``transformers.pipeline(..., device=0)``, a YOLO model sent there. Calling one runs its model on the GPU -- the
first call is a cold start, a clock around it times CUDA's set-up too -- although what it hands back (images, text,
boxes) is read on the host already, so its result is no CUDA tensor (literals.made_by_predictor_library)."""

from __future__ import annotations

import ast
from typing import Callable

from advisor.lint.flow.kinds import CUDA_DEVICE
from advisor.lint.flow.literals import made_by_predictor_library

_DEVICE_KEYWORDS = frozenset({"device", "device_map"})


def predictor_on_cuda(name: str, index, kind: Callable[[ast.AST], int], qual) -> bool:
    """Is ``name`` bound only to a predictor library's object, made on or moved to a CUDA device in this file?"""
    if not made_by_predictor_library(ast.Name(id=name, ctx=ast.Load()), qual, index.assigned_values):
        return False
    for value in index.assigned_values.get(name, ()):  # pipeline("ocr", device=0), from_pretrained(..., device=dev)
        if isinstance(value, ast.Call) and (any(k.arg in _DEVICE_KEYWORDS and _a_cuda_device(k.value, kind)
                                                for k in value.keywords) or _moves_to_cuda(value, kind)):
            return True  # (or YOLO("yolov8n.pt").to(device): moved as it is made)
    for call in index.calls_by_name.get("to", []) + index.calls_by_name.get("cuda", []):
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == name \
                and _moves_to_cuda(call, kind):
            return True
    return False


def _moves_to_cuda(call: ast.Call, kind: Callable[[ast.AST], int]) -> bool:
    """``x.cuda()``, ``x.to("cuda")``, ``x.to(device)`` with a device that may be CUDA."""
    func = call.func
    return isinstance(func, ast.Attribute) and (func.attr == "cuda" or func.attr == "to" and bool(call.args)
                                                and _a_cuda_device(call.args[0], kind))


def _a_cuda_device(node: ast.AST, kind: Callable[[ast.AST], int]) -> bool:
    """"cuda", a device that may be CUDA, ``device=0`` (transformers' GPU index), ``device_map="auto"``."""
    if isinstance(node, ast.Constant):
        value = node.value
        return value == "auto" or isinstance(value, int) and not isinstance(value, bool) and value >= 0 \
            or bool(kind(node) & CUDA_DEVICE)
    return bool(kind(node) & CUDA_DEVICE)
