"""Loop invariance for the copy checks: is a value rebuilt in a loop from data the loop never changes?

``rgb = np.ascontiguousarray(rgba[..., :3])`` inside ``while True:`` gives the same array every iteration
when ``rgba`` is neither written nor handed to anything that could fill it in the loop: copying ``rgb`` to
the GPU each time copies the same bytes. The rules are strict, since a wrong "invariant" is a false alarm:
a name is invariant when every write to it in the loop is a plain ``name = expr`` of an invariant
expression; an expression is invariant when it is built from literals and invariant names by operators,
subscripts and calls of known pure functions (numpy outside numpy.random, torch's wrapping factories, array
methods such as .astype/.reshape); a name the loop never writes is invariant only if the loop uses it in
read-only places (subscripted, passed to a pure call, an operand), never as the receiver of another method
or an argument of an unknown call (``env.render(out=buf)``, ``np.copyto(buf, frame)``), nor changed in place
(``buf.fill(0)``, ``buf[:] = frame``, ``t.copy_(x)``).
Attributes (``env.obs``) never count: a method call elsewhere may change them.
"""

from __future__ import annotations

import ast

_PURE_TORCH = frozenset({"torch.from_numpy", "torch.tensor", "torch.as_tensor", "torch.asarray", "torch.Tensor",
                         "torch.FloatTensor", "torch.LongTensor", "torch.IntTensor", "torch.DoubleTensor",
                         "torch.HalfTensor", "torch.ByteTensor", "torch.BoolTensor"})
_PURE_BUILTINS = frozenset({"list", "tuple", "float", "int", "len", "abs", "min", "max", "range"})
_NUMPY_IMPURE = ("numpy.random", "numpy.copyto", "numpy.put", "numpy.place", "numpy.putmask", "numpy.fill_diagonal",
                 "numpy.load", "numpy.fromfile", "numpy.loadtxt", "numpy.genfromtxt", "numpy.memmap")
_PURE_METHODS = frozenset({"astype", "reshape", "transpose", "copy", "float", "double", "long", "int", "half",
                           "contiguous", "view", "permute", "squeeze", "unsqueeze", "flatten", "ravel", "clone",
                           "swapaxes", "mean", "sum", "std", "numpy"})
_MUTATING_METHODS = frozenset({"fill", "put", "sort", "resize", "itemset", "setfield", "setflags", "partition",
                               "byteswap", "readinto", "set"})
_PURE_ATTRIBUTES = frozenset({"T", "shape", "dtype", "ndim", "size"})
_MAX_DEPTH = 6


