"""The integers a script spells out (``N = 100_000``, ``2 * N``, ``1 << 20``, ``int(1e5)``, an option's or a config
field's default), read through names -- loop counts and tensor sizes both ask. A base of TensorSizes, which holds
the name lookups (``_values``) and the cached argparse options and config fields it reads."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.flow.argparse_options import argparse_options
from advisor.lint.flow.config_fields import config_fields, field_values

MAX_DEPTH = 24  # a chain of names from a numpy array to the loss: each name, call and operator is a level
_INT_OPS = (ast.Mult, ast.Add, ast.Sub, ast.Pow, ast.FloorDiv, ast.LShift)


class IntValues:
    def int_value(self, node: ast.AST, depth: int = 0, options: bool = True) -> Optional[int]:
        """A constant int the code spells out: ``4``, ``N`` with ``N = 100_000``, ``2 * N``, ``10 ** 5``,
        ``1 << 20``, ``int(1e5)``, a parameter's default, and (``options``) ``args.steps`` with ``add_argument("--steps",
        default=5000)``: what the script runs with when nobody passes another."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            scope = self.index.scope_of(node)
            values = self._values(node.id, scope) + self._walked_items(node.id, scope)
            ints = {self.int_value(v, depth + 1, options) for v in values}
            return ints.pop() if len(ints) == 1 and None not in ints else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int" \
                and len(node.args) == 1:
            value = node.args[0]
            if isinstance(value, ast.Constant) and isinstance(value.value, float) and value.value.is_integer():
                return int(value.value)  # int(1e5)
            return self.int_value(value, depth + 1, options)
        if options and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if self._options is None:
                self._options = argparse_options(self.index)
            parsed, defaults = self._options
            if node.value.id in parsed:
                default = defaults.get(node.attr)
                return None if default is None else self.int_value(default, depth + 1, options)
            if self._configs is None:
                self._configs = config_fields(self.index)
            values = field_values(self._configs, self.index, node) or [None]  # cfg.epochs of `cfg: Config`
            ints = {self.int_value(v, depth + 1, options) if v is not None else None for v in values}
            return ints.pop() if len(ints) == 1 and None not in ints else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, _INT_OPS):
            left = self.int_value(node.left, depth + 1, options)
            right = self.int_value(node.right, depth + 1, options)
            if left is None or right is None:
                return None
            if isinstance(node.op, ast.Pow):
                return left ** right if 0 <= right <= 64 else None
            if isinstance(node.op, ast.LShift):  # N = 1 << 20
                return left << right if 0 <= right <= 64 else None
            if isinstance(node.op, ast.FloorDiv):
                return left // right if right else None
            if isinstance(node.op, ast.Sub):
                return left - right  # range(n - 1)
            return left * right if isinstance(node.op, ast.Mult) else left + right
        return None

    def _walked_items(self, name: str, scope: ast.AST) -> list[ast.AST]:
        """``for L in Ls:`` rebinds L too: the items of a list written out (``Ls = [256, 1024]``), else the iterable
        itself (a value nothing spells out) -- so an earlier ``L = 8`` is not the only value L takes."""
        found: list[ast.AST] = []
        for loop in self.index.loops_by_target.get(name, ()):
            if self.index.scope_of(loop) is scope:
                items = loop.iter
                bound = self.index.assigned_values.get(items.id, []) if isinstance(items, ast.Name) else []
                items = bound[0] if len(bound) == 1 else items
                found += list(items.elts) if isinstance(items, (ast.List, ast.Tuple)) else [items]
        return found
