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


def where(node: ast.AST) -> str:
    """`line 12` for messages that point at a second place."""
    return f"line {getattr(node, 'lineno', '?')}"
