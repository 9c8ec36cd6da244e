"""Where autograd is off for a forward: a ``torch.no_grad()`` block or decorator around it, every caller of its
function running under one, ``torch.set_grad_enabled(False)`` as a statement before it, or a model's own method
(``forward``, a helper only ``forward`` calls) whose grad mode is its caller's choice."""

from __future__ import annotations

import ast
import re
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.training_steps import MAX_CALLER_DEPTH
from advisor.lint.flow import FunctionInfo
from advisor.lint.index import FUNCTION_TYPES
from advisor.lint.names import last_identifier

_GRAD_OFF_WRAPPER = re.compile(r"no_?grad|inference_mode", re.IGNORECASE)
_CALLER_DECIDES = re.compile(r"forward|^(validation|test|predict)_step$")  # (forward, _forward_features, pnet_forward)


def grad_mode_of_caller(ctx, call: ast.Call, evaluated: bool = False) -> bool:
    """Inside ``forward`` (or a helper only it calls) of the user's nn.Module: whoever calls the module picks
    autograd's mode (a distillation teacher is called under no_grad by the training step). Lightning runs its
    evaluation hooks under no_grad itself."""
    return _caller_decides(ctx, ctx.function_of(call), 0, evaluated)


def _caller_decides(ctx, info: Optional[FunctionInfo], depth: int, evaluated: bool = False) -> bool:
    """A model's forward, a method of it (``pnet_forward``, ``voxelize``) called only by such methods, or one the
    file never calls."""
    if info is None or not info.of_a_model:
        return False
    if _CALLER_DECIDES.search(info.name):
        return True
    if not ctx.call_sites(info) and not evaluated:
        return True  # a model's method the file never calls (decoder.sample(features)): its caller picks the mode
        # (a service method over a submodule the class put in eval mode, teacher.predict(x), is inference)
    sites = [c for c in ctx.index.calls_by_name.get(info.name, ()) if isinstance(c.func, ast.Attribute)
             and isinstance(c.func.value, ast.Name) and c.func.value.id == "self"]
    return depth < MAX_CALLER_DEPTH and bool(sites) and all(
        _caller_decides(ctx, ctx.function_of(site), depth + 1, evaluated) for site in sites)


def grad_off(ctx, node: ast.AST, depth: int) -> bool:
    """Is ``node`` run with gradients off: a with-block, a decorator, or every caller of its function?"""
    for parent in ctx.index.ancestors(node):
        if isinstance(parent, (ast.With, ast.AsyncWith)) and any(_is_grad_off(ctx, i.context_expr)
                                                                 for i in parent.items):
            return True
        if isinstance(parent, FUNCTION_TYPES):
            if any(_is_grad_off(ctx, d) for d in parent.decorator_list):
                return True
            info = ctx.function_at(parent)
            return info is not None and depth < MAX_CALLER_DEPTH and _callers_grad_off(ctx, info, depth)
    return False


def method_grad_off(ctx, call: ast.Call) -> bool:
    """``model.act(obs)`` where every method of the file named ``act`` is decorated ``@torch.no_grad()``, or turns
    autograd off itself around its work (``forward_classifier(batch, train=False)`` whose evaluation branch runs under
    ``with torch.no_grad():``): the method's author chose the mode inside. (Not ``forward``: a module may freeze a
    backbone under no_grad and still record its head.)"""
    if not isinstance(call.func, ast.Attribute) or call.func.attr == "forward":
        return False
    defined = [f for f in ctx.index.functions if f.name == call.func.attr]
    return bool(defined) and all(any(_is_grad_off(ctx, d) for d in f.decorator_list) or _switches_off_inside(ctx, f)
                                 for f in defined)


def _switches_off_inside(ctx, function: ast.AST) -> bool:
    return any(isinstance(node, (ast.With, ast.AsyncWith)) and any(_is_grad_off(ctx, item.context_expr)
                                                                   for item in node.items)
               and ctx.index.scope_of(node) is function for node in ctx.index.withs)


def _callers_grad_off(ctx, info: FunctionInfo, depth: int) -> bool:
    sites = [call for call in ctx.index.calls_by_name.get(info.name, ()) if _calls(ctx, call, info)]
    return bool(sites) and all(grad_off(ctx, site, depth + 1) for site in sites)


def _calls(ctx, call: ast.Call, info: FunctionInfo) -> bool:
    func = call.func
    if isinstance(func, ast.Name) and func.id == info.name:
        return ctx.resolve(func.id, ctx.index.scope_of(call)) is info
    return isinstance(func, ast.Attribute) and func.attr == info.name and info.class_info is not None


def _is_grad_off(ctx, node: ast.AST) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = ctx.qual(target)
    if name in api.GRAD_OFF_CONTEXTS or _GRAD_OFF_WRAPPER.search(last_identifier(target)):
        return True  # also a project's own wrapper of them (yolov5's @smart_inference_mode(), utils.no_grad())
    return name in api.GRAD_SWITCHES and isinstance(node, ast.Call) and bool(node.args) \
        and isinstance(node.args[0], ast.Constant) and node.args[0].value is False


def grad_switched_off_lines(ctx) -> list[int]:
    """`torch.set_grad_enabled(False)` as a statement switches autograd off for what follows."""
    return [call.lineno for call in ctx.index.calls
            if isinstance(ctx.index.parents.get(call), ast.Expr) and _is_grad_off(ctx, call)
            and ctx.qual(call.func) in api.GRAD_SWITCHES]
