"""Everything the checks share about one parsed file, computed once: index, names, data flow, and
(lazily, only when a check asks) GPU effects, timings and hot loops."""

from __future__ import annotations

import ast
from functools import cached_property
from typing import TYPE_CHECKING, Optional

from advisor.lint.cuda_flow import FlowResult, analyze
from advisor.lint.index import FileIndex
from advisor.lint.machine import Machine
from advisor.lint.names import Names
from advisor.lint.sizes import TensorSizes
from advisor.lint.source import SourceUnit

if TYPE_CHECKING:  # imported lazily: most files never need them
    from advisor.lint.effects import Effects
    from advisor.lint.loops import LoopAnalysis
    from advisor.lint.timeline import Timings


class FileContext:
    def __init__(self, unit: SourceUnit, tree: ast.Module, machine: Optional[Machine] = None) -> None:
        self.unit = unit
        self.tree = tree
        self.machine = machine or Machine()  # this machine's measurements, when a report was given
        self.index = FileIndex(tree)
        self.names = Names.from_nodes(self.index.imports, self.index.bound_names, self.index.assigned_values,
                                      self.index.parameters)
        self.flow: FlowResult = analyze(self.index, self.names)

    def kind(self, node: ast.AST) -> int:
        return self.flow.values.get(node, 0)

    def qual(self, node: ast.AST):
        return self.names.qual(node)

    def calls_in(self, scope: ast.AST) -> list[ast.Call]:
        """The calls written directly in a function's (or the module's) body, nested defs aside."""
        return self._calls_by_scope.get(scope, [])

    @cached_property
    def _calls_by_scope(self) -> dict[ast.AST, list[ast.Call]]:
        by_scope: dict[ast.AST, list[ast.Call]] = {}
        for call in self.index.calls:
            by_scope.setdefault(self.index.scope_of(call), []).append(call)
        return by_scope

    @cached_property
    def sizes(self) -> TensorSizes:
        return TensorSizes(self.names, self.index)

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
