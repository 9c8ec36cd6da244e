"""GA105's replayed batches: a list of CPU batches built once (``batches = [b for b in loader]``) and walked again on
every pass of an outer loop (warm-up and timed passes of a benchmark, epochs over a cached dataset), each batch copied
to the GPU inside: the same bytes cross PCIe on every pass. Copying the list once, before the passes, removes it."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.common import line_of, short, where
from advisor.lint.flow import CUDA_TENSOR
from advisor.lint.index import target_names
from advisor.lint.model import Hit


def replayed_batches(ctx) -> Iterator[Hit]:
    for call in ctx.index.calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("to", "cuda") and isinstance(func.value, ast.Name)
                and ctx.kind(call) & CUDA_TENSOR):
            continue
        loops = ctx.index.enclosing_loops(call)
        if len(loops) < 2 or not isinstance(loops[0], ast.For):
            continue
        inner, outer = loops[0], loops[1]
        cached = _walked_list(ctx, inner.iter)
        if cached is None or _holds_cuda(ctx, cached, inner) or cached in ctx.assigned_in(outer) or not _from_element(ctx, func.value.id, inner, call) \
                or ctx.is_sweep(outer) or ctx.loop_iterations(outer) == 1 or ctx.runs_on_some_iterations(call, outer):
            continue
        yield Hit(f"{short(call)} copies each batch of `{cached}` to the GPU again on every iteration of the loop at "
                  f"{where(ctx, outer)}: the list holds the same CPU batches every time", node=call,
                  evidence={"loop_line": line_of(ctx, outer), "tensor": cached},
                  fix=f"Copy the batches once, before the loop ({cached} = [move(b) for b in {cached}]), and walk "
                      "that list inside.")


def _walked_list(ctx, iterable: ast.AST) -> Optional[str]:
    """``batches``, also through enumerate(...) / tqdm(...): a name bound only to a list display, a comprehension or
    list(...) (filled by .append before the loop), in the loop's own scope."""
    while isinstance(iterable, ast.Call) and len(iterable.args) >= 1 \
            and (ctx.qual(iterable.func) in api.PASSTHROUGH_CALLS or isinstance(iterable.func, ast.Name) and iterable.func.id == "enumerate"):
        iterable = iterable.args[0]
    if not isinstance(iterable, ast.Name):
        return None
    scope = ctx.index.scope_of(iterable)
    values = [v for v in ctx.index.assigned_values.get(iterable.id, ()) if ctx.index.scope_of(v) is scope]
    lists = all(isinstance(v, (ast.List, ast.ListComp)) or isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "list"
                for v in values)
    return iterable.id if values and lists else None


def _holds_cuda(ctx, name: str, loop: ast.AST) -> bool:
    """Are the batches appended to the list (or written in its display) moved to the GPU already (``.cuda()``,
    ``.to(device)`` as they are stored)? Then the copy in the loop moves nothing."""
    scope = ctx.index.scope_of(loop)
    filled = [call.args[0] for call in ctx.index.calls_by_name.get("append", ()) if call.args
              and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
              and call.func.value.id == name and ctx.index.scope_of(call) is scope]
    filled += [v for v in ctx.index.assigned_values.get(name, ()) if ctx.index.scope_of(v) is scope]
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("to", "cuda")
               for value in filled for node in ast.walk(value))  # (what a loader yields is judged by the copy)


def _from_element(ctx, name: str, inner: ast.For, copy: ast.Call) -> bool:
    """Is ``name`` the loop's element (``for text in batches``), or unpacked from it in the body
    (``_, _, text, _ = batch``, ``x = batch[0]``) -- not data made in the loop?"""
    element = target_names(inner.target)
    if name in element:
        return True
    for statement in ast.walk(inner):
        if isinstance(statement, ast.Assign) and name in {n for t in statement.targets for n in target_names(t)} \
                and statement.value is not copy:
            value = statement.value
            while isinstance(value, ast.Subscript):
                value = value.value
            if not (isinstance(value, ast.Name) and value.id in element):
                return False
            return True
    return False
