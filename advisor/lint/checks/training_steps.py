"""Is a forward pass part of a training step? GA107's question, asked of the loops around the forward and of the
functions they call: a loop (or what it calls) that runs backward or steps an optimizer trains."""

from __future__ import annotations

import ast
import builtins
import re
from typing import Optional

from advisor.lint.checks.forwards import trains
from advisor.lint.flow import CUDA_WORKER
from advisor.lint.flow.steps import builds_a_schedule
from advisor.lint.index import FUNCTION_TYPES, LOOP_TYPES, children, target_names
from advisor.lint.names import last_identifier

MAX_CALLER_DEPTH = 4
_TRAINING_CALLS = frozenset({"backward", "manual_backward", "clip_grad_norm_", "clip_grad_value_"})
_OPTIMIZER = re.compile(r"opt|scaler", re.IGNORECASE)
_OPTIMIZER_ARGUMENT = re.compile(r"^(opt|optim|optimizer|optimiser)(_\w+)?$", re.IGNORECASE)
_BUILTINS = frozenset(dir(builtins))


def _trains(ctx, calls: list[ast.Call], scope: ast.AST, loop: Optional[ast.AST], depth: int,
            visiting: Optional[set] = None) -> bool:
    """Do these calls compute gradients or step an optimizer? Calls into the user's functions are followed
    inside ``loop`` only (a training function that also runs a prediction loop is not training there)."""
    visiting = visiting if visiting is not None else set()
    if scope in visiting or depth > MAX_CALLER_DEPTH:
        return False
    visiting.add(scope)
    for call in calls:
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in _TRAINING_CALLS or ctx.qual(func) in ("torch.autograd.grad", "torch.autograd.backward"):
            return True
        if _unresolved_update(ctx, call):
            return True  # agent.learn_actor(states, predicted_actions) of an agent the file cannot resolve: an update
        if name == "step" and isinstance(func, ast.Attribute) and (
                ctx.kind(func.value) & CUDA_WORKER or _OPTIMIZER.search(last_identifier(func.value))):
            return True
        if not ctx.callees(call) and not (ctx.qual(func) or "").startswith("torch.optim.") \
                and not builds_a_schedule(name) and not _builtin_call(func) and any(
                isinstance(a, ast.Name) and (ctx.kind(a) & CUDA_WORKER or _OPTIMIZER_ARGUMENT.match(a.id)
                                             and not _holds_options(ctx, a.id))
                for a in call.args):  # (CosineAnnealingLR(optimizer, ...) builds a scheduler: no step)
            return True  # update(policy, returns, log_probs, optimizer): a function handed the optimizer steps it
        if depth == 0 and (loop is None or not _inside(ctx, call, loop)):
            continue
        for target in ctx.callees(call):
            if _trains(ctx, ctx.calls_in(target.node), target.node, None, depth + 1, visiting):
                return True
    return False


def _builtin_call(func: ast.AST) -> bool:
    """``print(opt)``, ``vars(opt)``: Python's own functions step no optimizer."""
    return isinstance(func, ast.Name) and func.id in _BUILTINS


def _holds_options(ctx, name: str) -> bool:
    """``opt = parser.parse_args()``: a script's command-line options named ``opt``, not an optimizer."""
    values = ctx.index.assigned_values.get(name, ())
    return bool(values) and all(isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
                                and v.func.attr in ("parse_args", "parse_known_args") for v in values)


def trains_around(ctx, call: ast.Call, scope: ast.AST, loops: list[ast.AST], cache: dict) -> bool:
    """Is a forward in ``loops`` (innermost first) part of a training step? Going out from it, each loop and
    then the function itself are asked whether they compute gradients or step an optimizer, not counting a loop
    nested in them that neither holds the forward nor follows it: the training pass that runs before a
    validation pass in the same epoch is no part of it (a later loop may still run backward on its outputs)."""
    for inner, outer in zip([call] + loops, loops + [scope], strict=True):
        key = (outer, inner if inner is not call else call.lineno)  # forwards on one line share the answer
        known = cache.get(key)
        if known is None:
            calls = _calls_along(outer, inner)
            # in a loop, calls into the user's functions are followed; in the function's own body only what
            # is written there counts (a script's top-level `train()` call trains elsewhere)
            known = cache[key] = _trains(ctx, calls, scope, outer if outer is not scope else None, 0)
        if known:
            return True
    return False


