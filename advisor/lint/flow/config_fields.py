"""Integer settings held in a dataclass config the file defines: ``cfg.epochs`` in ``def train(cfg: Config)`` with
``@dataclass class Config: epochs: int = 400`` -- what the script runs with, like an argparse option's default.

A field's values are its default and every value the file builds the config with (``Config(epochs=ns.epochs)``);
sizes.py takes the number only when they all agree.
"""

from __future__ import annotations

import ast
from typing import Optional

ConfigFields = dict[str, dict[str, list[ast.expr]]]  # class name -> field -> the values it may hold


def config_fields(index) -> ConfigFields:
    configs: ConfigFields = {}
    for class_node in index.classes:
        if not any(_is_dataclass(decorator) for decorator in class_node.decorator_list):
            continue
        fields: dict[str, list[ast.expr]] = {}
        for statement in class_node.body:
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                fields[statement.target.id] = [statement.value] if statement.value is not None else []
        configs[class_node.name] = fields
    for call in index.calls:
        fields = configs.get(call.func.id) if isinstance(call.func, ast.Name) else None
        if fields is None:
            continue
        for name, value in zip(fields, call.args, strict=False):  # positional: in the order the fields are written
            fields[name].append(value)
        for keyword in call.keywords:
            if keyword.arg in fields:
                fields[keyword.arg].append(keyword.value)
            elif keyword.arg is None:  # Config(**overrides): any field may change
                for values in fields.values():
                    values.append(keyword.value)
    return configs


def field_values(configs: ConfigFields, index, node: ast.Attribute) -> Optional[list[ast.expr]]:
    """The values ``cfg.epochs`` may hold, when ``cfg`` is a parameter annotated with a config class of the file."""
    if not isinstance(node.value, ast.Name) or not configs:
        return None
    scope = index.scope_of(node)
    arguments = getattr(scope, "args", None)
    if arguments is None:
        return None
    for parameter in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
        if parameter.arg == node.value.id:
            annotation = parameter.annotation
            name = annotation.id if isinstance(annotation, ast.Name) else \
                annotation.value if isinstance(annotation, ast.Constant) else None  # (cfg: "Config")
            fields = configs.get(name) if isinstance(name, str) else None
            return fields.get(node.attr) if fields is not None else None
    return None


def _is_dataclass(decorator: ast.AST) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Name) and target.id == "dataclass" \
        or isinstance(target, ast.Attribute) and target.attr == "dataclass"
