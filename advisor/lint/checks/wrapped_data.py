"""The host data a copy to the GPU carries when it is written inline: ``torch.from_numpy(x_train).float().cuda()`` copies
``x_train``; ``torch.tensor([0.5, 2.0]).cuda()`` and ``torch.from_numpy(np.array([0.9] * n)).cuda()`` copy values the
program writes out. GA105 names the copy by it and asks whether it changes between iterations."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.invariant import is_literal
from advisor.lint.names import dotted

# Tensor methods that give a converted view or copy of the same data: what is copied to the GPU is still it.
CONVERSIONS = frozenset({"float", "double", "half", "long", "int", "bool", "byte", "type", "view", "reshape",
                         "unsqueeze", "squeeze", "permute", "transpose", "t", "contiguous", "clone", "detach",
                         "flatten", "eval", "train"})  # (model.eval().cuda(): the same model, switched, then moved)


_COPIES = frozenset({"copy.deepcopy", "copy.copy"})  # a new object each time: copy.deepcopy(net_glob).to(device)


def wrapped_data(ctx, node: ast.AST) -> Optional[str]:
    """``torch.from_numpy(x_train)``: the host data a wrapping factory turns into a CPU tensor (``x_train``),
    also through conversions on the way (``torch.from_numpy(x_train).float()``, ``x_t.view(-1, 1).float()``)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CONVERSIONS \
            and ctx.qual(node.func) is None:  # (a method of the data; torch.squeeze(y, 1) is a function of y)
        inner = node.func.value
        return dotted(inner) or wrapped_data(ctx, inner)
    if not isinstance(node, ast.Call) or len(node.args) != 1:
        return None
    qualified = ctx.qual(node.func) or ""
    if qualified in api.PASSTHROUGH_CALLS and qualified not in _COPIES:  # Variable(x_train).cuda()
        return dotted(node.args[0]) or wrapped_data(ctx, node.args[0])
    name = qualified.rsplit(".", 1)[-1]
    if name in api.WRAPPING_FACTORIES or name == "tensor" or name in api.LEGACY_CONSTRUCTORS:
        data = node.args[0]
        while isinstance(data, ast.Call) and isinstance(data.func, ast.Attribute) and data.func.attr in CONVERSIONS:
            data = data.func.value  # torch.from_numpy(y_train.reshape(-1, 1)): still y_train's values
        if isinstance(data, ast.Call) and ctx.qual(data.func) in _ARRAY_OF and len(data.args) == 1:
            data = data.args[0]  # torch.from_numpy(np.array([0.9] * batch_size)): the list's values
        literal = is_literal(data) or _repeated_literal(data) or _counted_literal(data) \
            or _named_numbers(ctx, data)  # torch.tensor([0.5, 2.0]), [0.9] * batch_size,
        # [[i for i in range(C.MAX_STEP - 1)]], [t1, t0] of t0 = 0; t1 = 10
        return dotted(data) or (ast.unparse(data) if literal else None)
    return None


_ARRAY_OF = frozenset({"numpy.array", "numpy.asarray"})


def _named_numbers(ctx, node: ast.AST) -> bool:
    """``[t1, t0]`` where every name is bound only to a number written out (``t0 = 0``, ``t1 = 10``): a literal list
    spelled with names -- the same values on every call."""
    if not isinstance(node, (ast.List, ast.Tuple)) or not node.elts:
        return False
    for element in node.elts:
        if is_literal(element):
            continue
        values = ctx.index.assigned_values.get(element.id, []) if isinstance(element, ast.Name) else []
        if not values or not all(is_literal(v) and not isinstance(v, (ast.List, ast.Tuple)) for v in values):
            return False
    return True


def _counted_literal(node: ast.AST) -> bool:
    """``[[i for i in range(C.MAX_STEP - 1)]]``: the numbers up to a constant (a capitalised name, a config field, a
    number), written as a comprehension -- the same values on every call, like a list written out."""
    while isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == 1:
        node = node.elts[0]
    if not (isinstance(node, ast.ListComp) and len(node.generators) == 1):
        return False
    walk = node.generators[0]
    return not walk.ifs and isinstance(walk.target, ast.Name) and isinstance(node.elt, ast.Name) \
        and node.elt.id == walk.target.id and isinstance(walk.iter, ast.Call) \
        and isinstance(walk.iter.func, ast.Name) and walk.iter.func.id == "range" \
        and all(_a_constant(argument) for argument in walk.iter.args)


def _a_constant(node: ast.AST) -> bool:
    """A number, ``MAX_STEP``, ``C.MAX_STEP`` / ``config.max_len``, or arithmetic of those."""
    if isinstance(node, ast.BinOp):
        return _a_constant(node.left) and _a_constant(node.right)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int)
    if isinstance(node, ast.Name):
        return node.id.isupper()
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id != "self"


def _repeated_literal(node: ast.AST) -> bool:
    """``[0.9] * batch_size``: one number written out, repeated -- the same values on every call that keeps the size."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and (
        is_literal(node.left) and isinstance(node.left, ast.List) and isinstance(node.right, (ast.Name, ast.Attribute))
        or is_literal(node.right) and isinstance(node.right, ast.List) and isinstance(node.left, (ast.Name, ast.Attribute)))
