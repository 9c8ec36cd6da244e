"""Where a tensor copied to the GPU was made: the factory call (torch.zeros, torch.randn, ...) behind casts, views and
wrappers (``Variable(torch.randn(n)).cuda()``), behind a torch function of fills only (``F.one_hot(torch.arange(n))``,
``torch.block_diag(*[torch.ones(k, k) for _ in range(n)])``), or bound to a name earlier in the same scope. Shared by
GA104's checks."""

from __future__ import annotations

import ast
from collections import defaultdict
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow import FRESH
from advisor.lint.flow.kinds import CPU_TENSOR, CUDA_TENSOR, MODEL_BITS, NUMPY
from advisor.lint.flow.literals import own_reduction
from advisor.lint.index import FUNCTION_TYPES
from advisor.lint.names import dotted
from advisor.lint.torch_factories import torch_factory

CASTS = frozenset({"float", "half", "double", "bfloat16", "int", "long", "contiguous",  # (and views: still the fill)
                    "unsqueeze", "squeeze", "view", "reshape", "expand", "repeat", "flatten", "t", "transpose", "permute",
                    "repeat_interleave", "tile", "expand_as", "view_as",
                    "random_", "normal_", "uniform_", "bernoulli_", "exponential_", "zero_", "fill_", "bool",  # in place
                    "requires_grad_"})
_SHAPE_ATTRIBUTES = frozenset({"shape", "size", "dtype", "device", "ndim", "dim", "numel"})
_LIKE_FACTORIES = frozenset({"zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like"})
DTYPES = frozenset({"float", "float32", "float64", "double", "half", "float16", "bfloat16", "int", "int32", "int64",
                     "long", "int8", "uint8", "int16", "short", "bool", "complex64", "cfloat"})


def factory_call(ctx, node: ast.AST) -> Optional[ast.Call]:
    while isinstance(node, ast.UnaryOp):  # (~torch.eye(n, dtype=torch.bool)).to(device): the fill, inverted on the CPU
        node = node.operand
    while isinstance(node, ast.BinOp) and not isinstance(node.op, ast.MatMult):
        # torch.zeros(n, n) + 2.0, (torch.arange(n) + 0.5) * dx: a factory and Python numbers, all computed on the
        # CPU before the copy
        sides = [side for side in (node.left, node.right) if not ctx.is_number(side) and not _scalar_setting(ctx, side)]
        if len(sides) == 2 and own_reduction(node.right, node.left):
            sides = [node.left]  # fool = fool / fool.sum(): the fill scaled by a number it gives itself
        if len(sides) != 1:
            break
        node = sides[0]
    peeled = False
    while isinstance(node, (ast.Call, ast.Subscript)):
        if isinstance(node, ast.Subscript):  # torch.linspace(t0, t1, n)[k:]: a slice of the fill, still a fill;
            # torch.eye(n)[labels]: rows picked from it (a one-hot), made from the fill too
            if not (isinstance(node.slice, (ast.Slice, ast.Name, ast.Attribute)) or _a_view(node.slice)) \
                    or not isinstance(node.value, ast.Call):
                return None
            node, peeled = node.value, True
            continue
        name = ctx.qual(node.func) or ""
        if name in ("torch.tensor", "torch.as_tensor") and node.args and isinstance(node.args[0], ast.Call) \
                and factory_call(ctx, node.args[0]) is not None:
            node = node.args[0]  # torch.tensor(torch.zeros(n)): a copy of the fill, still the fill
            continue
        if torch_factory(name):
            return node
        if isinstance(node.func, ast.Attribute) and (node.func.attr in CASTS or cpu_type_cast(ctx, node)):
            node, peeled = node.func.value, True
            if isinstance(node, (ast.BinOp, ast.UnaryOp)):
                return factory_call(ctx, node)  # (torch.ones(n) * i).long(): the fill times a step number, cast
            continue
        unimported_variable = isinstance(node.func, ast.Name) and node.func.id == "Variable" and not name \
            and "Variable" not in ctx.index.bound_names
        if (name in api.PASSTHROUGH_CALLS or unimported_variable) and node.args:  # Variable(torch.randn(n)).cuda()
            return factory_call(ctx, node.args[0])  # (also nn.Parameter(scale * torch.rand(n)))
        if name.startswith("torch.") and node.args and ctx.kind(node) & FRESH:
            pieces = node.args[0]  # torch.cat((torch.arange(n), torch.zeros(1))): a join of fills, its first one
            if isinstance(pieces, (ast.Tuple, ast.List)):  # (joined with data, it is data)
                if not pieces.elts or any(factory_call(ctx, piece) is None for piece in pieces.elts):
                    return None
                node = pieces.elts[0]
                continue
            node = _first_piece(pieces)  # F.one_hot(torch.arange(n)), torch.block_diag(*[torch.ones(k, k) ...])
            continue
        return _returned_fill(ctx, node)
    if peeled and isinstance(node, ast.Name):  # rots = rot.unsqueeze(0).repeat(1, n, 1, 1) of rot = torch.eye(3)
        scope = ctx.index.scope_of(node)  # read only there: the fill it was made from
        made = factory_assignment(ctx, scope, node.id, node.lineno)
        if made is not None and read_only_at(ctx, scope, node.id, made.lineno, node.lineno):
            return made
    return None


