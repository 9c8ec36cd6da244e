"""What an expression other than a call does to the GPU: arithmetic on CUDA tensors queues kernels; formatting one
into text, indexing host data with one, or asking one for its truth value outside a condition (``not bad``, ``a or
b``) reads it back to the host. The calls are effects.py's."""

from __future__ import annotations

import ast
from typing import Callable

from advisor.lint.flow.events import COMPUTE, HOST_READ, SYNC, WORK
from advisor.lint.flow.kinds import CUDA_TENSOR
from advisor.lint.flow.literals import is_mask, is_text
from advisor.lint.flow.subscript_reads import reads_by_subscript
from advisor.lint.flow.truth import truth_sync
from advisor.lint.index import FileIndex

_TESTED = (ast.If, ast.While, ast.IfExp, ast.Assert)  # statements whose test effects.py reads as a whole


def expression_effect(node: ast.expr, kind: Callable[[ast.AST], int], index: FileIndex) -> int:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and is_text(node.left):
        return SYNC | HOST_READ if kind(node.right) & CUDA_TENSOR else 0  # "loss %.4f" % loss formats a CUDA tensor
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) or isinstance(node, ast.BoolOp):
        return SYNC | HOST_READ if _truth_outside_a_test(node, kind, index) else 0
    if isinstance(node, (ast.BinOp, ast.Compare, ast.UnaryOp)):
        return WORK | COMPUTE if kind(node) & CUDA_TENSOR else 0
    if isinstance(node, ast.FormattedValue):
        return SYNC | HOST_READ if kind(node.value) & CUDA_TENSOR else 0
    if isinstance(node, ast.Subscript) and reads_by_subscript(node, kind, index):
        return SYNC | HOST_READ  # classes[pred]: the index is read back first; loss.data[0]
    if isinstance(node, ast.Subscript) and kind(node.value) & CUDA_TENSOR and is_mask(index, node.slice) \
            and kind(node.slice) & CUDA_TENSOR:
        return WORK | COMPUTE | SYNC  # x[x > 0]: the result's size is read back first
    return 0


def _truth_outside_a_test(node: ast.expr, kind, index: FileIndex) -> bool:
    """``return not (torch.isnan(t).any() or torch.isinf(t).any())``, ``ok = not bad``: Python asks the CUDA tensor
    for its truth value (``not`` of it; every operand of ``or`` / ``and`` but the last) -- a host read. Inside an
    ``if`` / ``while`` test the statement's test is read as a whole (effects.py), and an outer ``not`` or ``or`` holds
    the read already."""
    operands = [node.operand] if isinstance(node, ast.UnaryOp) else node.values[:-1]
    if not any(truth_sync(operand, kind, index) for operand in operands):
        return False
    child = node
    for parent in index.ancestors(node):
        if isinstance(parent, _TESTED) and child is parent.test or isinstance(parent, ast.BoolOp) \
                or isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
            return False
        if isinstance(parent, (ast.stmt, ast.Lambda, ast.comprehension)):
            return True
        child = parent
    return True
