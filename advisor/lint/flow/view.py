"""What the analyses after the data-flow pass (effects, loops, timings) read about a file: its index, its
names and the pass's result. They take these explicitly, so nothing in lint/flow/ knows about the checks'
FileContext (which builds them, and which they never import)."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.flow.analyzer import FlowResult
from advisor.lint.flow.kinds import TENSOR_BITS
from advisor.lint.index import FileIndex
from advisor.lint.names import Names


class FlowView:
    def __init__(self, index: FileIndex, names: Names, flow: FlowResult) -> None:
        self.index = index
        self.names = names
        self.flow = flow

    def kind(self, node: ast.AST) -> int:
        """The abstract value (kinds.py bits) the data-flow pass gave this expression; 0: nothing known."""
        return self.flow.values.get(node, 0)

    def qual(self, node: ast.AST) -> Optional[str]:
        """The import path of ``node`` -- unless its root name holds a tensor here: ``from lightly import loss``
        and later ``loss = criterion(z0, z1)``: ``loss.item()`` reads that tensor, not a function of the module
        (imports are collected for the whole file; the pass knows what the name holds at this line)."""
        qualified = self.names.qual(node)
        if qualified is None or not isinstance(node, ast.Attribute):
            return qualified
        root = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        return None if self.flow.values.get(root, 0) & TENSOR_BITS else qualified
