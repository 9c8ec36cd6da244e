"""GA108's environment switches: CUDA_LAUNCH_BLOCKING and PYTORCH_NO_CUDA_MEMORY_CACHING set from code -- in
os.environ, by an exported notebook's %env, or in the environment handed to a child process."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint.model import Hit

_DEBUG_ENV = {
    "CUDA_LAUNCH_BLOCKING": "makes every CUDA launch synchronous",
    "PYTORCH_NO_CUDA_MEMORY_CACHING": "turns off the CUDA caching allocator (a cudaMalloc/cudaFree per tensor)",
}


def environment_switches(ctx, costs: dict) -> Iterator[Hit]:
    """The debug variables set in os.environ (assigned, setdefault, putenv, update), by %env magics, or in the
    environment of a child process; ``costs``: GA108's cost text per variable."""
    for node in ctx.index.assigns:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                variable = _environ_key(ctx, target)
                if variable in _DEBUG_ENV and not is_off(node.value):
                    yield Hit(f"{variable} is set in code: it {_DEBUG_ENV[variable]}", node=node,
                              cost=costs[variable])
    for call in ctx.index.calls:
        name = ctx.qual(call.func) or ""
        if name in ("os.environ.setdefault", "os.putenv") and len(call.args) == 2:
            variable = _constant(call.args[0])
            if variable in _DEBUG_ENV and not is_off(call.args[1]):
                yield Hit(f"{variable} is set in code: it {_DEBUG_ENV[variable]}", node=call, cost=costs[variable])
        elif name == "os.environ.update":
            for key, value in _update_items(call):
                if key in _DEBUG_ENV and not is_off(value):
                    yield Hit(f"{key} is set in code: it {_DEBUG_ENV[key]}", node=call, cost=costs[key])
        elif isinstance(call.func, ast.Attribute) and call.func.attr == "run_line_magic" and len(call.args) == 2:
            magic, argument = _constant(call.args[0]), _constant(call.args[1]) or ""
            hit = _env_magic(magic, argument)
            if hit:
                yield Hit(hit[0], node=call, cost=costs[hit[1]])
    yield from _child_environment(ctx, costs)
    for magic in ctx.unit.magics:
        hit = _env_magic(magic.name, magic.args)
        if hit:
            yield Hit(hit[0], line=magic.line, column=magic.column, cost=costs[hit[1]])


_ENV_COPIES = frozenset({"os.environ.copy", "copy.copy", "copy.deepcopy", "dict"})


def _child_environment(ctx, costs: dict) -> Iterator[Hit]:
    """A launcher that starts the training in a child process with a debug switch in its environment
    (``env = os.environ.copy(); env["CUDA_LAUNCH_BLOCKING"] = "1"; subprocess.Popen(cmd, env=env)``): the
    switch slows that process down just as much. An environment is a copy of os.environ, or whatever is
    handed to a call as ``env=``."""
    names: set[str] = set()
    built: list[ast.AST] = []  # expressions that build an environment: {**os.environ, ...}, dict(os.environ, K=...)
    for call in ctx.index.calls:
        for keyword in call.keywords:
            if keyword.arg == "env":
                if isinstance(keyword.value, ast.Name):
                    names.add(keyword.value.id)
                else:
                    built.append(keyword.value)
    for node in ctx.index.assigns:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and (_copies_environ(ctx, node.value) or node.targets[0].id in names):
            names.add(node.targets[0].id)
            built.append(node.value)
    found: list[tuple[str, ast.AST, ast.AST]] = []  # (variable, value, where)
    for value in built:
        if isinstance(value, ast.Dict):
            found += [(_constant(k), v, value) for k, v in zip(value.keys, value.values, strict=True) if k is not None]
        elif isinstance(value, ast.Call) and _call_name(ctx, value) in _ENV_COPIES:
            found += [(k.arg, k.value, value) for k in value.keywords if k.arg]
    for node in ctx.index.assigns:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                        and target.value.id in names:
                    found.append((_constant(target.slice), node.value, node))
    for call in ctx.index.calls:
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in names:
            if func.attr == "update":
                found += [(key, value, call) for key, value in _update_items(call)]
            elif func.attr == "setdefault" and len(call.args) == 2:
                found.append((_constant(call.args[0]), call.args[1], call))
    for variable, value, node in found:
        if variable in _DEBUG_ENV and not is_off(value):
            yield Hit(f"{variable} is set in the environment of a process this script starts: it "
                      f"{_DEBUG_ENV[variable]} there", node=node, cost=costs[variable])


def _copies_environ(ctx, value: ast.AST) -> bool:
    """``os.environ.copy()`` / ``dict(os.environ)`` / ``copy.copy(os.environ)`` / ``{**os.environ, ...}``."""
    if isinstance(value, ast.Call):
        name = _call_name(ctx, value)
        if name == "os.environ.copy":
            return True
        return name in _ENV_COPIES and any(ctx.qual(a) == "os.environ" for a in value.args)
    if isinstance(value, ast.Dict):
        return any(k is None and ctx.qual(v) == "os.environ" for k, v in zip(value.keys, value.values, strict=True))
    return False


def _call_name(ctx, call: ast.Call) -> str:
    """``os.environ.copy`` for an imported name; ``dict`` for the builtin."""
    func = call.func
    return ctx.qual(func) or (func.id if isinstance(func, ast.Name) else "")


def _env_magic(name: Optional[str], argument: str) -> Optional[tuple[str, str]]:
    if name not in ("env", "set_env"):
        return None
    variable, _, value = argument.replace("=", " ", 1).partition(" ")
    value = value.strip().strip("'\"")
    if variable in _DEBUG_ENV and value and value != "0":
        return f"%{name} sets {variable}: it {_DEBUG_ENV[variable]}", variable
    return None


def _environ_key(ctx, target: ast.AST) -> Optional[str]:
    if isinstance(target, ast.Subscript) and ctx.qual(target.value) == "os.environ":
        return _constant(target.slice)
    return None


def _update_items(call: ast.Call):
    for keyword in call.keywords:
        if keyword.arg:
            yield keyword.arg, keyword.value
    if call.args and isinstance(call.args[0], ast.Dict):
        for key, value in zip(call.args[0].keys, call.args[0].values, strict=True):
            if key is not None:
                yield _constant(key), value


def _constant(node: ast.AST) -> Optional[str]:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def is_off(node: ast.AST) -> bool:
    """A literal that leaves the switch off; a variable (an explicit debug flag) counts as off too."""
    if not isinstance(node, ast.Constant):
        return True
    if isinstance(node.value, str) and "," in node.value:
        return True  # "0,1,2,3": a device list (CUDA_VISIBLE_DEVICES' value by mistake) reads as no number: off
    return node.value in (None, False, 0, "0", "", "default", "false", "False")
