"""``self.real_label = torch.zeros((n, 1))`` then ``if cuda: self.real_label = self.real_label.cuda()`` in the same
method: a fill made on the CPU only to be copied, kept in an attribute instead of a name (GA104)."""

from __future__ import annotations

import ast
from typing import Callable, Optional

from advisor.lint.names import dotted


def attribute_fill(ctx, receiver: ast.AST, copy: ast.Call,
                   factory_of: Callable[[ast.AST], Optional[ast.Call]]) -> Optional[ast.Call]:
    """The factory that made ``self.x`` in the copy's own function, when the copy is stored back into ``self.x``
    and nothing reads ``self.x`` in between; else None."""
    key = dotted(receiver) if isinstance(receiver, ast.Attribute) else None
    statement = ctx.index.parents.get(copy)
    if key is None or not (isinstance(statement, ast.Assign) and [dotted(t) for t in statement.targets] == [key]):
        return None
    scope = ctx.index.scope_of(copy)
    made = [node for node in ctx.assigns_in(scope) if isinstance(node, ast.Assign) and node.lineno < copy.lineno
            and [dotted(t) for t in node.targets] == [key]]
    if not made:
        return None
    reads = [n for n in ast.walk(scope) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)
             and dotted(n) == key and made[-1].lineno < n.lineno < copy.lineno]
    return factory_of(made[-1].value) if not reads else None
