"""Fields a class declares in its body: ``class Args: device = torch.device("cpu")`` (CleanRL-style settings, a
dataclass's ``device: str = "cpu"``). ``self.args = Args()`` ... ``self.args.device`` reads that value, not a device
configured elsewhere."""

from __future__ import annotations

import ast


def bind_class_fields(analyzer, node: ast.ClassDef) -> None:
    """Record each plain field of the class body as an attribute its instances hold (``"self.device"``)."""
    info = analyzer.scopes.classes.get(node)
    if info is None:
        return
    for statement in node.body:
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        targets = statement.targets if isinstance(statement, ast.Assign) else \
            [statement.target] if isinstance(statement, ast.AnnAssign) else []
        for target in targets:
            if value is not None and isinstance(target, ast.Name):
                key = "self." + target.id
                info.attrs[key] = info.attrs.get(key, 0) | analyzer.ev(value)
