"""Subscripts that read a CUDA value back to the host: host data indexed by a CUDA tensor (``classes[pred]``), a
slice whose bounds are CUDA values (``img[x1:x2]``), and torch 0.3's way of reading a loss (``loss.data[0]``)."""

from __future__ import annotations

import ast

from advisor.lint.flow.kinds import CONTAINER, CUDA_TENSOR
from advisor.lint.flow.literals import indexes_host_data
from advisor.lint.index import FileIndex


def reads_by_subscript(node: ast.Subscript, kind, index: FileIndex) -> bool:
    """``kind``: the flow's kind of an expression."""
    return indexes_host_data(node, kind, index.assigned_values) \
        or (old_scalar_read(node, index) and bool(kind(node.value) & CUDA_TENSOR)) \
        or sliced_by_cuda_bounds(node, kind)


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
    was read (``.item()`` came with 0.4) -- a host read like ``.item()``. Only for a loss (a value the file steps back
    through, ``loss.backward()``, or one named a loss): ``output.data[0]`` of a batch is its first row, no read."""
    data = node.value
    if not (isinstance(data, ast.Attribute) and data.attr == "data" and isinstance(data.value, ast.Name)
            and isinstance(node.slice, ast.Constant) and node.slice.value == 0):
        return False
    name = data.value.id
    return "loss" in name.lower() or any(
        isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id == name
        for call in index.calls_by_name.get("backward", ()))
