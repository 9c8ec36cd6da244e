"""Models the code builds only from torch.nn layers whose sizes it spells out: ``nn.Sequential(nn.Linear(2, 1),
nn.Sigmoid())``, ``nn.Linear(1, 1).cuda()``. Their forward, loss, backward and optimizer step on a tiny input are
a handful of tiny kernels each -- what a launch-bound loop is made of (the XOR and linear-regression tutorials).

A model class the user wrote counts when its ``__init__`` only makes such layers (sized by constants or by the
arguments the model is built with: ``LinearRegressionModel(1, 1)``) and small parameters, and its ``forward`` only
calls them and elementwise math, with no loop. A layer whose output could be larger than its input times its
widest size (convolutions, embeddings, recurrent layers) is not sized: the checks stay quiet on it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable, Optional

from advisor.lint.flow.op_sizes import REDUCING_METHODS, SAME_SIZE_FUNCTIONS, SAME_SIZE_METHODS, VIEWS
from advisor.lint.index import parameter_defaults
from advisor.lint.names import self_attribute
from advisor.lint.torch_api import FUNCTIONAL_ELEMENTWISE, MODULE_PARAMETERS

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
_MODULE_BASES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})
# Factories whose integer arguments are a parameter's shape: nn.Parameter(torch.randn(1, requires_grad=True)).
_PARAMETER_FACTORIES = frozenset({"randn", "rand", "zeros", "ones", "empty"})
Sizes = dict[str, Optional[int]]  # what a model class's __init__ knows: parameter or self.attribute -> int


@dataclass(frozen=True)
class TinyModel:
    width: int  # the largest size of any layer: a bound on (output elements / input elements)
    parameters: int  # elements of the largest parameter tensor (an optimizer step updates each)


def peel_same_model(value: ast.AST) -> ast.AST:
    """``nn.BCELoss().to(device)`` -> ``nn.BCELoss()``: the module before the calls that return it again."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _SAME_MODEL:
        value = value.func.value
    return value


def without_moves_in_place(name: str, values: list) -> list:
    """The values bound to ``name`` less ``name = name.cuda()`` / ``name.to(device)``: the same module again."""
    return [value for value in values
            if not (isinstance(peeled := peel_same_model(value), ast.Name) and peeled.id == name)]


