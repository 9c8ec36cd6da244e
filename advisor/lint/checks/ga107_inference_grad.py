"""GA107: a model in eval mode called on the GPU with autograd still recording.

Must match:   model.eval(); for x in loader: preds.append(model(x.to(device)))
              class Server: __init__: self.model = Net().to("cuda").eval(); predict: return self.model(x)
Must not:     the same under `with torch.no_grad():` / `with torch.inference_mode():`, or in a function
              decorated with @torch.no_grad(), or one only ever called under no_grad; a function that calls
              .backward() after the model (adversarial examples, input gradients); model in train mode.
"""

from __future__ import annotations

import ast
import bisect
import re
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.common import short, where
from advisor.lint.flow import CPU_TENSOR, CUDA_MODEL, CUDA_TENSOR, CUDA_WORKER, EVAL, MODEL, FunctionInfo
from advisor.lint.index import FUNCTION_TYPES, children
from advisor.lint.model import CheckDoc, CheckInfo, Hit
from advisor.lint.names import last_identifier

DOC = CheckDoc(
    what=('Finds a model run on the GPU for inference with autograd still on: after model.eval(), or in a '
          'prediction / feature-extraction loop that keeps the outputs and never calls backward -- with no '
          'torch.no_grad() or torch.inference_mode() around it.'),
    why=('model.eval() does not turn autograd off. Every op still records the graph and keeps its '
         'activations alive until the output is freed: more GPU memory (smaller batches fit) and extra CPU '
         'time per op.'),
    bad="""\
import torch

model = torch.nn.Linear(128, 10).cuda()
batches = [torch.randn(64, 128) for _ in range(10)]
predictions = []
for x in batches:
    predictions.append(model(x.cuda()).argmax(1))
""",
    good="""\
import torch

model = torch.nn.Linear(128, 10).cuda()
batches = [torch.randn(64, 128) for _ in range(10)]
predictions = []
with torch.inference_mode():
    for x in batches:
        predictions.append(model(x.cuda()).argmax(1))
""",
)

INFO = CheckInfo(
    id="GA107", name="inference-without-no-grad", title="Inference with autograd still on",
    severity="medium", confidence="heuristic",
    cost="model.eval() does not turn autograd off: every op still records the graph and keeps its activations "
         "alive until the output is freed -- more GPU memory (smaller batches fit) and extra CPU time per op.",
    fix="Run inference under `with torch.inference_mode():` (or torch.no_grad()), or decorate the function with "
        "@torch.inference_mode().",
    references=("https://pytorch.org/docs/stable/generated/torch.inference_mode.html",),
    doc=DOC,
)
_MAX_CALLER_DEPTH = 4
_KEEPING_METHODS = frozenset({"append", "extend", "insert", "add", "put", "update"})
_DETACHING_METHODS = frozenset({"detach", "cpu", "numpy", "tolist", "item", "detach_"})
_READING_BUILTINS = frozenset({"float", "int", "print", "bool", "str"})
_TRAINING_CALLS = frozenset({"backward", "manual_backward", "zero_grad", "clip_grad_norm_", "clip_grad_value_"})
_OPTIMIZER = re.compile(r"opt|sched|scaler", re.IGNORECASE)


def run(ctx) -> Iterator[Hit]:
    reported: set[ast.AST] = set()
    global_off = _grad_switched_off_lines(ctx)
    frozen: Optional[bool] = None
    name_ids: dict[ast.AST, frozenset] = {}
    training: dict[ast.AST, bool] = {}  # per outermost loop
    for call in ctx.index.calls:
        callee = ctx.kind(call.func)
        if not callee & (MODEL | CUDA_MODEL) or callee & (CUDA_TENSOR | CPU_TENSOR):
            continue
        arguments = 0
        for argument in call.args:
            arguments |= ctx.kind(argument)
        if not (callee & CUDA_MODEL or arguments & CUDA_TENSOR):
            continue
        scope = ctx.index.scope_of(call)
        if scope in reported or any(line < call.lineno for line in global_off):
            continue
        if callee & EVAL:
            if _grad_off(ctx, call, 0) or _backward_after(ctx, call, scope):
                continue
            reported.add(scope)
            yield Hit(f"{short(call)} runs a model in eval mode with autograd on (no torch.no_grad() or "
                      "torch.inference_mode() around it)", node=call)
            continue
        loops = ctx.index.enclosing_loops(call)
        if not loops:
            continue
        if frozen is None:
            frozen = _freezes_parameters(ctx)
        if frozen or _trains_here(ctx, scope, training):
            continue  # the cheap questions first: most model calls in loops are training steps
        if not _output_kept(ctx, call, loops[0], name_ids) or _grad_off(ctx, call, 0):
            continue
        trains = training.get(loops[-1])
        if trains is None:
            trains = training[loops[-1]] = _trains(ctx, ctx.calls_in(scope), scope, loops[-1], 0)
        if trains:
            continue
        reported.add(scope)
        yield Hit(f"{short(call)} runs the model on every iteration of the loop at {where(ctx, loops[0])} and "
                  "keeps its outputs, with autograd on and no backward pass (no torch.no_grad() or "
                  "torch.inference_mode() around it)", node=call)


