"""Resolve what a name in the user's code refers to: `F.relu` -> `torch.nn.functional.relu`.

Imports are collected flow-insensitively (a notebook imports in cell 1 and uses in cell 9; a script may
import inside main()). Snippets often skip the import of the usual suspects, so `torch`, `np`, `time`
and friends resolve to their usual modules unless the file binds those names to something else.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Optional

_CONVENTIONAL = {
    "torch": "torch", "np": "numpy", "numpy": "numpy", "time": "time", "timeit": "timeit",
    "os": "os", "nn": "torch.nn", "datetime": "datetime", "F": "torch.nn.functional",
    # what `from torch.utils.data import *` (or a project's own star import) usually brings
    "DataLoader": "torch.utils.data.DataLoader", "TensorDataset": "torch.utils.data.TensorDataset",
}

# Libraries a project module imports and hands on (`from bench_common import torch, np`): the name is the library.
_REEXPORTED_MODULES = frozenset({"torch", "numpy"})


class Names:
    def __init__(self, imports: dict[str, str]) -> None:
        self.imports = imports
        self.attribute_aliases: dict[str, str] = {}  # "self.mm" -> "torch.mm"
        self._cache: dict[ast.AST, Optional[str]] = {}  # the pass and the checks ask about the same nodes

    @classmethod
    def from_nodes(cls, import_nodes: Iterable[ast.AST], bound_names: set[str],
                   assigned_values: Optional[dict[str, list[ast.AST]]] = None,
                   parameters: frozenset[str] = frozenset(), assigns: Iterable[ast.AST] = ()) -> "Names":
        imports = {name: target for name, target in _CONVENTIONAL.items() if name not in bound_names}
        for node in import_nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        imports[alias.asname] = alias.name
                    else:  # `import torch.cuda` binds `torch`
                        top = alias.name.split(".")[0]
                        imports[top] = top
            elif isinstance(node, ast.ImportFrom) and (node.module or node.level):
                # `from .models.loss import cal_loss` -> `.models.loss.cal_loss`: the project's own code, which
                # the pass treats like any library built on torch (fed CUDA tensors, it returns CUDA tensors)
                module = "." * node.level + (node.module or "")
                for alias in node.names:
                    if alias.name in _REEXPORTED_MODULES and module.split(".")[0] not in _REEXPORTED_MODULES \
                            and alias.asname in (None, alias.name):  # (`from d2l import torch as d2l`: d2l's module)
                        imports[alias.asname or alias.name] = alias.name  # `from common import torch`: torch itself
                    elif alias.name != "*":
                        imports[alias.asname or alias.name] = f"{module}.{alias.name}" if node.module \
                            else f"{module}{alias.name}"
        names = cls(imports)
        if assigned_values:
            names._add_aliases(assigned_values, parameters)
        names._add_attribute_aliases(assigns)
        return names

    def _add_attribute_aliases(self, assigns: Iterable[ast.AST]) -> None:
        """``self.op = torch.mm`` (in every assignment to self.op): ``self.op(a, b)`` is torch.mm."""
        found: dict[str, set] = {}
        for node in assigns:
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                key = dotted(target) if isinstance(target, ast.Attribute) else None
                if key is not None:
                    value = node.value
                    found.setdefault(key, set()).add(
                        self._qual(value) if isinstance(value, (ast.Name, ast.Attribute)) else None)
        self.attribute_aliases = {key: targets.pop() for key, targets in found.items()
                                  if len(targets) == 1 and None not in targets}

    def _add_aliases(self, assigned_values: dict[str, list[ast.AST]], parameters: frozenset[str]) -> None:
        """``mm = torch.mm`` / ``timer = time.perf_counter``: a name only ever bound to an imported thing is
        another name for it, so ``mm(a, b)`` is torch.mm. Two rounds reach aliases of aliases."""
        candidates = [(name, values) for name, values in assigned_values.items()
                      if values and all(v.__class__ in (ast.Name, ast.Attribute) for v in values)
                      and name not in self.imports and name not in parameters]
        for _ in range(2):
            added = False
            for name, values in candidates:
                targets = {self._qual(v) for v in values}
                if len(targets) == 1 and None not in targets and name not in self.imports:
                    self.imports[name] = targets.pop()
                    added = True
            if not added:
                break

    def qual(self, node: ast.AST) -> Optional[str]:
        """Dotted import path of a Name/Attribute chain rooted at an imported name; None otherwise."""
        try:
            return self._cache[node]
        except KeyError:
            found = self._cache[node] = self._qual(node)
            return found

    def qual_unless_rebound(self, node: ast.AST, rebound: Callable[[ast.Name], bool]) -> Optional[str]:
        """``qual(node)`` -- or None where ``rebound`` says the chain's root name holds a value of the file's at this
        point: ``from lightly import loss``, later ``loss = criterion(z0, z1)``: ``loss.item()`` reads the tensor
        (imports are collected file-wide; only the data-flow pass knows what the name holds at a given line)."""
        qualified = self.qual(node)
        if qualified is None or not isinstance(node, ast.Attribute):
            return qualified
        root = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        return None if isinstance(root, ast.Name) and rebound(root) else qualified

    def _qual(self, node: ast.AST) -> Optional[str]:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        if self.attribute_aliases and parts:
            for depth in range(len(parts), 0, -1):  # the longest aliased prefix: self.op in self.op.out
                key = ".".join([node.id] + parts[::-1][:depth])
                if key in self.attribute_aliases:
                    return ".".join([self.attribute_aliases[key]] + parts[::-1][depth:])
        root = self.imports.get(node.id)
        if root is None:
            return None
        parts.append(root)
        return ".".join(reversed(parts))


def dotted(node: ast.AST) -> Optional[str]:
    """`self.model` for a chain of attributes on a plain name; None for anything else (calls, subscripts)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def self_attribute(node: ast.AST) -> bool:
    """``self.name``: an attribute read straight off ``self``."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def last_identifier(node: ast.AST) -> str:
    """The name a reader sees: `model` for `self.model`, `net` for `net`, '' for anything else."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return last_identifier(node.func)
    return ""


def named_like_loader(name: str) -> bool:
    """``train_loader``, ``dataloader``, and fastai's spelling: ``train_dl``, ``self.dl_tr``, ``dls``."""
    name = name.lower()
    return "loader" in name or bool({"dl", "dls"} & set(name.split("_")))