def is_literal(node: ast.AST) -> bool:
    """A number, or a list/tuple (nested) of numbers: ``[0.485, 0.456, 0.406]``."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return is_literal(node.operand)
    return isinstance(node, (ast.List, ast.Tuple)) and bool(node.elts) and all(is_literal(e) for e in node.elts)


def loop_invariant(ctx, name: str, loop: ast.AST, at: ast.AST) -> bool:
    """Does the plain name ``name`` hold the same data at ``at`` on every iteration of ``loop``? A plain
    ``name = ...`` statement of the loop body before the one holding ``at`` is the only write that reaches it
    (``rgb = rgba[..., :3]; rgb = torch.from_numpy(rgb).cuda()`` reads the first)."""
    if "." in name or not name.isidentifier():
        return False
    target = getattr(loop, "target", None)
    if target is not None and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target)):
        return False  # the loop's own item: new each iteration
    analysis = _Invariance(ctx, loop)
    if analysis.changed_in_place(name):
        return False  # batch = np.zeros(...); batch[i] = sample: zeros, then filled with new data
    statement = at
    while statement is not None and ctx.index.parents.get(statement) is not loop:
        statement = ctx.index.parents.get(statement)
    body = getattr(loop, "body", [])
    if statement in body:
        for earlier in reversed(body[:body.index(statement)]):
            if isinstance(earlier, ast.Assign) and len(earlier.targets) == 1 \
                    and isinstance(earlier.targets[0], ast.Name) and earlier.targets[0].id == name:
                return analysis.expr(earlier.value, 1, frozenset({name}))
    return analysis.name(name, 0, frozenset())


class _Invariance:
    def __init__(self, ctx, loop: ast.AST) -> None:
        self.ctx = ctx
        self.loop = loop
        self.assigned = ctx.assigned_in(loop)
        self._occurrences = ctx.names_in(loop)

    def name(self, name: str, depth: int, visiting: frozenset) -> bool:
        if depth > _MAX_DEPTH or name in visiting:
            return False
        occurrences = self._occurrences.get(name, [])
        if name not in self.assigned:
            return all(self._read_only(node) for node in occurrences)
        if self.changed_in_place(name):
            return False
        for node in occurrences:
            if isinstance(node.ctx, ast.Load):
                continue
            parent = self.ctx.index.parents.get(node)
            if not isinstance(parent, ast.Assign) or len(parent.targets) != 1 or parent.targets[0] is not node:
                return False  # the loop target, an augmented or tuple assignment, a del
            if not self.expr(parent.value, depth + 1, visiting | {name}):
                return False
        return True

    def changed_in_place(self, name: str) -> bool:
        """Is the array ``name`` holds written where it is anywhere in the loop (``batch[i] = x``)?"""
        return any(self._written_in_place(node) for node in self._occurrences.get(name, []))

    def _written_in_place(self, node: ast.Name) -> bool:
        """``buf[i] = x``, ``buf[0][i] = x``, ``buf[:] += x``, ``buf.fill_(0)``: the array the name holds is changed
        where it is."""
        parent = self.ctx.index.parents.get(node)
        while isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Load) and parent.value is node \
                and isinstance(self.ctx.index.parents.get(parent), ast.Subscript) \
                and self.ctx.index.parents[parent].value is parent:  # buf[0][i] = x: a row of buf, written
            node, parent = parent, self.ctx.index.parents[parent]
        if isinstance(parent, ast.Subscript):
            return parent.value is node and not isinstance(parent.ctx, ast.Load) \
                or parent.value is node and isinstance(self.ctx.index.parents.get(parent), ast.AugAssign)
        if isinstance(parent, ast.Attribute) and isinstance(parent.ctx, ast.Load):
            return (parent.attr.endswith("_") and not parent.attr.startswith("_")) or parent.attr in _MUTATING_METHODS
        return False

    def _read_only(self, node: ast.Name) -> bool:
        parent = self.ctx.index.parents.get(node)
        if isinstance(parent, ast.Subscript):
            return parent.value is not node or isinstance(parent.ctx, ast.Load)
        if isinstance(parent, ast.Attribute):  # a method of the array: in-place ones end in _ (or are numpy's)
            return isinstance(parent.ctx, ast.Load) and not parent.attr.endswith("_") \
                and parent.attr not in _MUTATING_METHODS
        if isinstance(parent, ast.Call):
            return parent.func is not node and self._pure_function(parent)
        if isinstance(parent, ast.keyword):
            call = self.ctx.index.parents.get(parent)
            return isinstance(call, ast.Call) and self._pure_function(call)
        return isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Tuple, ast.List, ast.Assign,
                                   ast.FormattedValue, ast.Slice))

    def _pure_function(self, call: ast.Call) -> bool:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _PURE_METHODS and self.ctx.qual(func) is None:
            return True
        qualified = self.ctx.qual(func)
        if qualified is None:
            return isinstance(func, ast.Name) and func.id in _PURE_BUILTINS
        if qualified.startswith("numpy."):
            return not qualified.startswith(_NUMPY_IMPURE)
        return qualified in _PURE_TORCH or qualified in _PURE_BUILTINS

    def expr(self, node: ast.AST, depth: int, visiting: frozenset) -> bool:
        if isinstance(node, ast.Constant) or is_literal(node):
            return True
        if isinstance(node, (ast.Name, ast.Attribute)) and self.ctx.qual(node) is not None:
            return True  # an imported constant: np.uint8, torch.float32
        if isinstance(node, ast.Name):
            return self.name(node.id, depth, visiting)
        if isinstance(node, ast.Subscript):
            return self.expr(node.value, depth, visiting) and self.expr(node.slice, depth, visiting)
        if isinstance(node, ast.Slice):
            return all(self.expr(part, depth, visiting) for part in (node.lower, node.upper, node.step)
                       if part is not None)
        if isinstance(node, (ast.Tuple, ast.List)):
            return all(self.expr(e, depth, visiting) for e in node.elts)
        if isinstance(node, ast.BinOp):
            return self.expr(node.left, depth, visiting) and self.expr(node.right, depth, visiting)
        if isinstance(node, ast.UnaryOp):
            return self.expr(node.operand, depth, visiting)
        if isinstance(node, ast.Attribute):
            return node.attr in _PURE_ATTRIBUTES and self.expr(node.value, depth, visiting)
        if isinstance(node, ast.Call) and self._pure_function(node):
            func = node.func
            receiver = [func.value] if isinstance(func, ast.Attribute) and self.ctx.qual(func) is None else []
            return all(self.expr(part, depth, visiting)
                       for part in receiver + list(node.args) + [k.value for k in node.keywords])
        return False


def accumulator_reset(ctx, call: ast.Call, loop: ast.AST) -> bool:
    """``total_loss = torch.tensor(0., device=device)`` at the top of an epoch, then ``total_loss += loss.detach()``
    per batch: a running sum the loop changes in place must start afresh each pass -- a reset, not a copy to hoist."""
    holder = ctx.index.parents.get(call)
    if not (isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name)):
        return False
    name = holder.targets[0].id
    for node in ast.walk(loop):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.endswith("_") \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            return True  # total.add_(loss)
    return False
