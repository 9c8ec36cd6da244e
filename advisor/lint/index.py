"""One walk over a module's AST that every check shares: parents, and the nodes checks look for, in order.

Walking a 10,000-line file costs tens of milliseconds; doing it once instead of once per check is most
of what keeps the linter well under a second.
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional, Union

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
ScopeNode = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef]
LOOP_TYPES = (ast.For, ast.AsyncFor, ast.While)
FUNCTION_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)


class FileIndex:
    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.parents: dict[ast.AST, ast.AST] = {}
        self.calls: list[ast.Call] = []
        self.loops: list[ast.AST] = []
        self.withs: list[ast.AST] = []
        self.functions: list[FunctionNode] = []
        self.classes: list[ast.ClassDef] = []
        self.imports: list[ast.AST] = []
        self.assigns: list[ast.AST] = []  # Assign, AugAssign, AnnAssign
        self.formatted: list[ast.FormattedValue] = []
        self.tests: list[ast.AST] = []  # If, While, Assert, IfExp: nodes whose .test Python makes a bool of
        self.bound_names: set[str] = set()
        buckets = {
            ast.Call: self.calls, ast.For: self.loops, ast.AsyncFor: self.loops, ast.While: self.loops,
            ast.With: self.withs, ast.AsyncWith: self.withs, ast.FunctionDef: self.functions,
            ast.AsyncFunctionDef: self.functions, ast.ClassDef: self.classes, ast.Import: self.imports,
            ast.ImportFrom: self.imports, ast.Assign: self.assigns, ast.AugAssign: self.assigns,
            ast.AnnAssign: self.assigns, ast.FormattedValue: self.formatted, ast.If: self.tests,
            ast.Assert: self.tests, ast.IfExp: self.tests,
        }
        parents = self.parents
        stack: list[ast.AST] = [tree]
        iter_children = ast.iter_child_nodes
        while stack:
            node = stack.pop()
            bucket = buckets.get(node.__class__)
            if bucket is not None:
                bucket.append(node)
            children = list(iter_children(node))
            for child in children:
                parents[child] = node
            children.reverse()
            stack.extend(children)
        for loop in self.loops:
            if isinstance(loop, ast.While):
                self.tests.append(loop)
        for node in self.assigns:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            self.bound_names.update(t.id for t in targets if isinstance(t, ast.Name))
        self.bound_names.update(f.name for f in self.functions)
        self.bound_names.update(c.name for c in self.classes)

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        parent = self.parents.get(node)
        while parent is not None:
            yield parent
            parent = self.parents.get(parent)

    def scope_of(self, node: ast.AST) -> ScopeNode:
        """The function (or module) whose body holds ``node``; lambdas belong to where they are written."""
        for parent in self.ancestors(node):
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                return parent
        return self.tree

    def enclosing_loops(self, node: ast.AST) -> list[ast.AST]:
        """Loops around ``node`` inside its own function, innermost first. A for-loop's iterable is not inside."""
        loops = []
        child = node
        for parent in self.ancestors(node):
            if isinstance(parent, FUNCTION_TYPES + (ast.Lambda, ast.ClassDef)):
                break
            if isinstance(parent, LOOP_TYPES) and not (isinstance(parent, (ast.For, ast.AsyncFor))
                                                       and child is parent.iter):
                loops.append(parent)
            child = parent
        return loops

    def statement_of(self, node: ast.AST) -> Optional[ast.stmt]:
        if isinstance(node, ast.stmt):
            return node
        for parent in self.ancestors(node):
            if isinstance(parent, ast.stmt):
                return parent
        return None