def sample_after_training(ctx, call: ast.Call, loop: ast.AST) -> bool:
    """``for ep in ...: for batch in loader: ... backward ...`` then ``images = generator(test_z)``: one forward per
    epoch, written in the epoch loop itself after its training pass (a preview, a sample): one graph per epoch
    next to an epoch of training. A validation pass has a loop of its own around its forwards, and is reported."""
    for node in ast.walk(loop):
        if node is not loop and isinstance(node, LOOP_TYPES) and (node.end_lineno or node.lineno) < call.lineno \
                and _trains(ctx, [c for c in ast.walk(node) if c.__class__ is ast.Call], ctx.index.scope_of(call),
                            node, 0):
            return True
    return False


def _calls_along(root: ast.AST, inner: ast.AST) -> list[ast.Call]:
    """The calls in ``root``'s body outside nested defs, outside ``inner`` (the loop on the forward's path just
    inside ``root``, or the forward itself) and outside loops that end before ``inner`` starts."""
    start, end = inner.lineno, inner.end_lineno or inner.lineno
    results = _written_in(inner) if isinstance(inner, LOOP_TYPES) else None
    if results is not None and not results - target_names(getattr(inner, "target", None)):
        results = None  # a loop that keeps nothing (``for _ in range(10): model(x)``, a warm-up): later loops count
    found: list[ast.Call] = []
    stack: list[ast.AST] = list(root.body) + list(getattr(root, "orelse", []))
    while stack:
        node = stack.pop()
        if node is inner or isinstance(node, (*FUNCTION_TYPES, ast.ClassDef, ast.Lambda)):
            continue  # (the loop on the path was asked already, with its own loops set aside)
        if isinstance(node, LOOP_TYPES) and ((node.end_lineno or node.lineno) < start or results is not None
                                             and node.lineno > end and not _reads_first(node, results)):
            continue  # a loop before, or a later one that makes its own inputs (a training pass after a test pass)
        if isinstance(inner, LOOP_TYPES) and isinstance(root, LOOP_TYPES) and isinstance(node, ast.stmt) \
                and (node.end_lineno or node.lineno) < start:
            continue  # `model = train_net(...)` before a fold's prediction loop: a training pass, as a loop before is
        if node.__class__ is ast.Call:
            found.append(node)
        stack.extend(children(node))
    return found


