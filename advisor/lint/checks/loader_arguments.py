"""What a DataLoader's argument holds when it is not spelled out at the call (GA106 reads num_workers and
pin_memory this way): the number the last plain assignment before the call binds, the default of the command-line
option it reads, the values a for-loop around it gives it."""

from __future__ import annotations

import ast
from typing import Optional


def reaching_constant(ctx, value: ast.AST, call: ast.Call) -> Optional[int]:
    """``nw = min([os.cpu_count(), ...])`` then ``nw = 0`` (a debugging override) before ``DataLoader(...,
    num_workers=nw)``: the number the last plain assignment before the call's statement, in its block, binds."""
    statement = ctx.index.statement_of(call)
    if not isinstance(value, ast.Name) or statement is None:
        return None
    written = ctx.index.last_write_before(value.id, statement)
    if isinstance(written, ast.Assign) and len(written.targets) == 1 and isinstance(written.targets[0], ast.Name) \
            and isinstance(written.value, ast.Constant) and type(written.value.value) is int:
        return written.value.value
    return None


def option_defaults(ctx) -> dict[str, ast.AST]:
    """``parser.add_argument("--num-workers", default=0)``: the default of each command-line option the file
    declares, by the attribute its parsed value has (``args.num_workers``)."""
    found: dict[str, ast.AST] = {}
    for call in ctx.index.calls_by_name.get("add_argument", ()):
        keywords = {k.arg: k.value for k in call.keywords}
        dest = keywords.get("dest")
        name = dest.value if isinstance(dest, ast.Constant) and isinstance(dest.value, str) else None
        if name is None:
            flags = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            long = [f for f in flags if f.startswith("--")] or flags
            name = long[0].lstrip("-").replace("-", "_") if long else None
        if not name:
            continue
        action = keywords.get("action")
        if "default" in keywords:
            found[name] = keywords["default"]
        elif isinstance(action, ast.Constant) and action.value == "store_true":
            found[name] = ast.Constant(value=False)
    return found


def option_default(ctx, value: ast.AST, defaults: dict[str, ast.AST]):
    """The default of the command-line option ``value`` reads (``args.num_workers``), when the file says."""
    if not (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id != "self"):
        return None
    default = defaults.get(value.attr)
    if default is None:
        return None
    if isinstance(default, ast.Constant) and isinstance(default.value, bool):
        return default.value
    return ctx.int_value(default)


def loop_values(ctx, value: ast.AST) -> Optional[set[int]]:
    """``for num_workers in range(1): DataLoader(..., num_workers=num_workers)``: the values an enclosing for-loop
    gives the name, when its iterable spells them out (``range(n)`` with a known n, a literal list), else None."""
    if not isinstance(value, ast.Name):
        return None
    for loop in ctx.enclosing_loops(value):
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            continue
        if not (isinstance(loop.target, ast.Name) and loop.target.id == value.id):
            if value.id in ctx.assigned_in(loop):
                return None  # rebound inside a loop around it: what reaches the call is not the loop's
            continue
        iterable = loop.iter
        if isinstance(iterable, ast.Call) and ctx.qual(iterable.func) in (None, "range") \
                and isinstance(iterable.func, ast.Name) and iterable.func.id == "range" and len(iterable.args) == 1:
            count = ctx.int_value(iterable.args[0])
            return set(range(count)) if count is not None and count <= 64 else None
        if isinstance(iterable, (ast.List, ast.Tuple)):
            values = {element.value for element in iterable.elts if isinstance(element, ast.Constant)}
            return values if len(values) == len(iterable.elts) else None
        return None
    return None