class TinyModels:
    def __init__(self, qual: Callable[[ast.AST], Optional[str]], values_of: Callable[[str, ast.AST], list],
                 scope_of: Callable[[ast.AST], ast.AST], int_value: Callable[[ast.AST], Optional[int]],
                 classes: list[ast.ClassDef]) -> None:
        self._qual, self._values_of, self._scope_of, self._int_value = qual, values_of, scope_of, int_value
        self._classes: dict[str, list[ast.ClassDef]] = {}
        for class_node in classes:
            self._classes.setdefault(class_node.name, []).append(class_node)
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
        if len(values) != 1 or not isinstance(values[0], ast.Call) or optimized_argument(values[0]) is None \
                or not (self._qual(values[0].func) or "").startswith("torch.optim."):
            return None
        handed = optimized_argument(values[0])
        if not (isinstance(handed, ast.Call) and isinstance(handed.func, ast.Attribute)
                and handed.func.attr == "parameters" and not handed.args):
            return None
        return self.of(handed.func.value)

    def _name(self, name: str, scope: ast.AST, depth: int) -> Optional[TinyModel]:
        key = (name, scope)
        if key not in self._cache:
            self._cache[key] = None  # a cycle sizes nothing
            values = without_moves_in_place(name, self._values_of(name, scope))
            models = [self._built(value, depth + 1) for value in values]
            self._cache[key] = _largest(models) if models and None not in models else None
        return self._cache[key]

    def _built(self, value: ast.AST, depth: int, known: Optional[Sizes] = None) -> Optional[TinyModel]:
        if depth > _MAX_DEPTH:
            return None
        value = peel_same_model(value)
        if isinstance(value, ast.Name) and known is None:
            return self._name(value.id, self._scope_of(value), depth)
        if not isinstance(value, ast.Call):
            return None
        if isinstance(value.func, ast.Name) and known is None and len(self._classes.get(value.func.id, ())) == 1:
            return self._user_model(self._classes[value.func.id][0], value, depth)
        name = self._qual(value.func) or ""
        kind = name.rsplit(".", 1)[-1]
        if name != f"torch.nn.{kind}" and not name.startswith("torch.nn.modules."):
            return None
        if kind == "Sequential":
            parts = [self._built(argument, depth + 1, known) for argument in value.args]
            return _largest(parts) if parts and None not in parts and not value.keywords else None
        if kind in _SIZE_FREE:
            return TinyModel(1, 0)
        if kind in _SIZED:
            count, parameters = _SIZED[kind]
            sizes = [self._size(argument, known) for argument in value.args[:count]]
            by_keyword = {k.arg: k.value for k in value.keywords}
            sizes += [self._size(by_keyword[name], known) if name in by_keyword else None
                      for name in _KEYWORD_SIZES[kind][len(sizes):count]]
            if len(sizes) != count or None in sizes:
                return None
            return TinyModel(max(sizes), parameters(sizes))  # type: ignore[arg-type]
        return None


    def _size(self, node: ast.AST, known: Optional[Sizes]) -> Optional[int]:
        """An integer argument of a layer: a constant, or -- inside a model class -- what its __init__ was given."""
        if known is not None:
            key = ast.unparse(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
            if key in known:
                return known[key]
        return self._int_value(node)

    def _user_model(self, class_node: ast.ClassDef, built: ast.Call, depth: int) -> Optional[TinyModel]:
        """``LinearRegressionModel(1, 1)`` of a class whose __init__ makes only tiny layers and small parameters
        and whose forward only calls them and elementwise math: a tiny model as well."""
        if not any(self._qual(base) in _MODULE_BASES for base in class_node.bases):
            return None
        methods = {m.name: m for m in class_node.body if isinstance(m, ast.FunctionDef)}
        init, forward = methods.get("__init__"), methods.get("forward")
        if init is None or forward is None or set(methods) - {"__init__", "forward"}:
            return None  # other methods may run other work in the loop
        known = _arguments(init, built, self._int_value)
        if known is None:
            return None
        layers: dict[str, TinyModel] = {}
        for statement in init.body:
            if isinstance(statement, ast.Expr) and _is_super_init(statement.value):
                continue
            if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                    and self_attribute(statement.targets[0])):
                return None
            attribute, value = ast.unparse(statement.targets[0]), statement.value
            if isinstance(value, (ast.Name, ast.Constant)):  # self.hidden = hidden: a size for the layers
                known[attribute] = self._size(value, known)
                continue
            layer = self._parameter(value, known) or self._built(value, depth + 1, known)
            if layer is None:
                return None
            layers[attribute] = layer
        if not layers or not _elementwise_forward(forward, set(layers), self._qual):
            return None
        return _largest(list(layers.values()))

    def _parameter(self, value: ast.AST, known: Sizes) -> Optional[TinyModel]:
        """``nn.Parameter(torch.randn(1, requires_grad=True))``: a parameter the code sizes."""
        if not (isinstance(value, ast.Call) and self._qual(value.func) in MODULE_PARAMETERS
                and value.args and isinstance(value.args[0], ast.Call)):
            return None
        factory = value.args[0]
        if (self._qual(factory.func) or "").removeprefix("torch.") not in _PARAMETER_FACTORIES or not factory.args:
            return None
        sizes = [self._size(argument, known) for argument in factory.args]
        if None in sizes:
            return None
        elements = 1
        for size in sizes:
            elements *= size  # type: ignore[operator]
        return TinyModel(max(1, elements), elements)


def _arguments(init: ast.FunctionDef, built: ast.Call, int_value) -> Optional[Sizes]:
    """The integers ``__init__``'s parameters get from the call that builds the model, else from their defaults."""
    names = [a.arg for a in init.args.posonlyargs + init.args.args][1:]  # (self)
    if any(isinstance(a, ast.Starred) for a in built.args) or len(built.args) > len(names):
        return None
    known: Sizes = {name: int_value(default) for name, default in parameter_defaults(init.args).items()}
    known.update({name: int_value(argument) for name, argument in zip(names, built.args, strict=False)})
    known.update({k.arg: int_value(k.value) for k in built.keywords if k.arg is not None})
    return known


def _is_super_init(call: ast.AST) -> bool:
    """super().__init__(), super(Net, self).__init__(), nn.Module.__init__(self)."""
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__"


def _elementwise_forward(forward: ast.FunctionDef, layers: set[str], qual) -> bool:
    """forward only calls the model's own layers and elementwise math (no loop, no other module or function)."""
    for node in ast.walk(forward):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor, ast.comprehension)):
            return False
        if isinstance(node, ast.Attribute) and self_attribute(node) and ast.unparse(node) not in layers:
            return False  # self.other: something __init__ did not size
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = qual(func) or ""
        if self_attribute(func) or name.removeprefix("torch.") in SAME_SIZE_FUNCTIONS \
                or name.removeprefix("torch.nn.functional.") in FUNCTIONAL_ELEMENTWISE:
            continue
        if not name and isinstance(func, ast.Attribute) and func.attr in SAME_SIZE_METHODS | REDUCING_METHODS | VIEWS:
            continue
        return False
    return True


def _largest(models: list) -> TinyModel:
    return TinyModel(max(m.width for m in models), max(m.parameters for m in models))


def optimized_argument(optimizer: ast.Call) -> Optional[ast.AST]:
    """What ``torch.optim.SGD(model.parameters(), ...)`` / ``SGD(params=[w, b], ...)`` is handed to update."""
    return optimizer.args[0] if optimizer.args else next((k.value for k in optimizer.keywords if k.arg == "params"), None)