def read_only_at(ctx, scope: ast.AST, name: str, made_line: int, line: int) -> bool:
    """The binding made at ``made_line`` is read at ``line`` and nowhere else before the name is bound again: ``z =
    torch.from_numpy(np.random.normal(...))`` then ``z = z.float().to(device)``, the later reads being of the copy."""
    end = next_store_line(ctx, scope, name, made_line)
    return [at for at in name_loads(scope)[name] if made_line < at <= end] == [line]


def next_store_line(ctx, scope: ast.AST, name: str, after: int) -> int:
    """The line of the name's next binding in ``scope`` after line ``after`` (a very large number when none): any store
    ends a binding -- ``pos, ke = run(...)`` rebinds pos as much as ``pos = ...`` does."""
    return min((n.lineno for n in ctx.index.names_by_id.get(name, ()) if isinstance(n.ctx, ast.Store)
                and n.lineno > after and ctx.index.scope_of(n) is scope), default=10**9)


def _scalar_setting(ctx, side: ast.AST) -> bool:
    """``self._start`` in ``torch.ones((N, 1)) * self._start``: an attribute of the program's own object (or of its
    options: ``self.opt.lang_id``, ``args.scale``) holding no tensor the flow knows of (a token id, a scale): the fill
    times a setting is still made on the CPU."""
    if not isinstance(side, ast.Attribute) or ctx.kind(side) & (CUDA_TENSOR | CPU_TENSOR | NUMPY | MODEL_BITS):
        return False
    holder = side.value  # (also self.opt.lang_id, args.scale: a setting of the run's options)
    return isinstance(holder, ast.Name) and holder.id == "self" or all(
        part == "self" or api.DEVICE_HOLDER.search(part) for part in (dotted(holder) or "?").split("."))


def _returned_fill(ctx, call: ast.Call) -> Optional[ast.Call]:
    """``linear_beta_schedule(n).to(device)`` where the helper is ``return torch.linspace(a, b, n)``: the fill it makes
    and returns is what the caller copies (labelled where it is made)."""
    info = ctx.callee(call)
    returns = [n for n in ast.walk(info.node) if isinstance(n, ast.Return)] if info is not None else []
    if len(returns) != 1 or returns[0].value is None or ctx.index.scope_of(returns[0]) is not info.node \
            or not all(_moved_at_once(ctx, site) for site in ctx.call_sites(info)):
        return None  # (a schedule also used on the CPU, betas = linear_beta_schedule(T), is not made only to be moved)
    made = returns[0].value
    name = (ctx.qual(made.func) or "") if isinstance(made, ast.Call) else ""
    return made if torch_factory(name) else None


def _moved_at_once(ctx, site: ast.Call) -> bool:
    """``helper(n).to(device)`` / ``helper(n).cuda()``: the call's result goes straight to a device."""
    parent = ctx.index.parents.get(site)
    holder = ctx.index.parents.get(parent)
    return isinstance(parent, ast.Attribute) and parent.attr in ("to", "cuda") and isinstance(holder, ast.Call) \
        and holder.func is parent


def _first_piece(argument: ast.AST) -> ast.AST:
    """The tensor expression a torch function's first argument is made of: ``*[torch.ones(k, k) for _ in ...]``
    gives ``torch.ones(k, k)``."""
    if isinstance(argument, ast.Starred):
        argument = argument.value
    return argument.elt if isinstance(argument, (ast.ListComp, ast.GeneratorExp)) else argument


