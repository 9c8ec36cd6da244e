"""Statements that are a call on their own line and change what a name holds: ``outputs.append(pred)`` (a list of
CUDA tensors), ``model.to(device)`` / ``model.eval()`` (a module moves or switches in place), and
``to_device(batch, device)`` (a helper of the project that moves a batch's entries in place). A mixin of FlowAnalyzer."""

from __future__ import annotations

import ast
import re

from advisor.lint.flow.kinds import (
    CONTAINER,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_MODEL,
    CUDA_TENSOR,
    F64,
    FRESH,
    MODEL,
    MODEL_BITS,
    NUMPY,
    TENSOR_BITS,
)
from advisor.lint.names import dotted

_IN_PLACE_METHODS = frozenset({"to", "cuda", "cpu", "eval", "train", "double", "half", "float", "bfloat16"})
# A helper named for moving data, called on its own line with the data and a device: it moves the entries in place.
_MOVES_IN_PLACE = re.compile(r"^_*(to|move_to|batch_to|dict_to|send_to|put_on)_?(device|cuda|gpu)$", re.IGNORECASE)


class ExpressionStatements:
    def _expr(self, node: ast.Expr) -> None:
        kind = self.ev(node.value)
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
            self._moved_by_helper(call)
            return
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
            return
        if call.func.attr in ("append", "extend", "insert") and call.args:  # outputs.append(pred): a list of them
            key = dotted(call.func.value)  # (models too: an ensemble, `for model in model_list: model(x)`)
            added = self.values.get(call.args[-1], 0) & (TENSOR_BITS | NUMPY | MODEL | CUDA_MODEL | F64)
            if key is not None and added:
                self.bind(key, (self.lookup(key) or 0) | (added & ~FRESH) | CONTAINER)
            return
        if call.func.attr not in _IN_PLACE_METHODS:
            return
        target, moved = call.func.value, 0  # `model.to(device)` on its own line moves the module in place (also in
        while isinstance(target, ast.Call) and (attr := getattr(target.func, "attr", None)) in _IN_PLACE_METHODS:
            moved |= self.values.get(target, 0) if attr in ("to", "cuda") else 0  # a chain: model.to(device).eval())
            target = target.func.value  # type: ignore[union-attr]
        if (key := dotted(target)) is None or (self.lookup(key) or 0) & (TENSOR_BITS | NUMPY | CONTAINER) \
                and not kind & MODEL_BITS:
            return
        if kind & MODEL_BITS and not kind & (CUDA_TENSOR | CPU_TENSOR):
            self.bind(key, kind)
        elif call.func.attr in ("to", "cuda") and kind & CUDA_TENSOR or call.func.attr == "eval" and moved & CUDA_TENSOR:
            self.bind(key, CUDA_MODEL | MODEL)  # ssd.to(device), nerf.cuda().eval(): only a module moves in place

    def _moved_by_helper(self, call: ast.Call) -> None:
        """``to_device(batch, device)`` (its result dropped) of a CUDA device: the batch's entries are moved in place --
        ``batch["img"]`` is a CUDA tensor from here on."""
        if not _MOVES_IN_PLACE.match(call.func.id) or len(call.args) < 2 or not isinstance(call.args[0], ast.Name):
            return
        if not any(self.values.get(a, 0) & CUDA_DEVICE for a in call.args[1:]):
            return
        key = call.args[0].id
        self.bind(key, ((self.lookup(key) or 0) & ~(CPU_TENSOR | FRESH)) | CUDA_TENSOR | CONTAINER)
