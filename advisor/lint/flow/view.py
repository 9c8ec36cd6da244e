"""What the analyses after the data-flow pass (effects, loops, timings) read about a file: its index, its
names and the pass's result. They take these explicitly, so nothing in lint/flow/ knows about the checks'
FileContext (which builds them, and which they never import)."""

from __future__ import annotations

import ast
from functools import cached_property
from typing import Optional

from advisor.lint.flow.analyzer import FlowResult
from advisor.lint.flow.kinds import CUDA_MODEL, INSTANCE_BITS, MODEL, TENSOR_BITS
from advisor.lint.flow.scopes import FunctionInfo
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
        """The import path of ``node`` unless its root name holds a tensor here (names.qual_unless_rebound)."""
        return self.names.qual_unless_rebound(node, lambda root: bool(self.flow.values.get(root, 0) & TENSOR_BITS))

    def model_calls(self, info: FunctionInfo) -> list[ast.Call]:
        """``model(images)`` of an instance of the user's model class: the calls that run its ``forward`` through
        ``__call__``, which calls by the function's name leave out."""
        owner = info.class_info
        if info.name != "forward" or owner is None or not owner.is_model:
            return []
        return [call for call in self._instance_calls if self.kind(call.func) & owner.instance_bit]

    @cached_property
    def _instance_calls(self) -> list[ast.Call]:
        """The calls of a module that is an instance of one of the user's classes (found once, for every forward)."""
        return [call for call in self.index.calls
                if not (isinstance(call.func, ast.Attribute) and call.func.attr == "forward")
                and self.kind(call.func) & INSTANCE_BITS and self.kind(call.func) & (MODEL | CUDA_MODEL)]