def cpu_type_cast(ctx, call: ast.Call) -> bool:
    """``t.type(torch.FloatTensor)``: a cast that stays on the CPU (pre-0.4 code), like ``t.float()``; also
    ``t.to(torch.int8)`` or ``t.to(bool)``, a dtype alone."""
    if call.func.attr not in ("type", "to") or len(call.args) != 1 or call.keywords:  # type: ignore[union-attr]
        return False
    argument = call.args[0]
    if isinstance(argument, ast.Name) and argument.id in ("bool", "int", "float") \
            and argument.id not in ctx.index.bound_names:
        return True  # t.to(bool): Python's type as the dtype
    if isinstance(argument, ast.Name) and argument.id.lower().endswith("dtype"):
        return True  # t.type(dtype) / .to(self.dtype) of a dtype handed in: a cast, on the device the tensor is on
    if isinstance(argument, ast.Name):  # typ = torch.float; t.type(typ)
        values = ctx.index.assigned_values.get(argument.id, [])
        argument = values[0] if len(values) == 1 else argument
    text = ctx.qual(argument) or ""
    if text.startswith("torch.") and text[6:] in DTYPES:
        return True  # t.type(torch.float): a dtype cast, on the device the tensor is on
    return call.func.attr == "type" and text.startswith("torch.") and text.endswith("Tensor") \
        and not text.startswith("torch.cuda.")  # type: ignore[union-attr]


def _a_view(index: ast.AST) -> bool:
    """``[None]``, ``[None, :, :]``, ``[:, None]``: new axes and whole slices -- a view of the fill, not a pick."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return all(isinstance(p, ast.Slice) or isinstance(p, ast.Constant) and p.value is None for p in parts)


def factory_assignment(ctx, scope: ast.AST, name: str, before_line: int) -> Optional[ast.Call]:
    found = None
    for value in _bound_before(ctx, scope, name, before_line):
        factory = factory_call(ctx, value)
        found = factory if factory is not None else found
    return found


def _bound_before(ctx, scope: ast.AST, name: str, before_line: int) -> list[ast.AST]:
    """The values plain assignments in ``scope`` bind to ``name`` before ``before_line``, in source order."""
    return [value for value in ctx.index.assigned_values.get(name, ())
            if isinstance(node := ctx.index.parents.get(value), ast.Assign) and node.lineno < before_line
            and ctx.index.scope_of(node) is scope]


def name_loads(scope: ast.AST) -> dict[str, list[int]]:
    counts: dict[str, list[int]] = defaultdict(list)  # name -> the lines that read it
    stack = list(scope.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            counts[node.id].append(node.lineno)
        elif not isinstance(node, FUNCTION_TYPES):
            stack.extend(ast.iter_child_nodes(node))
    return counts


def used_between(ctx, scope: ast.AST, name: str, factory: ast.Call, copy: ast.Call) -> bool:
    """Is ``name`` read after the line that makes it and before the line that copies it (filled in, read)?"""
    first, last = factory.end_lineno or factory.lineno, copy.lineno  # (lines between two statements of the scope
    # are the scope's, nested code included: the file's index of the name's uses answers without a walk)
    return any(isinstance(node.ctx, ast.Load) and first < node.lineno < last and not reads_shape_only(ctx, node)
               and not _set_to_a_constant(ctx, node) for node in ctx.index.names_by_id.get(name, ()))


def _set_to_a_constant(ctx, name: ast.Name) -> bool:
    """``labels[:, 1] = 1.``: the name is written, at a constant place, with a constant -- not read."""
    parent = ctx.index.parents.get(name)
    return isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Store) \
        and constant_store(ctx.index.statement_of(parent))


def constant_store(statement: Optional[ast.AST]) -> bool:
    """``x[:, 1] = 1.`` / ``x[0] = -1``: a number written at places the code spells out with numbers only."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Subscript)):
        return False
    value = statement.value.operand if isinstance(statement.value, ast.UnaryOp) else statement.value
    if not (isinstance(value, ast.Constant) and isinstance(value.value, (int, float))):
        return False
    target = statement.targets[0]
    while isinstance(target, ast.Subscript):
        if any(isinstance(n, ast.Name) for n in ast.walk(target.slice)):
            return False
        target = target.value
    return True


def reads_shape_only(ctx, name: ast.Name) -> bool:
    """``torch.ones_like(x, device=d)``, ``x.shape``, ``x.size()``, ``x.dtype``: the values are not read."""
    parent = ctx.index.parents.get(name)
    if isinstance(parent, ast.Attribute) and parent.attr in _SHAPE_ATTRIBUTES:
        return True
    return isinstance(parent, ast.Call) and parent.args[:1] == [name] \
        and (ctx.qual(parent.func) or "").removeprefix("torch.") in _LIKE_FACTORIES


