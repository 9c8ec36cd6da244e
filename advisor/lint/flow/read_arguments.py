"""Whether a helper's host read happens at one particular call: the pass merges what every call site hands a helper,
so a read of the helper's own parameter (``def free_tensor(x): return x.detach().cpu()``) or of its ``*args`` counts
at a call only when that call hands it a CUDA tensor. ``loops`` is the loop analysis (kinds, the index, assigned
names)."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.flow.events import HOST_READ, Event
from advisor.lint.flow.kinds import CUDA_TENSOR
from advisor.lint.flow.scopes import FunctionInfo, passed_at
from advisor.lint.index import parameter_defaults, target_names


def read_needs_other_arguments(loops, call: Event, read: Event) -> bool:
    """The pass merges what all call sites pass. For a ``*args`` helper (``metric.add(*values)``) that
    merge is too coarse: count its host read at this call only if this call passes a CUDA tensor. So for a
    helper that reads its own parameter (``def free_tensor(x): return x.detach().cpu()``): ``free_tensor(y)``
    of a CPU batch reads nothing, whatever other calls hand it."""
    info = call.callee
    parameter = _read_parameter(loops, info, read.node)
    if parameter is not None and isinstance(call.node, ast.Call):
        passed = passed_at(call.node, info, parameter)
        return passed is not None and not loops.kind(passed) & CUDA_TENSOR
    variadic = _variadic_derived(info)
    if not variadic or not any(isinstance(n, ast.Name) and n.id in variadic for n in ast.walk(read.node)):
        return False
    arguments = list(call.node.args) + [k.value for k in call.node.keywords] \
        if isinstance(call.node, ast.Call) else []
    return not any(loops.kind(a.value if isinstance(a, ast.Starred) else a) & CUDA_TENSOR
                   for a in arguments)


def _read_parameter(loops, info: FunctionInfo, read: ast.AST) -> Optional[str]:
    """The parameter a read in ``info``'s own body reads directly (``x.detach().cpu()``, ``float(x)``), if any."""
    if loops.index.scope_of(read) is not info.node or not isinstance(read, ast.Call):
        return None
    operand = read.args[0] if isinstance(read.func, ast.Name) and read.args else read.func
    while isinstance(operand, (ast.Attribute, ast.Call)):
        if isinstance(operand, ast.Call) and isinstance(operand.func, ast.Name):
            return None  # loss_fn(pred, y).item(): what the parameter computes, not the parameter itself
        operand = operand.func if isinstance(operand, ast.Call) else operand.value
    named = isinstance(operand, ast.Name) and operand.id in info.positional + info.keyword_only
    return operand.id if named and operand.id not in loops.assigned(info.node) else None


def _variadic_derived(info: FunctionInfo) -> set[str]:
    """Names in ``info`` whose value comes from its ``*args`` / ``**kwargs`` (assigned, looped, comprehended)."""
    derived = {name for name in (info.vararg, info.kwarg) if name}
    if not derived:
        return derived
    bindings = []
    for node in ast.walk(info.node):
        if isinstance(node, ast.Assign):
            bindings.extend((target, node.value) for target in node.targets)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            bindings.append((node.target, node.iter))
    for _ in range(3):
        for target, source in bindings:
            if any(isinstance(n, ast.Name) and n.id in derived for n in ast.walk(source)):
                derived.update(target_names(target))
    return derived


def read_for_these_arguments(loops, call: Event, events: list[Event]) -> Optional[Event]:
    """``self._model_forward(..., flag="valid")`` whose ``if flag in ["valid", "test"]: out = out.cpu()`` runs for
    the constant this call passes: a read this call makes on every run, though not every call does. ``events``:
    the callee's body events that run on every call but for such branches."""
    if not isinstance(call.node, ast.Call):
        return None
    for event in events:
        if event.bits & HOST_READ and not isinstance(event.node, ast.BoolOp) \
                and _branches_taken(loops, event.node, call.callee, call.node):
            return event
    return None


def _branches_taken(loops, node: ast.AST, info: FunctionInfo, site: ast.Call) -> bool:
    """Is every branch between ``node`` and the function's body one whose test this call's constants decide to run
    (and at least one such branch: an unconditional read is counted elsewhere)?"""
    child, decided = node, False
    for parent in loops.index.ancestors(node):
        if parent is info.node:
            return decided
        if isinstance(parent, (ast.ExceptHandler, ast.While, ast.For, ast.AsyncFor)):
            return False
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test:
            in_else = child is parent.orelse or isinstance(parent, ast.If) and child in parent.orelse
            holds = _holds(parent.test, info, site)
            if holds is None or holds == in_else:
                return False
            decided = True
        child = parent
    return False


def _holds(test: ast.AST, info: FunctionInfo, site: ast.Call) -> Optional[bool]:
    """``flag in ["valid", "test"]`` / ``mode == "eval"`` of a parameter the call passes a constant for (or leaves to
    a constant default): its truth at this call, else None."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)):
        return None
    name, op, right = test.left.id, test.ops[0], test.comparators[0]
    if name not in info.positional + info.keyword_only:
        return None
    passed = passed_at(site, info, name)
    if passed is None:
        passed = parameter_defaults(info.node.args).get(name)
    if not isinstance(passed, ast.Constant):
        return None
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.List, ast.Tuple, ast.Set)) \
            and all(isinstance(e, ast.Constant) for e in right.elts):
        found = passed.value in [e.value for e in right.elts]  # type: ignore[attr-defined]
        return found if isinstance(op, ast.In) else not found
    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(right, ast.Constant):
        equal = passed.value == right.value
        return equal if isinstance(op, ast.Eq) else not equal
    return None
