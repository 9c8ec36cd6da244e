"""Unpacking: what each name gets from ``for i, (x, y) in enumerate(loader)`` or ``loss, acc = step(batch)`` -- the
kind of each item a loop or an assignment hands out. A mixin of the expression evaluator (flow/exprs.py), which
supplies ``ev``, ``bind``, ``lookup``, ``index``, ``names``, ``scope`` and ``values``."""

from __future__ import annotations

import ast
import re
from typing import Optional, Union

from advisor.lint import torch_api as api
from advisor.lint.flow.kinds import (
    CONTAINER,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_MODEL,
    CUDA_TENSOR,
    F64,
    FRESH,
    INSTANCE_BITS,
    LOADER,
    MODEL,
    NUMPY,
    TENSOR_BITS,
)
from advisor.lint.names import dotted

# A part of an unpacked record named as a size or a count: Python ints beside its tensors (edge_index, e_id, size).
_SIZE_NAME = re.compile(r"^(size|sizes|shape|num_\w+|n_\w+|\w+_size|\w+_sizes)$")

Shape = Union[int, tuple]  # the kind of each item when unpacking: (0, CPU_TENSOR) for enumerate(loader)


def union(shape: Shape) -> int:
    if isinstance(shape, tuple):
        out = 0
        for item in shape:
            out |= union(item)
        return out
    return shape


class Unpacking:
    def element_of(self, node: ast.AST, kind: int) -> Shape:
        """Kind of the items ``for x in node`` yields."""
        if isinstance(node, ast.Name):  # bar = tqdm(enumerate(loader)); for step, data in bar
            bound = [v for v in self.index.assigned_values.get(node.id, ()) if self.index.scope_of(v) is self.scope]
            if len(bound) == 1 and isinstance(bound[0], ast.Call) and bound[0].lineno < node.lineno:
                shape = self.element_of(bound[0], self.values.get(bound[0], 0))
                if not kind or isinstance(shape, tuple):  # (params = list(model.named_parameters()): pairs)
                    return shape
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):  # params[0:5]: some of the items
            return self.element_of(node.value, self.values.get(node.value, 0))
        if isinstance(node, ast.Call) and node.args:
            callee = self.names.qual(node.func) or (node.func.id if isinstance(node.func, ast.Name) else "")
            if callee == "enumerate":
                return (0, self.element_of(node.args[0], self.values.get(node.args[0], 0)))
            if callee == "zip":
                return tuple(self.element_of(a, self.values.get(a, 0)) for a in node.args)
            if callee in api.PASSTHROUGH_CALLS:
                return self.element_of(node.args[0], self.values.get(node.args[0], 0))
            if callee == "range":
                return 0
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args and node.func.attr \
                in ("items", "named_parameters", "named_buffers"):  # for k, v in losses.items(): a name, the tensor
            return (0, kind & (CUDA_TENSOR | CPU_TENSOR | F64 | NUMPY | MODEL | CUDA_MODEL))
        if isinstance(node, (ast.List, ast.Tuple)) and node.elts and all(  # for family, cls, rank in [("a", A, 8),
                isinstance(e, ast.Tuple) and len(e.elts) == len(node.elts[0].elts) for e in node.elts):  # ...]
            return tuple(union(tuple(self.values.get(e.elts[i], 0) for e in node.elts))
                         for i in range(len(node.elts[0].elts)))  # each name gets its own position's kinds
        if kind & LOADER:  # a batch: the copy to the GPU is needed, pin_memory makes it cheap -- unless the loader
            return (CUDA_TENSOR if kind & CUDA_TENSOR else CPU_TENSOR) | (kind & F64)  # places it (accelerate)
        return kind & (CUDA_TENSOR | CPU_TENSOR | F64 | NUMPY | MODEL | CUDA_MODEL | CUDA_DEVICE | INSTANCE_BITS)

    def item_of_loop_tuple(self, node: ast.Subscript) -> Optional[int]:
        """``p[0]`` of ``for p in model.named_parameters():``: the parameter's name, not the tensor -- the kind at
        that position of the tuples the loop around it hands out, when their shape is known."""
        if not (isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant)
                and type(node.slice.value) is int):
            return None
        loop = next((loop for loop in self.index.enclosing_loops(node) if isinstance(loop, ast.For)
                     and isinstance(loop.target, ast.Name) and loop.target.id == node.value.id), None)
        shape = self.element_of(loop.iter, self.values.get(loop.iter, 0)) if loop is not None else 0
        if isinstance(shape, tuple) and -len(shape) <= node.slice.value < len(shape):
            return union(shape[node.slice.value])
        return None

    def bind_target(self, target: ast.AST, shape: Shape) -> None:
        if isinstance(target, ast.Name):
            self.bind(target.id, union(shape))
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = target.elts
            if isinstance(shape, tuple) and len(shape) == len(items) \
                    and not any(isinstance(e, ast.Starred) for e in items):
                for item, item_shape in zip(items, shape, strict=True):
                    self.bind_target(item, item_shape)
            else:  # loss, acc = step(batch) returning [loss, acc]: the parts of a list of tensors are tensors --
                for item in items:  # but for a part named as a size (PyG's `for edge_index, _, size in adjs`)
                    sized = isinstance(item, ast.Name) and _SIZE_NAME.match(item.id)
                    self.bind_target(item, 0 if sized else union(shape) & ~(FRESH | CONTAINER))
        elif isinstance(target, ast.Starred):
            self.bind_target(target.value, shape)
        elif isinstance(target, ast.Attribute):
            key = dotted(target)
            if key is not None:
                self.bind(key, union(shape))
            else:
                self.ev(target.value)
        elif isinstance(target, ast.Subscript):
            self.ev(target.value)
            self.ev(target.slice)
            key = dotted(target.value)
            added = union(shape) & (TENSOR_BITS | NUMPY) & ~FRESH
            if key is not None and added:
                held = self.lookup(key) or 0
                if held & CONTAINER or not held & (TENSOR_BITS | NUMPY):  # inputs[k] = v.cuda(): a dict of them
                    self.bind(key, held | added | CONTAINER)  # (not t[i] = v: a tensor keeps its device)
