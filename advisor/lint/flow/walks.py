"""Loops that walk the parts of one step rather than run steps: a model's parameters, or a handful of
components the program registered once (``for force in self.forces: total += force.apply()``).

Such a loop computes on CUDA on every iteration, but it is not a loop of steps: the loop around it (the
simulation's time steps, the training iterations) is. Read from the syntax alone, on the file's index.
"""

from __future__ import annotations

import ast

from advisor.lint.flow.kinds import CUDA_TENSOR
from advisor.lint.index import FileIndex
from advisor.lint.names import dotted

_PARAMETER_WALKS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers", "modules",
                              "named_modules", "children", "named_children"})
_GROWING_METHODS = ("append", "insert", "extend")
_FEW = 8  # registered components: forces, constraints, heads, loss terms -- not a dataset


def walks_parameters(index: FileIndex, loop: ast.AST) -> bool:
    """``for p in model.parameters()`` / ``zip(params, grads)`` / ``for group in opt.param_groups``, also
    through a name bound to such a walk (``params = list(model.parameters())``)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    work, seen = [loop.iter], 0
    while work and seen < 16:
        node = work.pop()
        seen += 1
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _PARAMETER_WALKS:
                return True
            work.extend(node.args)  # enumerate(...), zip(...), list(...), reversed(...)
        elif isinstance(node, ast.Attribute) and node.attr == "param_groups":
            return True
        elif isinstance(node, ast.Name):
            work.extend(index.assigned_values.get(node.id, [])[:2])
    return False


def walks_few_components(index: FileIndex, loop: ast.AST) -> bool:
    """``for force in self.forces`` where the file makes ``self.forces`` a literal list and grows it only by a
    few ``append(...)`` calls written outside any loop: at most a handful of registered parts, each run once per
    step. Not a list filled in a loop (a dataset, a replay buffer), nor one the file receives from elsewhere."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    key = dotted(loop.iter)
    if key is None:
        return False
    made = index.assigned_by_dotted.get(key, [])
    if not made or not all(isinstance(value, (ast.List, ast.Tuple)) for value in made):
        return False
    items = max(len(value.elts) for value in made)
    for method in _GROWING_METHODS:
        for call in index.calls_by_name.get(method, ()):
            if isinstance(call.func, ast.Attribute) and dotted(call.func.value) == key:
                if method == "extend" or index.enclosing_loops(call) or _in_comprehension(index, call) \
                        or not _makes_an_object(call.args[-1] if call.args else None):
                    return False
                items += 1
    return items <= _FEW


def _makes_an_object(node) -> bool:
    """``Gravity(total)``: a component made where it is registered (a class: its name is capitalized)."""
    if not isinstance(node, ast.Call):
        return False
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    return name[:1].isupper()


def _in_comprehension(index: FileIndex, node: ast.AST) -> bool:
    return any(isinstance(parent, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp))
               for parent in index.ancestors(node))


def walks_a_mapping(loop: ast.AST, kind) -> bool:
    """``for name in loss_dir.keys()`` / ``for k, v in metrics.items()`` of a dict of CUDA tensors: a walk over one
    step's named results (its losses, the metrics to log) -- part of whatever step calls it, not a loop of steps
    (a dict of host data, ``utt2text.items()``, may be a whole dataset). ``kind``: the flow's kind of a node."""
    call = getattr(loop, "iter", None)
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and not call.args \
        and call.func.attr in ("keys", "items", "values") and bool(kind(call.func.value) & CUDA_TENSOR)
