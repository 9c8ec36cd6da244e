"""What a script's command-line options default to, read from its ``argparse`` calls.

``parser.add_argument("--device", default="cuda")`` ... ``args = parser.parse_args()``: ``args.device`` is
then the device the author meant by default; the flow pass (devices) and the size pass (loop counts,
tensor sizes) both read options this way.
"""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.index import FileIndex


def argparse_options(index: FileIndex) -> tuple[set[str], dict[str, Optional[ast.AST]]]:
    """The names holding ``parser.parse_args()``, and each option's dest -> its ``default=`` expression (None when
    it has none)."""
    defaults: dict[str, ast.AST] = {}
    for call in index.calls_by_name.get("add_argument", ()):
        name = _dest(call)
        if name:  # (None: an option with no default; a namespace's other attributes are the program's own)
            defaults[name] = next((k.value for k in call.keywords if k.arg == "default"), None)
    called = {v.func.id for values in index.assigned_values.values() for v in values  # flags = args()
              if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and not v.args}
    parsers = {f.name for f in index.functions if f.name in called  # def args(): ...; return parser.parse_args()
               and any(isinstance(n, ast.Return) and _parses(n.value) for n in ast.walk(f))}
    parsed = {name for name, values in index.assigned_values.items()
              if any(_parses(v) or isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in parsers
                     for v in values)}
    for node in index.assigns:  # args, unknown = parser.parse_known_args(): the first part is the namespace
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) \
                and node.targets[0].elts and isinstance(node.targets[0].elts[0], ast.Name) \
                and _parses(node.value, "parse_known_args"):
            parsed.add(node.targets[0].elts[0].id)
    return parsed, defaults


def required_options(index: FileIndex) -> frozenset[str]:
    """The dests of ``add_argument(..., required=True)``: options the user must give on every run."""
    return frozenset(name for call in index.calls_by_name.get("add_argument", ())
                     if any(k.arg == "required" and isinstance(k.value, ast.Constant) and k.value.value is True
                            for k in call.keywords) and (name := _dest(call)))


def _dest(call: ast.Call) -> Optional[str]:
    """The attribute ``add_argument(...)`` stores its option under: ``dest=``, else the long flag, else the first
    flag, with dashes as underscores."""
    dest = next((k.value for k in call.keywords if k.arg == "dest"), None)
    flags = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    name = dest.value if isinstance(dest, ast.Constant) else next(
        (f.lstrip("-") for f in flags if f.startswith("--")), flags[0].lstrip("-") if flags else None)
    return str(name).replace("-", "_") if name else None


def _parses(value: Optional[ast.AST], method: str = "parse_args") -> bool:
    """``parser.parse_args()`` (or ``parser.parse_known_args()[0]``)."""
    if method == "parse_args" and isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) \
            and value.slice.value == 0:
        value, method = value.value, "parse_known_args"
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == method

