"""Returns and advantages computed one time step at a time on CUDA (GA110's rollout case).

    for t in reversed(range(len(rewards))):
        delta = rewards[t] + gamma * values[t + 1] * (1 - dones[t]) - values[t]
        gae = delta + gamma * lam * (1 - dones[t]) * gae
        advantages[t] = gae

A rollout buffer holds one value per step (or one row of a few environments), so each op of such a loop works on a
handful of elements and the loop runs at the speed of kernel launches, however long the rollout is -- the sizes
need not be spelled out. What marks the case: a value the loop carries from one step to the next (the running
return), built from elements of CUDA tensors picked by the step (``x[t]``, ``x[t + 1]``, or the items of
``zip(reversed(rewards), reversed(dones))`` of CUDA tensors), and nothing in the body but such arithmetic. A list
of CUDA tensors is a buffer only when every item appended is one number made a tensor
(``rewards.append(torch.tensor(r, device=device))``): then even ``R = r + gamma * R``, two ops, is the recurrence of
REINFORCE's returns; of items of unknown size (``torch.tensor([r])``, a model's output) it is not.
"""

from __future__ import annotations

import ast
from collections import deque
from typing import Iterator, Optional

from advisor.lint.flow import CONTAINER, CUDA_TENSOR
from advisor.lint.flow.kinds import MODEL_BITS

_BOOKKEEPING = frozenset({"append", "insert", "range", "len", "reversed", "zip", "float", "int"})
_MIN_OPS = 3  # operators on CUDA values per step: fewer is one stray op, not a recurrence
_MIN_OPS_OF_SCALARS = 2  # ... over a list of one-number tensors: R = r + gamma * R


def step_recurrence(ctx, loop: ast.AST, is_small_op) -> Optional[tuple[str, ast.AST]]:
    """(the carried name, the first element read or the walk over the buffers) when ``loop`` is such a
    recurrence, else None.
    ``is_small_op(call)``: an elementwise op, reduction or tiny product (GA110's own test)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or loop.orelse:
        return None
    elements = _step_elements(ctx, loop)
    if elements is None:
        return None
    counter, items = elements
    if next(_self_updates(loop.body), None) is None:
        return None  # (a cheap look at the statements first: most loops carry nothing)
    body = [node for statement in loop.body for node in ast.walk(statement)]
    for node in body:
        if isinstance(node, ast.Call) and not _bookkeeping(node) and not is_small_op(node):
            return None  # a model, a user's function, an environment step: not only arithmetic
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor, ast.Return, ast.Break)):
            return None
    read = [node for node in body if _is_element(ctx, node, counter, items)]
    if not read:
        return None
    operators = [node for node in body if isinstance(node, (ast.BinOp, ast.AugAssign))
                 and ctx.kind(node if isinstance(node, ast.BinOp) else node.target) & CUDA_TENSOR]
    carried = _carried(ctx, loop)
    scalars = not counter and all(_scalar_list(ctx, _unreversed(w)) for w in _walked(loop))
    if carried is None or len(operators) < (_MIN_OPS_OF_SCALARS if scalars else _MIN_OPS):
        return None
    first = min(read, key=lambda node: (node.lineno, node.col_offset))
    return carried, first if counter else loop.iter  # (rewards[t], or zip(reversed(rewards), ...))


def _step_elements(ctx, loop) -> Optional[tuple[Optional[str], set[str]]]:
    """(the step counter, the names bound to elements of CUDA buffers): ``for t in reversed(range(T))`` gives
    ``("t", {})``; ``for r, d in zip(reversed(rewards), reversed(dones))`` of CUDA tensors gives
    ``(None, {"r", "d"})``."""
    iterable = _unreversed(loop.iter)
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range" \
            and isinstance(loop.target, ast.Name):
        return loop.target.id, set()
    walked = _walked(loop)
    targets = loop.target.elts if isinstance(loop.target, ast.Tuple) and len(walked) > 1 else [loop.target]
    if len(targets) != len(walked) or not all(isinstance(t, ast.Name) for t in targets):
        return None
    items = {t.id for t, w in zip(targets, walked, strict=True) if _is_buffer(ctx, _unreversed(w))
             and not _model_output(ctx, _unreversed(w))}
    return (None, items) if items else None


def _model_output(ctx, node: ast.AST) -> bool:
    """``logits_fake = D.logits(wave)`` (or ``logits, feats = discriminator(x)``) of a multi-scale discriminator: what
    a model hands back may be a list of outputs (one per scale or head), not a buffer of time steps."""
    values = ctx.index.assigned_values.get(node.id, []) if isinstance(node, ast.Name) else [node]
    if isinstance(node, ast.Name):  # logits, feats = discriminator(x): a part of what the model handed back
        values = values + [value for _, value, _ in ctx.index.unpacked_names.get(node.id, ())]
    return bool(values) and all(_model_call(ctx, part) for v in values for part in _summands(v))


def _summands(value: ast.AST) -> list[ast.AST]:
    """``D.logits(a) + D.logits(b)``: the lists a ``+`` joins; any other value alone."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        return _summands(value.left) + _summands(value.right)
    return [value]


