"""GA107: a model in eval mode called on the GPU with autograd still recording.

Must match:   model.eval(); for x in loader: preds.append(model(x.to(device)))
              class Server: __init__: self.model = Net().to("cuda").eval(); predict: return self.model(x)
Must not:     the same under `with torch.no_grad():` / `with torch.inference_mode():`, or in a function
              decorated with @torch.no_grad(), or one only ever called under no_grad; a function that calls
              .backward() after the model (adversarial examples, input gradients); model in train mode.
"""

from __future__ import annotations

import ast
from typing import Iterator

from advisor.lint import torch_api as api
from advisor.lint.checks.common import short
from advisor.lint.index import FUNCTION_TYPES
from advisor.lint.kinds import CUDA_MODEL, CUDA_TENSOR, EVAL
from advisor.lint.model import CheckInfo, Hit
from advisor.lint.scopes import FunctionInfo

INFO = CheckInfo(
    id="GA107", name="inference-without-no-grad", title="Inference with autograd still on",
    severity="medium", confidence="heuristic",
    cost="model.eval() does not turn autograd off: every op still records the graph and keeps its activations "
         "alive until the output is freed -- more GPU memory (smaller batches fit) and extra CPU time per op.",
    fix="Run inference under `with torch.inference_mode():` (or torch.no_grad()), or decorate the function with "
        "@torch.inference_mode().",
    references=("https://pytorch.org/docs/stable/generated/torch.inference_mode.html",),
)
_MAX_CALLER_DEPTH = 4


def run(ctx) -> Iterator[Hit]:
    reported: set[ast.AST] = set()
    global_off = _grad_switched_off_lines(ctx)
    for call in ctx.index.calls:
        callee = ctx.kind(call.func)
        if not callee & EVAL:
            continue
        arguments = 0
        for argument in call.args:
            arguments |= ctx.kind(argument)
        if not (callee & CUDA_MODEL or arguments & CUDA_TENSOR):
            continue
        scope = ctx.index.scope_of(call)
        if scope in reported or any(line < call.lineno for line in global_off):
            continue
        if _grad_off(ctx, call, 0) or _backward_after(ctx, call, scope):
            continue
        reported.add(scope)
        yield Hit(f"{short(call)} runs a model in eval mode with autograd on (no torch.no_grad() or "
                  "torch.inference_mode() around it)", node=call)


def _grad_off(ctx, node: ast.AST, depth: int) -> bool:
    """Is ``node`` run with gradients off: a with-block, a decorator, or every caller of its function?"""
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, (ast.With, ast.AsyncWith)) and any(_is_grad_off(ctx, i.context_expr)
                                                                 for i in parent.items):
            return True
        if isinstance(parent, FUNCTION_TYPES):
            if any(_is_grad_off(ctx, d) for d in parent.decorator_list):
                return True
            info = ctx.flow.scopes.functions.get(parent)
            return info is not None and depth < _MAX_CALLER_DEPTH and _callers_grad_off(ctx, info, depth)
    return False


def _callers_grad_off(ctx, info: FunctionInfo, depth: int) -> bool:
    sites = [call for call in ctx.index.calls_by_name.get(info.name, ()) if _calls(ctx, call, info)]
    return bool(sites) and all(_grad_off(ctx, site, depth + 1) for site in sites)


def _calls(ctx, call: ast.Call, info: FunctionInfo) -> bool:
    func = call.func
    if isinstance(func, ast.Name) and func.id == info.name:
        return ctx.flow.scopes.resolve(func.id, ctx.index.scope_of(call)) is info
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
