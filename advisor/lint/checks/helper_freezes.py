"""Freezes written in a helper: ``def set_parameter_requires_grad(model, feature_extracting): if feature_extracting:
for param in model.parameters(): param.requires_grad = False`` (torchvision's fine-tuning tutorial) freezes what its
callers hand it, not every ``model`` of the file -- and nothing at a call that passes ``False`` for the flag the
freeze sits under (``feature_extract = False``)."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.index import FUNCTION_TYPES


def frozen_through_calls(index, node: ast.AST, name: str) -> Optional[list[str]]:
    """The texts of what the callers of the function around the freeze ``node`` hand it as the parameter ``name``
    (the model the freeze names), and ``name`` itself, leaving out calls that switch the freeze off (empty when every
    call does); None when ``name`` is no parameter of that function or the file never calls it (then the freeze
    names ``name`` itself)."""
    function = next((a for a in index.ancestors(node) if isinstance(a, FUNCTION_TYPES)), None)
    if function is None or isinstance(index.parents.get(function), ast.ClassDef):
        return None
    parameters = [a.arg for a in function.args.posonlyargs + function.args.args]
    sites = [call for call in index.calls if isinstance(call.func, ast.Name) and call.func.id == function.name]
    if name not in parameters or not sites:
        return None
    flags = _guarding_flags(index, node, function, parameters)
    found = []
    for site in sites:
        if any(_passes_false(index, _passed(site, parameters, flag)) for flag in flags):
            continue  # set_parameter_requires_grad(model_ft, feature_extract) with feature_extract = False
        passed = _passed(site, parameters, name)
        found += [ast.unparse(passed), name] if passed is not None else [name]  # (and the parameter's own name:
        # another function handed the same model often calls it `model` too -- the freeze reaches it there)
    return found


def _guarding_flags(index, node: ast.AST, function: ast.AST, parameters: list[str]) -> list[str]:
    """The parameters tested by plain ``if flag:`` statements between the freeze and its function."""
    flags = []
    child = node
    for parent in index.ancestors(node):
        if parent is function:
            break
        if isinstance(parent, ast.If) and child in parent.body and isinstance(parent.test, ast.Name) \
                and parent.test.id in parameters:
            flags.append(parent.test.id)
        child = parent
    return flags


def _passed(call: ast.Call, parameters: list[str], name: str) -> Optional[ast.AST]:
    position = parameters.index(name)
    if position < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:position + 1]):
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == name), None)


def _passes_false(index, value: Optional[ast.AST]) -> bool:
    """``False``, or a name every binding of which in the file is ``False`` (``feature_extract = False``)."""
    if isinstance(value, ast.Name):
        bound = index.assigned_values.get(value.id, [])
        return bool(bound) and all(isinstance(v, ast.Constant) and v.value is False for v in bound)
    return isinstance(value, ast.Constant) and value.value is False
