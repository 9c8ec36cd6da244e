"""Freezes written in a helper: ``def set_parameter_requires_grad(model, feature_extracting): if feature_extracting:
for param in model.parameters(): param.requires_grad = False`` (torchvision's fine-tuning tutorial) freezes what its
callers hand it, not every ``model`` of the file -- and nothing at a call that passes ``False`` for the flag the
freeze sits under (``feature_extract = False``)."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.flow.scopes import call_sites, passed_at


def frozen_through_calls(ctx, node: ast.AST, name: str) -> Optional[list[str]]:
    """The texts of what the callers of the function around the freeze ``node`` hand it as the parameter ``name``
    (the model the freeze names), and ``name`` itself, leaving out calls that switch the freeze off (empty when every
    call does); None when ``name`` is no parameter of that function or the file never calls it (then the freeze
    names ``name`` itself)."""
    info = ctx.function_of(node)
    if info is None or info.class_info is not None or name not in info.positional:
        return None
    sites = call_sites(ctx.index, info)
    if not sites:
        return None
    flags = _guarding_flags(ctx.index, node, info)
    found = []
    for site in sites:
        if any(_passes_false(ctx.index, passed_at(site, info, flag)) for flag in flags):
            continue  # set_parameter_requires_grad(model_ft, feature_extract) with feature_extract = False
        passed = passed_at(site, info, name)
        found += [ast.unparse(passed), name] if passed is not None else [name]  # (and the parameter's own name:
        # another function handed the same model often calls it `model` too -- the freeze reaches it there)
    return found


def _guarding_flags(index, node: ast.AST, info) -> list[str]:
    """The parameters tested by plain ``if flag:`` statements between the freeze and its function."""
    flags = []
    child = node
    for parent in index.ancestors(node):
        if parent is info.node:
            break
        if isinstance(parent, ast.If) and child in parent.body and isinstance(parent.test, ast.Name) \
                and parent.test.id in info.positional:
            flags.append(parent.test.id)
        child = parent
    return flags


def _passes_false(index, value: Optional[ast.AST]) -> bool:
    """``False``, or a name every binding of which in the file is ``False`` (``feature_extract = False``)."""
    if isinstance(value, ast.Name):
        bound = index.assigned_values.get(value.id, [])
        return bool(bound) and all(isinstance(v, ast.Constant) and v.value is False for v in bound)
    return isinstance(value, ast.Constant) and value.value is False
