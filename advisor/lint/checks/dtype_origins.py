"""Where a float64 dtype handed around by name was chosen: ``dtype = get_dtype(config)`` ... ``torch.ones(n,
device=device, dtype=dtype)`` in a helper the dtype is passed to. GA109 reports the choice once, at the helper's
``return torch.float64``, instead of at every factory that uses the name: one place to change."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.flow import DTYPE_F64
from advisor.lint.flow.scopes import passed_at
from advisor.lint.index import parameter_defaults
from advisor.lint.names import dotted

_MAX_DEPTH = 4


def dtype_origin(ctx, call: ast.Call, dtype: Optional[ast.AST] = None) -> Optional[ast.Return]:
    """The ``return torch.float64`` of the user's function whose result reaches this call's ``dtype=`` (or
    ``dtype``, an argument named by the caller) through names (assignments, parameters filled by every call site
    the same way), if there is exactly one."""
    dtype = dtype if dtype is not None else next((k.value for k in call.keywords if k.arg == "dtype"), None)
    return _origin(ctx, dtype, 0) if isinstance(dtype, ast.Name) else None


def _origin(ctx, name: ast.Name, depth: int) -> Optional[ast.Return]:
    if depth > _MAX_DEPTH:
        return None
    scope = ctx.index.scope_of(name)
    values = [v for v in ctx.index.assigned_values.get(name.id, ()) if ctx.index.scope_of(v) is scope
              and v.lineno <= name.lineno]
    if values:
        value = max(values, key=lambda v: (v.lineno, v.col_offset))
        if isinstance(value, ast.Name):
            return _origin(ctx, value, depth + 1)
        info = ctx.callee(value) if isinstance(value, ast.Call) else None
        if info is None:
            return None
        chosen = [r for r in ast.walk(info.node) if isinstance(r, ast.Return) and r.value is not None
                  and ctx.kind(r.value) & DTYPE_F64]
        return chosen[0] if len(chosen) == 1 else None
    info = ctx.function_of(name)
    if info is None or name.id not in info.positional + info.keyword_only:
        return None
    found = set()
    for site in ctx.call_sites(info):
        passed = passed_at(site, info, name.id)
        origin = _origin(ctx, passed, depth + 1) if isinstance(passed, ast.Name) else None
        if origin is None:
            return None
        found.add(origin)
    return found.pop() if len(found) == 1 else None


def attribute_dtype_choices(ctx, call: ast.Call) -> list[ast.AST]:
    """``dtype=self._tensorType`` of a class whose ``__init__`` keeps its ``tensorType=torch.float64`` parameter
    (``self._tensorType = tensorType``): where float64 is written for it -- the parameter's default, and each call
    building the object that passes float64 -- so GA109 names the choice once, not the dozens of factories using it."""
    dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
    key = dotted(dtype) if isinstance(dtype, ast.Attribute) else None
    info = ctx.function_of(call)
    owner = info.class_info if info is not None else None
    init = owner.methods.get("__init__") if owner is not None else None
    if not key or not key.startswith("self.") or init is None:
        return []
    kept = [v for v in ctx.index.assigned_by_dotted.get(key, []) if ctx.function_of(v) is not None]
    if len(kept) != 1 or not isinstance(kept[0], ast.Name) or ctx.function_of(kept[0]) is not init \
            or kept[0].id not in init.positional + init.keyword_only:
        return []
    parameter = kept[0].id
    default = parameter_defaults(init.node.args).get(parameter)
    choices = [default] if default is not None and _float64(ctx, default) else []
    for site in ctx.index.calls_by_name.get(owner.name, []):  # Solver(..., tensorType=torch.float64)
        passed = passed_at(site, init, parameter)
        if passed is not None and _float64(ctx, passed):
            choices.append(passed)
    return choices


def named_dtype_choices(ctx, call: ast.Call) -> list[ast.AST]:
    """``dtype=dtype`` of a name the file binds to float64 once: where float64 is chosen, so GA109 names the choice once
    and not every factory using it -- ``DTYPE = torch.double`` at module level; ``dtype = torch.float64`` in the
    function; or, for a parameter, its ``dtype=torch.float64`` default and what each call passes for it (a float64
    constant, or a name the caller binds to one). [] when the name is not followed to float64 choices."""
    dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
    if not isinstance(dtype, ast.Name):
        return []
    info = ctx.function_of(call)
    if info is not None and dtype.id in info.positional + info.keyword_only:
        return _parameter_choices(ctx, info, dtype.id)
    scope = info.node if info is not None else ctx.index.tree
    chosen = _bound_choice(ctx, dtype.id, scope)
    if chosen is None and scope is not ctx.index.tree and not _bound_in(ctx, dtype.id, scope):
        chosen = _bound_choice(ctx, dtype.id, ctx.index.tree)
    return [chosen] if chosen is not None else []


def _parameter_choices(ctx, info, name: str) -> list[ast.AST]:
    default = parameter_defaults(info.node.args).get(name)
    choices = [default] if default is not None and _float64(ctx, default) else []
    for site in ctx.index.calls_by_name.get(info.name, []):
        passed = passed_at(site, info, name)
        if passed is None:
            continue
        if isinstance(passed, ast.Name):
            caller = ctx.function_of(site)
            passed = _bound_choice(ctx, passed.id, caller.node if caller is not None else ctx.index.tree)
            if passed is None:
                return []  # a caller hands a dtype not followed here: leave the factories to be reported
        elif not _float64(ctx, passed):
            return []
        choices.append(passed)
    return list({id(c): c for c in choices}.values())


def _bound_choice(ctx, name: str, scope: ast.AST) -> Optional[ast.AST]:
    """The one float64 dtype ``name`` is bound to in ``scope`` (its own statements), or None -- spelled out, not a
    helper's result (``dtype = get_dtype(cfg)``: dtype_origin places that at the helper's return)."""
    values = [v for v in ctx.index.assigned_values.get(name, []) if ctx.index.scope_of(v) is scope]
    return values[0] if len(values) == 1 and not isinstance(values[0], ast.Call) and _float64(ctx, values[0]) \
        else None


def _bound_in(ctx, name: str, scope: ast.AST) -> bool:
    return any(ctx.index.scope_of(v) is scope for v in ctx.index.assigned_values.get(name, []))


def _float64(ctx, node: ast.AST) -> bool:
    """``torch.float64`` by its kind, or by its name where the pass left an argument unvalued."""
    return bool(ctx.kind(node) & DTYPE_F64) or ctx.qual(node) in ("torch.float64", "torch.double")
