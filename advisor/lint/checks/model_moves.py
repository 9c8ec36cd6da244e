"""GA105's model moves: which loop hands the same model to a ``.to(device)`` again on every iteration (the model
named in the loop, each model of an ensemble walked per batch, a method or function run per step on it)."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow import FunctionInfo
from advisor.lint.flow.scopes import passed_at
from advisor.lint.index import target_names


def same_model(ctx, key: str, loop: ast.AST) -> bool:
    """The loop does not make a new model: ``key`` is not written in it, or only by moving it
    (``model = model.to(device)``, ``model = model.cuda().train()``)."""
    if key not in ctx.assigned_in(loop):
        return True
    if "." in key or isinstance(loop, (ast.For, ast.AsyncFor)) and key in target_names(loop.target):
        return False
    for node in ast.walk(loop):
        if isinstance(node, ast.Name) and node.id == key and isinstance(node.ctx, ast.Store):
            parent = ctx.index.parents.get(node)
            if not isinstance(parent, ast.Assign) or len(parent.targets) != 1 or parent.targets[0] is not node:
                return False
            value = parent.value
            while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr in api.MODEL_SELF_METHODS:
                value = value.func.value
            if not (isinstance(value, ast.Name) and value.id == key):
                return False
    return True


def ensemble_walk(ctx, key: str, loops: list[ast.AST]) -> bool:
    """``for batch in loader: for model in models: model = model.to(device)``: the same ensemble, every model of it
    moved again for each batch (the list is not rebuilt in the outer loop)."""
    walk = loops[0]
    if len(loops) < 2 or not isinstance(walk, (ast.For, ast.AsyncFor)) or key not in target_names(walk.target) \
            or not isinstance(walk.iter, ast.Name) or walk.iter.id in ctx.assigned_in(loops[1]):
        return False
    return not ctx.is_sweep(loops[1]) and ctx.loop_iterations(loops[1]) != 1


def held_by_self(ctx, info: FunctionInfo, key: str) -> bool:
    """``model = self.parser_config["model"]`` (or ``= self.model``) on every binding of the local in a method: the
    object's own model, the same one on every call."""
    values = [v for v in ctx.index.assigned_values.get(key, ()) if ctx.index.scope_of(v) is info.node]
    return info.takes_self and bool(values) and all(_rooted_at_self(v) for v in values)


def _rooted_at_self(node: ast.AST) -> bool:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


def method_run_in_loop(ctx, info: FunctionInfo) -> Optional[ast.AST]:
    """The loop (not a sweep, not only on some iterations) that calls this method on every iteration, if any."""
    for site in ctx.call_sites(info):
        loops = ctx.enclosing_loops(site)
        if loops and not ctx.is_sweep(loops[0]) and not ctx.runs_on_some_iterations(site, loops[0]) \
                and ctx.loop_iterations(loops[0]) != 1:
            return loops[0]
    return None


def same_model_passed_in_loop(ctx, info: FunctionInfo, parameter: str) -> Optional[ast.AST]:
    """``def step(model, x): model.to(device) ...`` called as ``for x in loader: step(model, x)``: the loop that
    hands the function the same model on every iteration, or None."""
    if info.vararg == parameter or info.kwarg == parameter:
        return None
    if any(ctx.callee(site) is not info for site in ctx.call_sites(info)):
        return None  # also reached another way: which model arrives is not clear
    for site in ctx.call_sites(info):
        loops = ctx.enclosing_loops(site)
        passed = passed_at(site, info, parameter)
        if loops and isinstance(passed, ast.Name) and not ctx.runs_on_some_iterations(site, loops[0]) \
                and same_model(ctx, passed.id, loops[0]):
            return loops[0]
    return None
