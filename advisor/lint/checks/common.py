"""Small helpers the checks share for writing messages."""

from __future__ import annotations

import ast


def short(node: ast.AST, width: int = 48) -> str:
    """The code of ``node`` on one line, cut to ``width`` characters: what a message quotes."""
    try:
        text = " ".join(ast.unparse(node).split())
    except Exception:  # unparse of a hand-made node; the message is still useful without the code
        return "this expression"
    return text if len(text) <= width else text[: width - 3] + "..."


def where(ctx, node: ast.AST) -> str:
    """`line 12` (`cell 3, line 2` in a notebook) for messages that point at a second place."""
    cell, line = ctx.unit.locate(getattr(node, "lineno", 0))
    return f"cell {cell}, line {line}" if cell is not None else f"line {line}"


def line_of(ctx, node: ast.AST):
    """A line for evidence: an int in a .py file, "cellN:line" in a notebook."""
    cell, line = ctx.unit.locate(getattr(node, "lineno", 0))
    return f"cell{cell}:{line}" if cell is not None else line