def _written_in(loop: ast.AST) -> set[str]:
    """Names a loop binds or collects into (``out = ...``, ``error += ...``, ``outs.append(...)``, ``res[i] = ...``)."""
    found: set[str] = set()
    for node in ast.walk(loop):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            found.add(node.id)
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load) \
                and isinstance(node.value, ast.Name):
            found.add(node.value.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("append", "extend", "insert") and isinstance(node.func.value, ast.Name):
            found.add(node.func.value.id)
    return found


def _reads_first(loop: ast.AST, names: set[str]) -> bool:
    """Does ``loop`` read one of ``names`` before binding it (the outputs an earlier loop left, to train on)? In each
    assignment the value is read before the targets are bound."""
    bound: set[str] = set()
    for statement in _statements(loop):
        if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            parts = [statement.value] if statement.value is not None else []
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if isinstance(statement, ast.AugAssign):
                parts.append(statement.target)  # error += x reads error
        else:
            parts, targets = [statement.iter if isinstance(statement, LOOP_TYPES) and hasattr(statement, "iter")
                              else getattr(statement, "test", statement)], [getattr(statement, "target", None)]
        for part in parts:
            if any(isinstance(n, ast.Name) and n.id in names - bound for n in ast.walk(part)):
                return True
        bound.update(n.id for t in targets if t is not None for n in ast.walk(t) if isinstance(n, ast.Name))
    return False


def _statements(loop: ast.AST) -> list[ast.AST]:
    """The statements of a loop's body in source order, nested blocks flattened (a block's header first)."""
    found: list[ast.AST] = []
    for statement in loop.body:  # type: ignore[attr-defined]
        found.append(statement)
        if isinstance(statement, (*LOOP_TYPES, ast.If, ast.With, ast.Try)):
            found.extend(_statements(statement))
    return found


def _inside(ctx, node: ast.AST, loop: ast.AST) -> bool:
    return any(parent is loop for parent in ctx.index.ancestors(node))


def results_stepped_back(ctx, call: ast.Call) -> bool:
    """``log_pw, log_qw, ll = forward_pass_samples(X, y); loss = criterion(log_pw, log_qw, ll); loss.backward()``:
    every call of the forward's function hands what it returns to a loss its caller steps back."""
    info = ctx.function_of(call)
    sites = ctx.call_sites(info) if info is not None else []
    return bool(sites) and all(backward_of(ctx, site) for site in sites)


def backward_of(ctx, site: ast.Call) -> bool:
    statement = ctx.index.statement_of(site)
    names = target_names(statement.targets[0]) if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
        else set()
    scope = ctx.index.scope_of(site)
    for later in ctx.calls_in(scope):  # a loss made from the results (one step), then stepped back
        if later.lineno > site.lineno and "backward" in last_identifier(later.func) \
                and isinstance(later.func, ast.Attribute):
            used = {n.id for n in ast.walk(later.func.value) if isinstance(n, ast.Name)}
            work = list(used)  # (loss <- log_probs_t * returns_t <- torch.stack(log_probs): followed back)
            while work and len(used) < 64:
                for value in ctx.index.assigned_values.get(work.pop(), ()):
                    if site.lineno < value.lineno <= later.lineno and ctx.index.scope_of(value) is scope:
                        found = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} - used
                        used |= found
                        work.extend(found)
            if names & used:
                return True
    return False


def backward_after(ctx, call: ast.Call, scope: ast.AST) -> bool:
    """Gradients are wanted: .backward() / torch.autograd.grad later in the same function -- in the forward's own
    loop when it has one (a training loop further down, a notebook's next cell, wants its own forward's)."""
    loops = ctx.index.enclosing_loops(call)
    candidates = ctx.index.calls_by_name.get("backward", []) + ctx.index.calls_by_name.get("grad", [])
    if loops:
        candidates = [c for c in candidates if loops[0] in ctx.index.enclosing_loops(c)]
    for other in candidates:
        if (other.end_lineno, other.end_col_offset) <= (call.end_lineno, call.end_col_offset):  # (x).backward() ends later
            continue
        func = other.func
        wants = (isinstance(func, ast.Attribute) and func.attr == "backward") or \
            ctx.qual(func) in ("torch.autograd.grad", "torch.autograd.backward")
        if wants and ctx.index.scope_of(other) is scope:
            return True
    return any(ctx.index.scope_of(other) is scope and _an_update_after(ctx, other, call, loops)
               for other in _update_calls(ctx.index))


def _update_calls(index) -> tuple[ast.Call, ...]:
    """The file's calls named like a training update (``agent.learn_critic(...)``), found once per file."""
    return index.memo("update_calls", lambda: tuple(
        c for name, calls in index.calls_by_name.items() if trains(name) for c in calls))


def _an_update_after(ctx, other: ast.Call, call: ast.Call, loops: list) -> bool:
    """``agent.learn_critic(states, ..., next_actions)`` later in the step: the update runs backward on what it is
    handed (MADDPG's learn(): the target actors' actions feed the critic's)."""
    return _unresolved_update(ctx, other) and other.lineno > call.lineno \
        and (not loops or any(loop in ctx.index.enclosing_loops(other) for loop in loops))


def _unresolved_update(ctx, call: ast.Call) -> bool:
    """``agent.learn_critic(...)``: a method named like a training update (forwards.trains), handed data, of an object
    the file cannot resolve -- it runs backward() and step() itself."""
    return isinstance(call.func, ast.Attribute) and trains(call.func.attr) and bool(call.args) \
        and not ctx.callees(call)