def _model_call(ctx, value: ast.AST) -> bool:
    return isinstance(value, ast.Call) and bool(
        ctx.kind(value.func.value if isinstance(value.func, ast.Attribute) else value.func) & MODEL_BITS)


def _unreversed(node: ast.AST) -> ast.AST:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "reversed" and node.args:
        return node.args[0]
    return node


def _is_buffer(ctx, node: ast.AST) -> bool:
    kind = ctx.kind(node)
    return bool(kind & CUDA_TENSOR) and (not kind & CONTAINER or _scalar_list(ctx, node))


def _walked(loop) -> list[ast.AST]:
    """What the loop walks side by side: the arguments of ``zip(...)``, else its one iterable."""
    iterable = _unreversed(loop.iter)
    return iterable.args if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
        and iterable.func.id == "zip" and not iterable.keywords else [iterable]


def _scalar_list(ctx, node: ast.AST) -> bool:
    """``rewards`` that the file fills only with ``rewards.append(torch.tensor(r, dtype=..., device=device))``:
    one number per item, a CUDA tensor of one element each."""
    if not isinstance(node, ast.Name):
        return False
    appended = [call for call in ctx.index.calls_by_name.get("append", ())
                if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                and call.func.value.id == node.id and ctx.index.scope_of(call) is ctx.index.scope_of(node)]
    return bool(appended) and all(len(call.args) == 1 and _one_number(ctx, call.args[0]) for call in appended)


def _one_number(ctx, node: ast.AST) -> bool:
    """``torch.tensor(r, device=device)`` of a plain name or number (not a list, not an array): one element."""
    return isinstance(node, ast.Call) and (ctx.qual(node.func) or "") in ("torch.tensor", "torch.as_tensor") \
        and len(node.args) == 1 and isinstance(node.args[0], (ast.Name, ast.Constant)) \
        and bool(ctx.kind(node) & CUDA_TENSOR)


def _is_element(ctx, node: ast.AST, counter: Optional[str], items: set[str]) -> bool:
    """``rewards[t]`` / ``values[t + 1]`` of a CUDA buffer, or a name bound to one of a buffer's items."""
    if isinstance(node, ast.Name):
        return node.id in items and isinstance(node.ctx, ast.Load)
    if not (counter and isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)):
        return False
    index = node.slice
    names = {n.id for n in ast.walk(index) if isinstance(n, ast.Name)}
    return names == {counter} and not isinstance(index, (ast.Slice, ast.Tuple)) and _is_buffer(ctx, node.value)


def _self_updates(statements: list[ast.stmt]) -> Iterator[tuple[ast.stmt, str]]:
    """(statement, name) for each statement that sets a name from a value reading it, or adds to it (``gae = delta
    + gamma * lam * gae``, ``advantages[t] = last = ... * last``, ``R += ...``), in ``ast.walk``'s order. Only
    statements are visited: no expression holds one, so this is cheap next to a walk of the whole body."""
    for top in statements:
        queue = deque([top])
        while queue:
            statement = queue.popleft()
            if isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name):
                yield statement, statement.target.id
            elif isinstance(statement, ast.Assign):
                targets = {t.id for t in statement.targets if isinstance(t, ast.Name)}
                read = {n.id for n in ast.walk(statement.value) if isinstance(n, ast.Name)}
                if targets & read:
                    yield statement, sorted(targets & read)[0]
            queue.extend(c for c in ast.iter_child_nodes(statement)
                         if isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case)))


def _carried(ctx, loop) -> Optional[str]:
    """The loop's running value on CUDA: the first self-update (above) whose value is a CUDA tensor."""
    return next((name for statement, name in _self_updates(loop.body) if ctx.kind(statement.value) & CUDA_TENSOR),
                None)


def _bookkeeping(call: ast.Call) -> bool:
    """``returns.insert(0, gae + v)``, ``range(...)``, ``len(rewards)``: no kernel of its own."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in _BOOKKEEPING