def filled_between(ctx, scope: ast.AST, name: str, factory: ast.Call, copy: ast.Call) -> bool:
    """Is ``name[...] = v`` (or ``+=``) written after the line that makes it and before the line that copies it?
    Not a constant written at constant places (``labels[:, 1] = 1.``): still a constant tensor the GPU can make."""
    first, last = factory.end_lineno or factory.lineno, copy.lineno
    for node in ctx.index.assigns:
        if not first < node.lineno < last or ctx.index.scope_of(node) is not scope or constant_store(node):
            continue
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
            while isinstance(target, ast.Subscript):
                target = target.value
                if isinstance(target, ast.Name) and target.id == name:
                    return True
    return False


def returned_factory(ctx, scope: ast.AST, name: str) -> Optional[ast.Call]:
    """The factory in the file's own helper whose one return hands ``name`` its tensor (``return ids, mask``, ids
    bound to torch.randint(...) there and not filled in before the return)."""
    parts = ctx.returned_parts(name, scope)
    if len(parts) != 1:
        return None
    part = parts[0]
    if not isinstance(part, ast.Name):
        return factory_call(ctx, part)
    helper = ctx.index.scope_of(part)
    factory = factory_assignment(ctx, helper, part.id, part.lineno)
    if factory is None or filled_between(ctx, helper, part.id, factory, part):
        return None
    return factory


def cuda_constructor_alias(ctx, func: ast.AST) -> bool:
    """``Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`` (PyTorch-GAN's idiom, or an if/else of the
    two): a name bound only to legacy constructors, the CUDA one among them."""
    if not isinstance(func, ast.Name):
        return False
    choices = [c for v in ctx.index.assigned_values.get(func.id, [])
               for c in ((v.body, v.orelse) if isinstance(v, ast.IfExp) else (v,))]
    quals = [ctx.qual(c) or "" for c in choices]
    return bool(quals) and any(q in api.LEGACY_CUDA_CONSTRUCTORS for q in quals) \
        and all(q in api.LEGACY_CUDA_CONSTRUCTORS or q[6:] in api.LEGACY_CONSTRUCTORS for q in quals)


def made_at(ctx, scope: ast.AST, name: str, copy: ast.Call, depth: int = 0) -> Optional[ast.Call]:
    """Where the CPU tensor ``name`` copied at ``copy`` was made when no one factory call gives it: the first torch
    factory in the statement that last bound it, or in the statements that bound the names that one reads
    (``p_drop = torch.Tensor(n, 1).fill_(p)``; ``mask = torch.bernoulli(p_drop) / p``; ``mask.to(device)``: at the
    ``torch.Tensor`` line; ``lab = torch.ones(n, k).long() * torch.arange(n)``; ``lab = lab.reshape(-1)``: at the
    ``torch.ones``) -- the line the fifth corpus's rule reports, where the tensor is made."""
    bound = _bound_before(ctx, scope, name, copy.lineno)
    value = bound[-1] if bound else None
    if value is None or depth > 2 or _scaled_by_a_handed_value(scope, value):
        return None
    for node in ast.walk(value):  # (source order within the statement is close enough: the first fill written)
        if isinstance(node, ast.Call) and torch_factory(ctx.qual(node.func) or ""):
            drawn_from = node.args[0] if node.args and (ctx.qual(node.func) or "").split(".")[-1] \
                in api.SAMPLING_FACTORIES else None  # torch.bernoulli(p_drop): drawn from the fill p_drop
            found = made_at(ctx, scope, drawn_from.id, copy, depth + 1) if isinstance(drawn_from, ast.Name) else None
            return found or node
    for node in ast.walk(value):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            found = made_at(ctx, scope, node.id, ctx.index.parents.get(value) or copy, depth + 1)
            if found is not None:
                return found
    return None


def _scaled_by_a_handed_value(scope: ast.AST, value: ast.AST) -> bool:
    """``torch.ones((N, 1)) * N`` with ``N`` a parameter: combined with a value handed in (perhaps a tensor), the
    result may be data -- its copy is reported where it happens (session 19), not at the fill."""
    arguments = getattr(scope, "args", None)
    handed = {a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs} if arguments else set()
    return any(isinstance(node, ast.BinOp) and any(isinstance(side, ast.Name) and side.id in handed
                                                   for side in (node.left, node.right)) for node in ast.walk(value))
