"""Everything the checks share about one parsed file, computed once: index, names, data flow, and
(lazily, only when a check asks) GPU effects, timings and hot loops."""

from __future__ import annotations

import ast
from functools import cached_property
from typing import TYPE_CHECKING

from advisor.lint.cuda_flow import FlowResult, analyze
from advisor.lint.index import FileIndex
from advisor.lint.names import Names
from advisor.lint.source import SourceUnit

if TYPE_CHECKING:  # imported lazily: most files never need them
    from advisor.lint.effects import Effects
    from advisor.lint.loops import LoopAnalysis
    from advisor.lint.timeline import Timings


class FileContext:
    def __init__(self, unit: SourceUnit, tree: ast.Module) -> None:
        self.unit = unit
        self.tree = tree
        self.index = FileIndex(tree)
        self.names = Names.from_nodes(self.index.imports, self.index.bound_names)
        self.flow: FlowResult = analyze(self.index, self.names)

    def kind(self, node: ast.AST) -> int:
        return self.flow.values.get(node, 0)

    def qual(self, node: ast.AST):
        return self.names.qual(node)

    @cached_property
    def effects(self) -> "Effects":
        from advisor.lint.effects import Effects

        return Effects(self)

    @cached_property
    def timings(self) -> "Timings":
        from advisor.lint.timeline import Timings

        return Timings(self)

    @cached_property
    def loops(self) -> "LoopAnalysis":
        from advisor.lint.loops import LoopAnalysis

        return LoopAnalysis(self)
