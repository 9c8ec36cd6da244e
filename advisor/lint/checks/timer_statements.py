"""Forwards a benchmark timer runs from a statement string: ``torch.utils.benchmark.Timer(stmt="model(x)",
globals={"model": model, "x": x})`` (also ``timeit.Timer`` / ``timeit.timeit`` / ``timeit.repeat``). The string is
code the timer runs, in the grad mode around the call; the names it calls are the file's values through
``globals=``'s mapping (a timer given no dict, or globals(), is left alone: its names are not tied to a node)."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint.flow.timeit_regions import timed_statement

_TIMERS = frozenset({"torch.utils.benchmark.Timer", "torch.utils.benchmark.utils.timer.Timer", "timeit.Timer",
                     "timeit.timeit", "timeit.repeat"})


def statement_calls(ctx) -> Iterator[tuple[ast.Call, ast.AST]]:
    """(the timer call, the file's value that its statement calls) for each call the statement string makes on
    a plain name: ``"model(x)"`` -> ``model``; ``globals={"net": model}`` maps ``net`` to ``model``."""
    for call in ctx.index.calls:
        if ctx.qual(call.func) not in _TIMERS:
            continue
        text = timed_statement(call)
        if not (isinstance(text, ast.Constant) and isinstance(text.value, str)):
            continue
        try:
            tree = ast.parse(text.value)
        except SyntaxError:
            continue
        names = _globals_mapping(call)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                value = names.get(node.func.id) if names is not None else None
                if value is not None:
                    yield call, value


def _globals_mapping(call: ast.Call) -> Optional[dict[str, ast.AST]]:
    """``globals={"model": model}`` as name -> the file's expression; None when the timer is given no dict."""
    given = next((k.value for k in call.keywords if k.arg == "globals"), None)
    if not isinstance(given, ast.Dict):
        return None
    return {key.value: value for key, value in zip(given.keys, given.values, strict=False)
            if isinstance(key, ast.Constant) and isinstance(key.value, str)}
