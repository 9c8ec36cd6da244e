"""Lines that never run where the findings would matter: branches of an ``if`` whose answer the file fixes.

Two kinds (issue 12's labelling convention, session 6):
- **Never run at all**: a test of a module constant the file never rebinds (``DATA_TYPE = "float"`` ...
  ``if DATA_TYPE == "double": x = x.double()``), of an entry of a module-level settings object built from literals
  and only ever read (``args = EasyDict({"cuda": False})`` ... ``if args.cuda:``), or of a literal (``if False:``).
  No check reports there.
- **Run only without CUDA**: the CPU fallback of a device test (the ``else:`` of ``if torch.cuda.is_available():``,
  the body of ``if device == "cpu":``), and the path of another accelerator (``elif tpu:``, ``if args.use_xla:``,
  ``with torch_xla.step():``). Nothing there is on a CUDA GPU, so checks of GPU costs and of float64 on the GPU
  stay silent there (a debug switch set on that path still costs: GA108 still reports).

A branch on a command-line option or a function parameter can run and is left alone. Only ``if`` statements are
read; the answer of a conditional expression is rarely where a finding lands.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from advisor.lint.flow.conditions import cuda_condition
from advisor.lint.index import FUNCTION_TYPES, FileIndex
from advisor.lint.names import last_identifier

# Checks that still report on a path that runs without CUDA: a debug switch slows the CPU run as well.
KEPT_ON_CPU_PATHS = frozenset({"GA108"})
_UNKNOWN = object()
# A flag that picks another accelerator than CUDA: `tpu`, `args.use_xla`, `on_mps`.
_OTHER_ACCELERATOR = re.compile(r"(^|_)(tpu|xla|mps|npu|hpu|xpu|ipu)(_|$)", re.IGNORECASE)


@dataclass
class DeadLines:
    never: set[int] = field(default_factory=set)  # lines no run executes
    cpu_only: set[int] = field(default_factory=set)  # lines only a run without CUDA executes

    def hides(self, check_id: str, line: int) -> bool:
        return line in self.never or (line in self.cpu_only and check_id not in KEPT_ON_CPU_PATHS)


def fixed_answers(index: FileIndex) -> dict[ast.If, bool]:
    """The ``if`` statements whose test the file fixes, with the answer: the data-flow pass follows only the
    branch that runs (a float64 conversion under ``if DATA_TYPE == "double":`` never reaches what follows)."""
    ifs = [node for node in index.tests if node.__class__ is ast.If and _may_be_fixed(node.test)]
    if not ifs:
        return {}
    module = _module_constants(index)
    answers: dict[ast.If, bool] = {}
    for node in ifs:
        scope = index.scope_of(node)
        constants = module if scope is index.tree else _local_constants(index, scope, module, _names_in(node.test))
        answer = _constant_answer(node.test, constants)
        if answer is not _UNKNOWN:
            answers[node] = bool(answer)
    return answers


def _may_be_fixed(test: ast.AST) -> bool:
    """Cheap: a literal, a bare name, a setting (args.cuda), a comparison with a literal, or `not` / `and` / `or`."""
    if isinstance(test, (ast.Constant, ast.Name)) or _setting_key(test) is not None:
        return True
    if isinstance(test, ast.UnaryOp):
        return _may_be_fixed(test.operand)
    if isinstance(test, ast.BoolOp):
        return any(_may_be_fixed(value) for value in test.values)
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and any(
        isinstance(side, (ast.Constant, ast.Tuple, ast.List, ast.Set)) for side in (test.left, test.comparators[0]))


def _names_in(test: ast.AST) -> set[str]:
    return {node.id for node in ast.walk(test) if isinstance(node, ast.Name)}


def dead_lines(index: FileIndex, qual: Callable[[ast.AST], Optional[str]],
               answers: Optional[dict[ast.If, bool]] = None) -> DeadLines:
    dead = DeadLines()
    answers = fixed_answers(index) if answers is None else answers
    for node in (n for n in index.tests if n.__class__ is ast.If):
        answer = answers.get(node)
        if answer is not None:
            _mark(dead.never, node.orelse if answer else node.body)
            continue
        on_cuda = cuda_condition(node.test, qual, strict=True)
        if on_cuda is not None:
            _mark(dead.cpu_only, node.orelse if on_cuda else node.body)
            if on_cuda and not node.orelse and _leaves(node.body):
                _mark(dead.cpu_only, index.statements_after(node))  # `if device == "cuda": ...; return t`, then the CPU way
        elif isinstance(node.test, (ast.Name, ast.Attribute)) and _OTHER_ACCELERATOR.search(last_identifier(node.test)):
            _mark(dead.cpu_only, node.body)  # `elif tpu:`: the TPU / XLA / MPS path
    for node in _shadowed_defs(index) + _called_only_where_dead(index, dead.never):
        _mark(dead.never, [node])
    for node in index.withs:
        if any(isinstance(item.context_expr, ast.Call) and (qual(item.context_expr.func) or "").startswith("torch_xla.")
               for item in node.items):
            _mark(dead.cpu_only, node.body)  # `with torch_xla.step():` runs on an XLA device
    return dead


def _leaves(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise))


def _shadowed_defs(index: FileIndex) -> list[ast.stmt]:
    """A module-level ``def inference(...)`` that a later ``def inference(...)`` replaces before anything names it
    (a notebook's cell rewritten below): no call can reach the first one."""
    defs = [s for s in index.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
    names = [d.name for d in defs]
    redefined = {name for name in names if names.count(name) > 1}
    if not redefined:
        return []
    named_at = {name: [node.lineno for node in index.names_by_id.get(name, ())] for name in redefined}
    shadowed = []
    for position, first in enumerate(defs):
        second = next((d for d in defs[position + 1:] if d.name == first.name), None)
        if second is not None and not any((first.end_lineno or first.lineno) < line < second.lineno
                                          for line in named_at.get(first.name, ())):
            shadowed.append(first)  # (named in between, the first definition may run there: kept)
    return shadowed


def _main_block(index: FileIndex) -> list[ast.stmt]:
    """The statements of ``if __name__ == "__main__":`` -- module-level names too (``TEST = False`` set there)."""
    return [s for node in index.tree.body if isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__" for s in node.body]


def _called_only_where_dead(index: FileIndex, never: set[int]) -> list[ast.stmt]:
    """A module-level ``def test(...)`` whose name appears only in calls on lines that never run (``TEST = False``
    ... ``if TEST: test(loader)``): nothing runs its body."""
    if not never:
        return []
    found = []
    for node in index.tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            uses = index.names_by_id.get(node.name, ())
            if uses and all(use.lineno in never and isinstance(index.parents.get(use), ast.Call)
                            and index.parents[use].func is use for use in uses):
                found.append(node)
    return found


def _mark(lines: set[int], body: list[ast.stmt]) -> None:
    if body:
        lines.update(range(body[0].lineno, (body[-1].end_lineno or body[-1].lineno) + 1))


def _module_constants(index: FileIndex) -> dict[str, object]:
    """Module-level names bound once, to a literal, and never rebound anywhere in the file (no second
    assignment, ``global`` write, loop or ``with`` target, parameter, import, def or class of that name)."""
    candidates: dict[str, object] = {}
    for statement in index.tree.body + _main_block(index):
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            value = statement.value
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and isinstance(value, ast.Constant):
                candidates[targets[0].id] = value.value
            elif len(targets) == 1 and isinstance(targets[0], ast.Name):
                candidates.update({f"{targets[0].id}.{key}": item for key, item in _settings(value).items()})
    if not candidates:
        return {}
    imported = {alias.asname or alias.name.split(".")[0] for node in index.imports for alias in node.names}
    constants = {}
    for key, value in candidates.items():
        name = key.split(".", 1)[0]
        if name in imported or any(f.name == name for f in index.functions) \
                or any(c.name == name for c in index.classes):
            continue
        uses = index.names_by_id.get(name, ())
        stores = sum(1 for node in uses if not isinstance(node.ctx, ast.Load))
        if stores == 1 and ("." not in key or all(_only_read(index, node) for node in uses
                                                  if isinstance(node.ctx, ast.Load))):
            constants[key] = value
    return constants


_SETTINGS_WRAPPERS = frozenset({"EasyDict", "edict", "dict", "SimpleNamespace", "Namespace", "AttrDict", "Munch"})


def _settings(value: ast.AST) -> dict[str, object]:
    """``EasyDict({"cuda": False})`` / ``SimpleNamespace(cuda=False)`` / ``{"cuda": False}``: its literal entries."""
    if isinstance(value, ast.Call) and value.func is not None:
        name = value.func.attr if isinstance(value.func, ast.Attribute) else getattr(value.func, "id", "")
        if name not in _SETTINGS_WRAPPERS:
            return {}
        found = {k.arg: k.value.value for k in value.keywords if k.arg and isinstance(k.value, ast.Constant)}
        return found | (_settings(value.args[0]) if len(value.args) == 1 else {})
    if isinstance(value, ast.Dict):
        return {k.value: v.value for k, v in zip(value.keys, value.values, strict=True)
                if isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Constant)}
    return {}


def _only_read(index: FileIndex, use: ast.Name) -> bool:
    """``args.cuda`` / ``args["cuda"]`` read, never written, updated or handed on (which could change an entry)."""
    parent = index.parents.get(use)
    if isinstance(parent, ast.Attribute):  # (not args.update(...): a method that may change it)
        call = index.parents.get(parent)
        return isinstance(parent.ctx, ast.Load) and not (isinstance(call, ast.Call) and call.func is parent)
    return isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Load)


def _setting_key(node: ast.AST) -> Optional[str]:
    """``args.cuda`` / ``args["cuda"]`` -> "args.cuda"."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant) \
            and isinstance(node.slice.value, str):
        return f"{node.value.id}.{node.slice.value}"
    return None


def _local_constants(index: FileIndex, function: ast.AST, module: dict[str, object],
                     wanted: set[str]) -> dict[str, object]:
    """What a test in a function reads as fixed, of the ``wanted`` names: the function's own names bound once, in
    its body, to a literal and never rebound there (``VOTE = 'soft'``), and module constants it does not shadow."""
    parameters: set[str] = set()  # its own and those of the functions around it (a closure reads them too); a
    # parameter of another function named like the constant (MFT.__init__(self, HSIOnly)) shadows nothing here
    for owner in [function] + [a for a in index.ancestors(function) if isinstance(a, FUNCTION_TYPES)]:
        arguments = owner.args  # type: ignore[attr-defined]
        parameters |= {a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs}
        parameters |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
    bound_here = {statement.targets[0].id: statement.value.value for statement in function.body  # type: ignore
                  if isinstance(statement, ast.Assign) and len(statement.targets) == 1
                  and isinstance(statement.targets[0], ast.Name) and isinstance(statement.value, ast.Constant)}
    constants: dict[str, object] = {}
    for name in wanted - parameters:
        stores = sum(1 for node in index.names_by_id.get(name, ()) if not isinstance(node.ctx, ast.Load)
                     and index.scope_of(node) is function)
        if stores == 0 and name in module:
            constants[name] = module[name]
        if stores == 0:  # args.cuda of a module-level settings object the function does not rebind
            constants.update({key: value for key, value in module.items() if key.startswith(name + ".")})
        elif stores == 1 and name in bound_here and not _declared_outside(index, name):
            constants[name] = bound_here[name]
    return constants


def _declared_outside(index: FileIndex, name: str) -> bool:
    """``global NAME`` / ``nonlocal NAME`` anywhere: the name may be written from elsewhere."""
    return any(isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names for node in index.parents)


def _constant_answer(test: ast.AST, constants: dict[str, object]) -> object:
    """The truth of ``test`` when the file fixes it, else _UNKNOWN."""
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if isinstance(test, ast.Name):
        return bool(constants[test.id]) if test.id in constants else _UNKNOWN
    key = _setting_key(test)
    if key is not None:
        return bool(constants[key]) if key in constants else _UNKNOWN
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _constant_answer(test.operand, constants)
        return inner if inner is _UNKNOWN else not inner
    if isinstance(test, ast.BoolOp):
        answers = [_constant_answer(value, constants) for value in test.values]
        decisive = False if isinstance(test.op, ast.And) else True
        if decisive in answers:
            return decisive  # `if DEBUG and x:` with DEBUG = False: never, whatever x is
        return _UNKNOWN if _UNKNOWN in answers else not decisive
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right = _value(test.left, constants), _value(test.comparators[0], constants)
        if left is _UNKNOWN or right is _UNKNOWN:
            return _UNKNOWN
        if not any(isinstance(side, ast.Name) or _setting_key(side) for side in (test.left, test.comparators[0])):
            return _UNKNOWN  # two literals compared: someone's placeholder, leave it
        return _compare(test.ops[0], left, right)
    return _UNKNOWN


def _value(node: ast.AST, constants: dict[str, object]) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    if _setting_key(node) in constants:
        return constants[_setting_key(node)]  # type: ignore[index]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(e, ast.Constant) for e in node.elts):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    return _UNKNOWN


def _compare(op: ast.cmpop, left: object, right: object) -> object:
    try:
        if isinstance(op, ast.Eq):
            return left == right
        if isinstance(op, ast.NotEq):
            return left != right
        if isinstance(op, ast.Is):
            return left is right if left is None or right is None else _UNKNOWN
        if isinstance(op, ast.IsNot):
            return left is not right if left is None or right is None else _UNKNOWN
        if isinstance(op, ast.In) and isinstance(right, tuple):
            return left in right
        if isinstance(op, ast.NotIn) and isinstance(right, tuple):
            return left not in right
    except TypeError:
        return _UNKNOWN
    return _UNKNOWN