def _name_ids(node: ast.AST, cache: dict) -> frozenset:
    """The names an expression reads (cached: the same statements are asked about for every model call)."""
    found = cache.get(node)
    if found is None:
        ids, stack = set(), [node]
        while stack:
            inner = stack.pop()
            if inner.__class__ is ast.Name:
                ids.add(inner.id)
            else:
                stack.extend(children(inner))
        found = cache[node] = frozenset(ids)
    return found


def _nodes_after(ctx, statement: ast.stmt, loop: ast.AST, cache: dict) -> list[ast.AST]:
    """The calls and assignments of the statement's function that come after it, up to the end of the loop."""
    scope = ctx.scope_of(statement)
    ordered = cache.get(scope)
    if ordered is None:
        nodes = sorted(ctx.assigns_in(scope) + ctx.calls_in(scope), key=lambda n: (n.lineno, n.col_offset))
        ordered = cache[scope] = ([(n.lineno, n.col_offset) for n in nodes], nodes)
    positions, nodes = ordered
    first = bisect.bisect_right(positions, (statement.lineno, statement.col_offset))
    last = bisect.bisect_right(positions, (loop.end_lineno or loop.lineno, 1 << 30))
    return nodes[first:last]


def _output_kept(ctx, call: ast.Call, loop: ast.AST, name_ids: dict) -> bool:
    """Prediction, evaluation or feature extraction: the output (or what is computed from it) is collected,
    detached, copied to the host, accumulated or yielded -- kept beyond the iteration."""
    statement = ctx.index.statement_of(call)
    node: ast.AST = call
    for parent in ctx.index.ancestors(call):
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute):
            if parent.func.attr in _KEEPING_METHODS and node is not parent.func.value:
                return True  # preds.append(model(x))
            if parent.func.attr in _DETACHING_METHODS and node is parent.func.value:
                return True  # model(x).detach() / .cpu() / .numpy()
        if isinstance(parent, (ast.Yield, ast.AugAssign)) or parent is statement or parent is loop:
            break
        node = parent
    if isinstance(statement, ast.AugAssign) or isinstance(node, ast.Yield):
        return True  # total += model(x).sum(); yield model(x)
    if not isinstance(statement, ast.Assign):
        return False
    names = {n.id for t in statement.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    later = _nodes_after(ctx, statement, loop, name_ids)

    def mentions(expr: Optional[ast.AST]) -> bool:
        return expr is not None and not names.isdisjoint(_name_ids(expr, name_ids))

    for _ in range(2):  # pred = out.argmax(1); hits = pred == y
        for inner in later:
            if isinstance(inner, ast.Assign) and mentions(inner.value):
                if any(isinstance(t, ast.Subscript) for t in inner.targets):
                    return True  # preds[i] = out
                names.update(n.id for t in inner.targets for n in ast.walk(t) if isinstance(n, ast.Name))
    for inner in later:
        if isinstance(inner, ast.AugAssign) and mentions(inner.value):
            return True  # correct += (pred == y).sum()
        if isinstance(inner, ast.Call):
            func = inner.func
            if isinstance(func, ast.Attribute) and func.attr in _DETACHING_METHODS and mentions(func.value):
                return True  # criterion(out, y).item()
            if isinstance(func, ast.Attribute) and func.attr in _KEEPING_METHODS and any(map(mentions, inner.args)):
                return True
            if isinstance(func, ast.Name) and func.id in _READING_BUILTINS and any(map(mentions, inner.args)):
                return True
    return False


def _trains(ctx, calls: list[ast.Call], scope: ast.AST, loop: Optional[ast.AST], depth: int,
            visiting: Optional[set] = None) -> bool:
    """Do these calls compute gradients or step an optimizer? Calls into the user's functions are followed
    inside ``loop`` only (a training function that also runs a prediction loop is not training there)."""
    visiting = visiting if visiting is not None else set()
    if scope in visiting or depth > _MAX_CALLER_DEPTH:
        return False
    visiting.add(scope)
    for call in calls:
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in _TRAINING_CALLS or ctx.qual(func) in ("torch.autograd.grad", "torch.autograd.backward"):
            return True
        if name == "step" and isinstance(func, ast.Attribute) and (
                ctx.kind(func.value) & CUDA_WORKER or _OPTIMIZER.search(last_identifier(func.value))):
            return True
        if depth == 0 and (loop is None or not _inside(ctx, call, loop)):
            continue
        for target in ctx.callees(call):
            if _trains(ctx, ctx.calls_in(target.node), target.node, None, depth + 1, visiting):
                return True
    return False


def _trains_here(ctx, scope: ast.AST, cache: dict) -> bool:
    """The cheap half of _trains: a backward or optimizer step written in this very function."""
    known = cache.get(scope)
    if known is None:
        calls = [call for name in _TRAINING_CALLS | {"step", "grad"} for call in ctx.index.calls_by_name.get(name, ())
                 if ctx.scope_of(call) is scope]
        known = cache[scope] = _trains(ctx, calls, scope, None, 0)
    return known


def _inside(ctx, node: ast.AST, loop: ast.AST) -> bool:
    return any(parent is loop for parent in ctx.index.ancestors(node))


def _freezes_parameters(ctx) -> bool:
    """``model.requires_grad_(False)`` or ``p.requires_grad = False``: a frozen model records no graph."""
    for call in ctx.index.calls_by_name.get("requires_grad_", ()):
        if call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value is False:
            return True
    for node in ctx.index.assigns:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is False \
                and any(isinstance(t, ast.Attribute) and t.attr == "requires_grad" for t in node.targets):
            return True
    return False


def _grad_off(ctx, node: ast.AST, depth: int) -> bool:
    """Is ``node`` run with gradients off: a with-block, a decorator, or every caller of its function?"""
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, (ast.With, ast.AsyncWith)) and any(_is_grad_off(ctx, i.context_expr)
                                                                 for i in parent.items):
            return True
        if isinstance(parent, FUNCTION_TYPES):
            if any(_is_grad_off(ctx, d) for d in parent.decorator_list):
                return True
            info = ctx.function_at(parent)
            return info is not None and depth < _MAX_CALLER_DEPTH and _callers_grad_off(ctx, info, depth)
    return False


