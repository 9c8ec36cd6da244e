"""Models the code builds only from torch.nn layers whose sizes it spells out: ``nn.Sequential(nn.Linear(2, 1),
nn.Sigmoid())``, ``nn.Linear(1, 1).cuda()``. Their forward, loss, backward and optimizer step on a tiny input are
a handful of tiny kernels each -- what a launch-bound loop is made of (the XOR and linear-regression tutorials).

A layer whose output could be larger than its input times its widest size (convolutions, embeddings,
recurrent layers) or a model class the user wrote is not sized: the checks stay quiet on it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable, Optional

# Layers without sizes of their own, whose output has as many elements as their input.
_SIZE_FREE = frozenset({
    "Sigmoid", "ReLU", "ReLU6", "Tanh", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish", "Softplus",
    "Softsign", "Hardtanh", "Hardsigmoid", "Hardswish", "LogSigmoid", "Softmax", "LogSoftmax", "Dropout",
    "Identity", "Tanhshrink",
})
# Layers sized by their integer arguments: (how many leading int arguments, parameters from them).
_SIZED: dict[str, tuple[int, Callable[[list[int]], int]]] = {
    "Linear": (2, lambda n: n[0] * n[1] + n[1]),
    "BatchNorm1d": (1, lambda n: 2 * n[0]),
    "LayerNorm": (1, lambda n: 2 * n[0]),
}
_KEYWORD_SIZES = {"Linear": ("in_features", "out_features"), "BatchNorm1d": ("num_features",),
                  "LayerNorm": ("normalized_shape",)}
# Calls on a model that return the same model: moves, casts, mode switches.
_SAME_MODEL = frozenset({"to", "cuda", "float", "double", "half", "bfloat16", "train", "eval", "requires_grad_"})
_MAX_DEPTH = 6


@dataclass(frozen=True)
class TinyModel:
    width: int  # the largest size of any layer: a bound on (output elements / input elements)
    parameters: int  # elements of the largest parameter tensor (an optimizer step updates each)


def peel_same_model(value: ast.AST) -> ast.AST:
    """``nn.BCELoss().to(device)`` -> ``nn.BCELoss()``: the module before the calls that return it again."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _SAME_MODEL:
        value = value.func.value
    return value


class TinyModels:
    def __init__(self, qual: Callable[[ast.AST], Optional[str]], values_of: Callable[[str, ast.AST], list],
                 scope_of: Callable[[ast.AST], ast.AST], int_value: Callable[[ast.AST], Optional[int]]) -> None:
        self._qual, self._values_of, self._scope_of, self._int_value = qual, values_of, scope_of, int_value
        self._cache: dict[tuple[str, ast.AST], Optional[TinyModel]] = {}

    def of(self, func: ast.AST) -> Optional[TinyModel]:
        """The model a called name holds, when every value it is ever given is such a model."""
        if not isinstance(func, ast.Name):
            return None
        return self._name(func.id, self._scope_of(func), 0)

    def updated_by(self, optimizer: ast.AST) -> Optional[TinyModel]:
        """The model an optimizer updates, when it is one: ``torch.optim.SGD(model.parameters(), lr=1)``."""
        if not isinstance(optimizer, ast.Name):
            return None
        values = self._values_of(optimizer.id, self._scope_of(optimizer))
        if len(values) != 1 or not isinstance(values[0], ast.Call) or not values[0].args \
                or not (self._qual(values[0].func) or "").startswith("torch.optim."):
            return None
        handed = values[0].args[0]
        if not (isinstance(handed, ast.Call) and isinstance(handed.func, ast.Attribute)
                and handed.func.attr == "parameters" and not handed.args):
            return None
        return self.of(handed.func.value)

    def _name(self, name: str, scope: ast.AST, depth: int) -> Optional[TinyModel]:
        key = (name, scope)
        if key not in self._cache:
            self._cache[key] = None  # a cycle sizes nothing
            values = self._values_of(name, scope)
            models = [self._built(value, depth + 1) for value in values]
            self._cache[key] = _largest(models) if models and None not in models else None
        return self._cache[key]

    def _built(self, value: ast.AST, depth: int) -> Optional[TinyModel]:
        if depth > _MAX_DEPTH:
            return None
        value = peel_same_model(value)
        if isinstance(value, ast.Name):
            return self._name(value.id, self._scope_of(value), depth)
        if not isinstance(value, ast.Call):
            return None
        name = self._qual(value.func) or ""
        kind = name.rsplit(".", 1)[-1]
        if name != f"torch.nn.{kind}" and not name.startswith("torch.nn.modules."):
            return None
        if kind == "Sequential":
            parts = [self._built(argument, depth + 1) for argument in value.args]
            return _largest(parts) if parts and None not in parts and not value.keywords else None
        if kind in _SIZE_FREE:
            return TinyModel(1, 0)
        if kind in _SIZED:
            count, parameters = _SIZED[kind]
            sizes = [self._int_value(argument) for argument in value.args[:count]]
            by_keyword = {k.arg: k.value for k in value.keywords}
            sizes += [self._int_value(by_keyword[name]) if name in by_keyword else None
                      for name in _KEYWORD_SIZES[kind][len(sizes):count]]
            if len(sizes) != count or None in sizes:
                return None
            return TinyModel(max(sizes), parameters(sizes))  # type: ignore[arg-type]
        return None


def _largest(models: list) -> TinyModel:
    return TinyModel(max(m.width for m in models), max(m.parameters for m in models))
