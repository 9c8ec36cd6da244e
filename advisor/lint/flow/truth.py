"""Conditions that ask a CUDA tensor for its truth value (``if loss > 2:``, ``while not done.all():``): the host
waits for the GPU to answer. A list of tensors (``if outputs:``) or a dict the code reads by key (``if dynamics:``
with ``dynamics["mask"]``) is asked about its length, not the GPU."""

from __future__ import annotations

import ast
from typing import Callable

from advisor.lint.flow.kinds import CONTAINER, CUDA_TENSOR
from advisor.lint.flow.literals import is_text
from advisor.lint.index import FileIndex


def truth_sync(test: ast.AST, kind: Callable[[ast.AST], int], index: FileIndex) -> bool:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return truth_sync(test.operand, kind, index)
    if isinstance(test, ast.BoolOp):
        return any(truth_sync(value, kind, index) for value in test.values)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn)):
        # `if True in mask:`, `if k not in disabled:`: Tensor.__contains__ answers on the host (a key of a dict of
        # tensors, `"loss" in outputs`, `if key in batch:` of a batch read by key, is a question about the dict)
        held, container = kind(test.comparators[0]), test.comparators[0]
        named = isinstance(container, (ast.Name, ast.Attribute))  # (not `x in d.keys()`, `x in masks[i]`: a value
        # whose kind the flow guessed from what holds it may be a list or a dict's keys)
        left = test.left
        asked = isinstance(left, ast.Constant) and not isinstance(left.value, str) or named and not is_text(left)
        return asked and bool(held & CUDA_TENSOR) and not held & CONTAINER and not _keyed_by_text(container, index)
    held = kind(test)
    return bool(held & CUDA_TENSOR) and not held & CONTAINER and not _keyed_by_text(test, index)


def truth_read(test: ast.AST, kind: Callable[[ast.AST], int], index: FileIndex) -> ast.AST:
    """The part of a condition that is the host read: ``loss > 2`` in ``step > 3 and loss > 2``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return truth_read(test.operand, kind, index)
    if isinstance(test, ast.BoolOp):
        return next((truth_read(v, kind, index) for v in test.values if truth_sync(v, kind, index)), test)
    return test


def _keyed_by_text(test: ast.AST, index: FileIndex) -> bool:
    """A name the same function subscripts with a string (``batch["mask"]``): a mapping, not a tensor."""
    return isinstance(test, ast.Name) and (index.scope_of(test), test.id) in index.keyed_by_text
