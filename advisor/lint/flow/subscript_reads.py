"""Subscripts that read a CUDA value back to the host: host data indexed by a CUDA tensor (``classes[pred]``), a
slice whose bounds are CUDA values (``img[x1:x2]``), torch 0.3's way of reading a loss (``loss.data[0]``), and a
slot of a CPU tensor a CUDA tensor is stored into (``y_true[i] = labels``: a copy back, like ``.cpu()``)."""

from __future__ import annotations

import ast

from advisor.lint.flow.kinds import CONTAINER, CPU_TENSOR, CUDA_TENSOR
from advisor.lint.flow.literals import indexes_host_data, is_text
from advisor.lint.index import FileIndex
from advisor.lint.names import dotted


def reads_by_subscript(node: ast.Subscript, kind, index: FileIndex) -> bool:
    """``kind``: the flow's kind of an expression."""
    return indexes_host_data(node, kind, index.assigned_values) \
        or (old_scalar_read(node, index) and bool(kind(node.value) & CUDA_TENSOR)) \
        or sliced_by_cuda_bounds(node, kind) or stored_back(node, kind, index) or _host_by_use(node, kind, index)


def _host_by_use(node: ast.Subscript, kind, index: FileIndex) -> bool:
    """``self.features[example_index]`` where the file also writes ``self.features[example_index.item()]``: a host
    container (its author reads the index back to use it), here indexed by the CUDA tensor itself -- the same read,
    hidden in ``__index__``."""
    return dotted(node.value) in index.indexed_by_items and not kind(node.value) & (CUDA_TENSOR | CPU_TENSOR) \
        and bool(kind(node.slice) & CUDA_TENSOR) and not kind(node.slice) & CONTAINER


def stored_back(node: ast.Subscript, kind, index: FileIndex) -> bool:
    """``y_probs[batch_id][...] = probs[:, 0]``, ``feats[i] = rows[i]`` with the target a CPU tensor (torch.zeros(n,
    d) made on the host) and the value a CUDA tensor: the assignment copies GPU data into host memory, a synchronous
    copy back per store. (A NumPy array refuses CUDA tensors outright: an error, not a wait.)"""
    statement = index.parents.get(node)
    if not (isinstance(node.ctx, ast.Store) and isinstance(statement, ast.Assign) and node in statement.targets):
        return False
    base = node.value
    while isinstance(base, ast.Subscript):
        base = base.value
    held, value = kind(base), kind(statement.value)
    return bool(held & CPU_TENSOR) and not held & (CUDA_TENSOR | CONTAINER) \
        and bool(value & CUDA_TENSOR) and not value & CONTAINER and not _keyed(node.slice, base, index) \
        and not _moved_in_place(node, statement.value)
    # (test_data["pred"] = ..., inputs[k] = v.to(device): a dict -- a batch -- gets a CUDA value)


def _moved_in_place(target: ast.Subscript, value: ast.AST) -> bool:
    """``data[i] = data[i].to(device)``: each item of a batch replaced by its own GPU copy -- the batch is a list of
    tensors (a siamese pair), for a tensor the line would copy the data straight back, which nobody writes."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in ("to", "cuda", "float", "long", "half"):
        value = value.func.value
    return ast.dump(value) == ast.dump(ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load()))


def sliced_by_cuda_bounds(node: ast.Subscript, kind) -> bool:
    """``img[:, x1:x2]`` with ``x1 = grad_max[i] // w`` a 0-d CUDA tensor: Python asks each bound for its integer
    (``__index__``), which reads it back to the host -- one wait per bound, per iteration."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    bounds = [b for part in parts if isinstance(part, ast.Slice) for b in (part.lower, part.upper, part.step)
              if b is not None]
    return any(kind(b) & CUDA_TENSOR and not kind(b) & CONTAINER and not isinstance(b, ast.Attribute) for b in bounds)
    # (not batch.batch_size, data.num_nodes: an attribute of a batch moved to the GPU is its metadata, a number)


def old_scalar_read(node: ast.Subscript, index: FileIndex) -> bool:
    """``loss.data[0]``: before torch 0.4 a loss was a one-element tensor, and indexing its data was how its value
    was read (``.item()`` came with 0.4) -- a host read like ``.item()``. Only for one value: a loss (a value the
    file steps back through, ``loss.backward()``, or one named a loss), a reduction over every element
    (``d.mean().data[0]``) or a name only ever bound to one: ``output.data[0]`` of a batch is its first row, no read."""
    data = node.value
    if not (isinstance(data, ast.Attribute) and data.attr == "data"
            and isinstance(node.slice, ast.Constant) and node.slice.value == 0):
        return False
    if _whole_reduction(data.value):  # (a.sum() + b.sum()).data[0], d.mean().data[0]: one element, read
        return True
    if not isinstance(data.value, ast.Name):
        return False
    name = data.value.id
    values = index.assigned_values.get(name, [])
    return "loss" in name.lower() or bool(values) and all(_whole_reduction(v) for v in values) or any(
        isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id == name
        for call in index.calls_by_name.get("backward", ()))


_WHOLE_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "norm", "prod", "std", "var"})


def _whole_reduction(node: ast.AST) -> bool:
    """``x.sum()``, ``(a.sum() + b.sum()) / n``: a reduction over every element (no dim), one value."""
    if isinstance(node, ast.BinOp):
        sides = [side for side in (node.left, node.right) if not isinstance(side, ast.Constant)]
        return bool(sides) and all(_whole_reduction(side) for side in sides)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _WHOLE_REDUCTIONS \
        and not node.args and not node.keywords


def _keyed(key: ast.AST, base: ast.AST, index: FileIndex) -> bool:
    """A text key, or a key drawn from the base itself (``for k, v in inputs.items(): inputs[k] = ...``)."""
    if is_text(key):
        return True
    if not (isinstance(key, ast.Name) and isinstance(base, ast.Name)):
        return False
    for loop in index.loops:
        drawn = getattr(loop, "iter", None)
        if isinstance(drawn, ast.Call) and isinstance(drawn.func, ast.Attribute) and drawn.func.attr in ("items", "keys"):
            drawn = drawn.func.value
        if isinstance(drawn, ast.Name) and drawn.id == base.id \
                and any(isinstance(n, ast.Name) and n.id == key.id for n in ast.walk(loop.target)):
            return True
    return (index.scope_of(base), base.id) in index.keyed_by_text


def optimizer_setting(node: ast.Subscript) -> bool:
    """``opt.param_groups[0]["lr"]`` (or ``["momentum"]``, ...): a group's hyperparameter -- not its ``["params"]``."""
    group = node.value
    return isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str) and node.slice.value != "params" \
        and isinstance(group, ast.Subscript) and isinstance(group.value, ast.Attribute) \
        and group.value.attr == "param_groups"
