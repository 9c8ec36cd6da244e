"""``X, y = make_data(cfg)``: which expression of the file's own function ``make_data`` each unpacked name holds --
the part at its place in every tuple the function returns (sizes.py follows it to a size)."""

from __future__ import annotations

import ast


def unpack_statements(index) -> dict[str, list[ast.Assign]]:
    """name -> the ``a, b = f(...)`` statements that bind it, from one pass over the file's assignments."""
    found: dict[str, list[ast.Assign]] = {}
    for node in index.assigns:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) \
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name):
            for target in node.targets[0].elts:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, []).append(node)
    return found


def returned_parts(index, unpacks: dict[str, list[ast.Assign]], functions: dict[str, ast.FunctionDef], name: str,
                   scope: ast.AST) -> list[ast.AST]:
    """The returned parts ``name`` gets in ``scope``; [] when a return is no tuple of the same length."""
    found: list[ast.AST] = []
    for node in unpacks.get(name, ()):
        names = [t.id if isinstance(t, ast.Name) else None for t in node.targets[0].elts]  # type: ignore[attr-defined]
        function = functions.get(node.value.func.id)  # type: ignore[attr-defined]
        if function is None or index.scope_of(node) is not scope:
            continue
        returns = [r.value for r in ast.walk(function) if isinstance(r, ast.Return) and index.scope_of(r) is function]
        if not returns or not all(isinstance(r, ast.Tuple) and len(r.elts) == len(names) for r in returns):
            return []
        found.extend(r.elts[names.index(name)] for r in returns)  # type: ignore[union-attr]
    return found