def _callers_grad_off(ctx, info: FunctionInfo, depth: int) -> bool:
    sites = [call for call in ctx.index.calls_by_name.get(info.name, ()) if _calls(ctx, call, info)]
    return bool(sites) and all(_grad_off(ctx, site, depth + 1) for site in sites)


def _calls(ctx, call: ast.Call, info: FunctionInfo) -> bool:
    func = call.func
    if isinstance(func, ast.Name) and func.id == info.name:
        return ctx.resolve(func.id, ctx.index.scope_of(call)) is info
    return isinstance(func, ast.Attribute) and func.attr == info.name and info.class_info is not None


def _is_grad_off(ctx, node: ast.AST) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = ctx.qual(target)
    if name in api.GRAD_OFF_CONTEXTS:
        return True
    return name in api.GRAD_SWITCHES and isinstance(node, ast.Call) and bool(node.args) \
        and isinstance(node.args[0], ast.Constant) and node.args[0].value is False


def _grad_switched_off_lines(ctx) -> list[int]:
    """`torch.set_grad_enabled(False)` as a statement switches autograd off for what follows."""
    return [call.lineno for call in ctx.index.calls
            if isinstance(ctx.index.parents.get(call), ast.Expr) and _is_grad_off(ctx, call)
            and ctx.qual(call.func) in api.GRAD_SWITCHES]


def _backward_after(ctx, call: ast.Call, scope: ast.AST) -> bool:
    """Gradients are wanted: .backward() / torch.autograd.grad later in the same function."""
    candidates = ctx.index.calls_by_name.get("backward", []) + ctx.index.calls_by_name.get("grad", [])
    for other in candidates:
        if other.lineno <= call.lineno:
            continue
        func = other.func
        wants = (isinstance(func, ast.Attribute) and func.attr == "backward") or \
            ctx.qual(func) in ("torch.autograd.grad", "torch.autograd.backward")
        if wants and ctx.index.scope_of(other) is scope:
            return True
    return False
