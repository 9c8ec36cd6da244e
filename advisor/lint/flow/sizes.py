"""How many elements a tensor has, when the code says so with constants: ``torch.ones(4, device="cuda")``,
``torch.tensor([1.0, 2.0])``, ``torch.zeros((2, 3))``, and what elementwise ops and moves make of them.

Flow-insensitive and conservative: a name has a size only if every value ever assigned to it has one (the
largest counts); anything computed from data, shapes or parameters has no size, and checks stay quiet."""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.config_fields import ConfigFields
from advisor.lint.flow.int_values import MAX_DEPTH, IntValues
from advisor.lint.flow.literal_sizes import comprehension_numel, literal_numel, numpy_numel, shape_numel
from advisor.lint.flow.op_sizes import (
    ELEMENTWISE_LOSSES,
    MATMUL_FUNCTIONS,
    REDUCING_FUNCTIONS,
    REDUCING_METHODS,
    SAME_SIZE_FUNCTIONS,
    SAME_SIZE_METHODS,
    VIEWS,
    expanded_like,
)
from advisor.lint.flow.returned_parts import returned_parts, unpack_statements
from advisor.lint.flow.shapes import TensorShapes, count
from advisor.lint.flow.tiny_models import TinyModels, optimized_argument, peel_same_model, without_moves_in_place
from advisor.lint.index import FileIndex, parameter_defaults
from advisor.lint.names import Names, last_identifier

_SHAPE_FACTORIES = frozenset({"zeros", "ones", "empty", "rand", "randn", "full"})
_DATA_FACTORIES = frozenset({"tensor", "as_tensor", "asarray", "Tensor", "FloatTensor", "LongTensor", "IntTensor",
                             "HalfTensor", "DoubleTensor"})
_LIKE_FACTORIES = frozenset({"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like"})
# Attributes that are a tensor of the same elements: w.grad, t.data, t.T.
_SAME_SIZE_ATTRIBUTES = frozenset({"grad", "data", "T", "mT", "H", "mH", "real"})

class TensorSizes(IntValues):
    def __init__(self, names: Names, index: FileIndex) -> None:
        self.names = names
        self.index = index
        self.parents = index.parents
        self._by_name: dict[tuple[str, ast.AST], Optional[int]] = {}
        self._in_scope: dict[tuple[str, ast.AST], list[ast.AST]] = {}
        self._functions: Optional[dict[str, ast.FunctionDef]] = None
        self._passed: set[ast.AST] = set()  # values from elsewhere: arguments for a parameter, a returned part
        self.shapes = TensorShapes(self)
        self._options: Optional[tuple[set[str], dict[str, ast.AST]]] = None  # argparse: parsed names, defaults
        self._configs: Optional[ConfigFields] = None  # dataclass configs: class -> field -> values
        self._unpacks: Optional[dict[str, list[ast.Assign]]] = None
        self.tiny_models = TinyModels(names.qual, self._values, index.scope_of, self.int_value, index.classes)

    def numel(self, node: ast.AST, depth: int = 0) -> Optional[int]:
        """Elements of the tensor ``node`` evaluates to, or None when the code does not say."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, ast.Name):
            return self._name(node.id, self.index.scope_of(node), depth)
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return self._product(node.left, node.right, depth)
        if isinstance(node, ast.BinOp):
            sides = [self._operand(side, depth) for side in (node.left, node.right)]
            if None in sides or not any(sides):
                return None
            return max(sides)  # type: ignore[type-var]
        if isinstance(node, ast.Attribute) and node.attr in _SAME_SIZE_ATTRIBUTES:
            return self.numel(node.value, depth + 1)
        if isinstance(node, ast.UnaryOp):
            return self.numel(node.operand, depth + 1)
        if isinstance(node, ast.ListComp):  # data for np.array(...) / torch.tensor(...)
            return comprehension_numel(node, self)
        if isinstance(node, ast.Compare):  # a mask: as many elements as the operands broadcast to
            sides = [self._operand(side, depth) for side in [node.left] + node.comparators]
            return None if None in sides or not any(sides) else max(sides)  # type: ignore[type-var]
        if isinstance(node, ast.Subscript):  # read, or written to (out[i] = v)
            shape = self.shapes.shape(node)  # t[i] of a 1-D t: one element
            return count(shape) if shape is not None else self.numel(node.value, depth + 1)  # else at most x's
        return None

    def _product(self, left: ast.AST, right: ast.AST, depth: int) -> Optional[int]:
        """The elements of ``left @ right`` when both shapes are spelled out; else an upper bound: (m*k) @ (k*n)
        gives m*n <= (m*k)*(k*n)."""
        shapes = [self.shapes.shape(side) for side in (left, right)]
        if shapes[0] is not None and shapes[1] is not None and 1 <= len(shapes[0]) <= 2 and 1 <= len(shapes[1]) <= 2 \
                and shapes[0][-1] == shapes[1][0]:
            return count(shapes[0][:-1] + shapes[1][1:])
        sides = [self.numel(side, depth + 1) for side in (left, right)]
        return None if None in sides else sides[0] * sides[1]  # type: ignore[operator]

    def is_number(self, node: ast.AST) -> bool:
        """A Python number (0.5, lr with lr = 1e-3, loss.item()): it adds no elements of its own to an op."""
        return self._is_scalar(node, 0)

    def _operand(self, node: ast.AST, depth: int) -> Optional[int]:
        """A tensor operand's size; 0 for a Python number (broadcast, no size of its own)."""
        if self._is_scalar(node, depth):
            return 0
        return self.numel(node, depth + 1)

    def _is_scalar(self, node: ast.AST, depth: int) -> bool:
        """A Python number: 0.5, float(x), loss.item(), math.pi, torch.finfo(t.dtype).eps, a name bound to one."""
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
        if isinstance(node, ast.UnaryOp) and depth <= MAX_DEPTH:  # -0.5
            return self._is_scalar(node.operand, depth + 1)
        if isinstance(node, ast.BinOp) and depth <= MAX_DEPTH:  # 2 * math.pi, lr / 10
            return self._is_scalar(node.left, depth + 1) and self._is_scalar(node.right, depth + 1)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("float", "int", "len", "round"):
                return True
            if isinstance(func, ast.Attribute) and func.attr == "item":
                return True
            return (self.names.qual(func) or "").startswith("math.")
        if isinstance(node, ast.Attribute):
            base = node.value
            qualified = self.names.qual(base.func) if isinstance(base, ast.Call) else self.names.qual(node)
            return (qualified or "").endswith(("finfo", "iinfo")) or (qualified or "").startswith("math.") \
                or qualified in ("numpy.pi", "numpy.e", "numpy.inf", "numpy.nan", "torch.pi", "torch.e")
        if isinstance(node, ast.Name) and depth <= MAX_DEPTH:
            scope = self.index.scope_of(node)
            values = self._values(node.id, scope)
            if not values:
                return self._counts_a_range(node.id, scope)
            return all(self._is_scalar(v, depth + 1) for v in values)
        return False

    def _counts_a_range(self, name: str, scope: ast.AST) -> bool:
        """``for i in reversed(range(1, steps)):``: a name that only a loop over a range binds here is an int."""
        loops = [loop for loop in self.index.loops_by_target.get(name, ()) if self.index.scope_of(loop) is scope]
        return bool(loops) and all(_a_range(loop.iter) for loop in loops)

    def _values(self, name: str, scope: ast.AST) -> list[ast.AST]:
        """What ``name`` is assigned in ``scope`` (a function's locals; else the module's globals)."""
        key = (name, scope)
        found = self._in_scope.get(key)
        if found is None:
            values = self.index.assigned_values.get(name, [])
            found = [v for v in values if self.index.scope_of(v) is scope] or self._unpacked(name, scope)
            if not found and scope is not self.index.tree:
                found = self._arguments(name, scope) or \
                    [v for v in values if self.index.scope_of(v) is self.index.tree]
            elif found and name in self.index.parameters:  # def fit(X, ...): X = X.to(device) keeps what is passed
                found = found + self._arguments(name, scope)
            self._in_scope[key] = found
        return found

    values_of = _values  # what shapes.py reads

    def _unpacked(self, name: str, scope: ast.AST) -> list[ast.AST]:
        """``X, y = make_data(cfg)``: the parts at X's place in every tuple the file's function returns."""
        found = self.returned_parts(name, scope)
        self._passed.update(found)
        return found

    def returned_parts(self, name: str, scope: ast.AST) -> list[ast.AST]:
        """``X, y = make_data(cfg)`` in ``scope``: the expressions at X's place in the tuples make_data returns."""
        if self._unpacks is None:
            self._unpacks = unpack_statements(self.index)
        return returned_parts(self.index, self._unpacks, self._module_functions(), name, scope)

    def _module_functions(self) -> dict[str, ast.FunctionDef]:
        """The module's top-level defs by name (a name defined once, and not also assigned)."""
        if self._functions is None:
            tops = [f for f in self.index.functions if self.parents.get(f) is self.index.tree
                    and isinstance(f, ast.FunctionDef)]
            names = [f.name for f in tops]
            self._functions = {f.name: f for f in tops if names.count(f.name) == 1
                               and f.name not in self.index.assigned_values}
        return self._functions

    def _arguments(self, name: str, scope: ast.AST) -> list[ast.AST]:
        """What the call sites pass for parameter ``name`` of a top-level function (``def forward(x)`` called
        as ``forward(X)``): every call must pass it, by position or keyword, or leave it to its default (which
        is also what a function nobody in the file calls runs with); else nothing."""
        if not isinstance(scope, ast.FunctionDef) or self._module_functions().get(scope.name) is not scope:
            return []
        arguments = scope.args
        parameters = [a.arg for a in arguments.posonlyargs + arguments.args]
        defaults = parameter_defaults(arguments)
        if name not in parameters and name not in [a.arg for a in arguments.kwonlyargs]:
            return []
        position = parameters.index(name) if name in parameters else None
        found = []
        calls = self.index.calls_by_name.get(scope.name, ())
        for call in calls:
            if not isinstance(call.func, ast.Name) or any(isinstance(a, ast.Starred) for a in call.args) \
                    or any(k.arg is None for k in call.keywords):
                return []
            keyword = next((k.value for k in call.keywords if k.arg == name), None)
            if keyword is not None:
                found.append(keyword)
            elif position is not None and position < len(call.args):
                found.append(call.args[position])
            elif name in defaults:
                found.append(defaults[name])
            else:
                return []
        if not calls and name in defaults:
            found.append(defaults[name])
        self._passed.update(found)  # (a module-level name handed in, train(model, criterion): what it was made as)
        return [v for f in found for v in (isinstance(f, ast.Name) and self.index.scope_of(f) is self.index.tree
                                            and self._values(f.id, self.index.tree) or [f])]

    def _returned(self, call: ast.Call, depth: int) -> Optional[int]:
        """A call of a top-level function: the largest of what its returns evaluate to, all known."""
        function = self._module_functions().get(call.func.id)  # type: ignore[union-attr]
        if function is None:
            return None
        returns = [node.value for node in ast.walk(function) if isinstance(node, ast.Return)
                   and self.index.scope_of(node) is function]
        if not returns or any(value is None for value in returns):
            return None
        sizes = [self._operand(value, depth) for value in returns]
        return None if None in sizes or not any(sizes) else max(sizes)  # type: ignore[type-var]

    def _name(self, name: str, scope: ast.AST, depth: int) -> Optional[int]:
        key = (name, scope)
        if key in self._by_name:
            return self._by_name[key]
        self._by_name[key] = 0  # in progress: a cycle (x = torch.where(m, y, x)) adds nothing of its own
        values = self._values(name, scope)
        if all(isinstance(self.parents.get(v), ast.AugAssign) for v in values):
            # bound by a for loop only (then updated in place): `for v in t`, a row of t; `for p in (w, b)`
            self._by_name[key] = self._loop_target(name, scope, depth)
            return self._by_name[key]
        sizes = [self._operand(value, depth) if value in self._passed else self._assigned(value, name, depth)
                 for value in values]  # a number passed for a parameter broadcasts
        positive = [size for size in sizes if size is not None and size > 0]
        result = max(positive) if positive and None not in sizes else None
        self._by_name[key] = result
        return result

    def _loop_target(self, name: str, scope: ast.AST, depth: int) -> Optional[int]:
        sizes: list[Optional[int]] = []
        for loop in self.index.loops:
            if isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.target, ast.Name) \
                    and loop.target.id == name and self.index.scope_of(loop) is scope:
                if isinstance(loop.iter, (ast.Tuple, ast.List)) and loop.iter.elts:
                    sizes.extend(self.numel(element, depth + 1) for element in loop.iter.elts)
                else:
                    shape = self.shapes.shape(loop.iter)
                    sizes.append(count(shape[1:]) if shape else None)
        return max(sizes) if sizes and None not in sizes else None  # type: ignore[type-var]

    def _assigned(self, value: ast.AST, name: str, depth: int) -> Optional[int]:
        """The size a name gets from one assignment; 0 when it keeps its own (``b = b * 0.9 + 0.1``, ``b += 1``)."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(value, ast.Name) and value.id == name or isinstance(self.parents.get(value), ast.AugAssign):
            return 0  # b += x works in place: b keeps the elements it had
        if self._is_scalar(value, depth):
            return 0 if isinstance(self.parents.get(value), (ast.AugAssign, ast.BinOp)) else None
        if isinstance(value, ast.BinOp) and not isinstance(value.op, ast.MatMult):
            sides = [self._assigned(side, name, depth + 1) for side in (value.left, value.right)]
            return None if None in sides else max(sides)  # type: ignore[type-var]
        if isinstance(value, ast.UnaryOp):
            return self._assigned(value.operand, name, depth + 1)
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr in SAME_SIZE_METHODS and not self.names.qual(value.func):
            return self._assigned(value.func.value, name, depth + 1)
        qualified = self.names.qual(value.func) if isinstance(value, ast.Call) else None
        if qualified and qualified.startswith("torch.") and qualified[6:] in SAME_SIZE_FUNCTIONS and value.args:
            sides = [self._assigned(arg, name, depth + 1) for arg in value.args]  # x = torch.where(m, y, x)
            return None if None in sides else max(sides)  # type: ignore[type-var]
        return self.numel(value, depth + 1)

    def _call(self, call: ast.Call, depth: int) -> Optional[int]:
        qualified = self.names.qual(call.func) or ""
        if qualified.startswith("torch.") and qualified.count(".") == 1:
            name = qualified[6:]
            if name in _SHAPE_FACTORIES:
                size = next((k.value for k in call.keywords if k.arg == "size"), None)
                shape = [size] if size is not None else (call.args[:1] if name == "full" else call.args)
                return shape_numel(shape, self)
            if name == "randint":  # randint(high, size) / randint(low, high, size) / size=(512,)
                size = next((k.value for k in call.keywords if k.arg == "size"), None)
                if size is None and call.args and isinstance(call.args[-1], (ast.Tuple, ast.List)):
                    size = call.args[-1]
                return None if size is None else shape_numel([size], self)
            if name in _DATA_FACTORIES and call.args:
                data = call.args[0]
                if isinstance(data, (ast.Call, ast.Name)):  # torch.tensor(np.zeros(n)), torch.tensor(array)
                    return self.numel(data, depth + 1)
                return literal_numel(data)
            if name == "from_numpy" and call.args:
                return self.numel(call.args[0], depth + 1)
            if name in MATMUL_FUNCTIONS and len(call.args) == 2 or name == "einsum" and len(call.args) == 3:
                return self._product(call.args[-2], call.args[-1], depth)  # (einsum("ab,zbc->zac", a, b): the same bound)
            if name in REDUCING_FUNCTIONS and call.args:
                return self.numel(call.args[0], depth + 1)
            if name in _LIKE_FACTORIES and call.args:
                return self.numel(call.args[0], depth + 1)
            if name in ("linspace", "logspace"):  # torch.linspace(start, end, steps): steps elements
                steps = next((k.value for k in call.keywords if k.arg == "steps"), None)
                if steps is None and len(call.args) >= 3:
                    steps = call.args[2]
                return None if steps is None else self.int_value(steps)
            if name == "arange" and call.args:
                bounds = [self.int_value(a) for a in call.args[:2]]
                if None in bounds:
                    return None
                return bounds[0] if len(bounds) == 1 else max(0, bounds[1] - bounds[0])
            if name in SAME_SIZE_FUNCTIONS and call.args:
                sizes = [self._operand(a, depth) for a in call.args if not isinstance(a, ast.Starred)]
                return None if None in sizes or not any(sizes) else max(sizes)
            if name in ("cat", "concat", "concatenate", "stack") and call.args \
                    and isinstance(call.args[0], (ast.List, ast.Tuple)):  # the pieces' elements, together
                sizes = [self.numel(piece, depth + 1) for piece in call.args[0].elts]
                return None if not sizes or None in sizes else sum(sizes)  # type: ignore[arg-type]
            return None
        if qualified.startswith("numpy."):
            return numpy_numel(qualified, call, self)
        if qualified.startswith("torch.nn.functional.") and call.args:  # F.relu(x), F.mse_loss(a, b)
            last = qualified.rsplit(".", 1)[-1]
            if last in api.FUNCTIONAL_ELEMENTWISE:
                return self.numel(call.args[0], depth + 1)
            if last in api.FUNCTIONAL_LOSSES:
                sizes = [self._operand(a, depth) for a in call.args[:2]]
                return None if None in sizes or not any(sizes) else max(sizes)  # type: ignore[type-var]
        if (qualified in api.MODULE_PARAMETERS or qualified in ("torch.autograd.Variable",
                                                               "torch.autograd.variable.Variable")) \
                and call.args:  # the tensor it wraps
            return self.numel(call.args[0], depth + 1)
        if isinstance(call.func, ast.Name) and not qualified:
            if self.loss_module(call.func):  # loss_fn(z, y): reduces (or keeps) its inputs' elements
                sizes = [self._operand(a, depth) for a in call.args[:2]]
                return None if not sizes or None in sizes or not any(sizes) else max(sizes)  # type: ignore[type-var]
            tiny = self.tiny_models.of(call.func)
            if tiny is not None:  # net(x) of nn.Sequential(nn.Linear(2, 1), ...): at most x's elements x the widest
                size = self.numel(call.args[0], depth + 1) if len(call.args) == 1 else None
                return size * tiny.width if size else None
            return self._returned(call, depth + 1)
        if isinstance(call.func, ast.Attribute) and not qualified:
            attr, receiver = call.func.attr, call.func.value
            if attr in SAME_SIZE_METHODS or attr in REDUCING_METHODS or attr in VIEWS:
                return self.numel(receiver, depth + 1)
            if attr in MATMUL_FUNCTIONS and len(call.args) == 1:
                return self._product(receiver, call.args[0], depth)
            if attr in ("expand", "expand_as") and (like := expanded_like(call)) is not None:
                return self.numel(like, depth + 1)  # x.expand(y.shape) / x.expand_as(y): y's elements
        return None

    def loss_module(self, func: ast.AST) -> bool:
        """A name bound only to an elementwise loss module: ``loss_fn = nn.MSELoss()``."""
        if not isinstance(func, ast.Name):
            return False
        values = self._values(func.id, self.index.scope_of(func))
        values = [peel_same_model(value) for value in without_moves_in_place(func.id, values)]  # nn.BCELoss().to(device)
        return bool(values) and all(isinstance(v, ast.Call) and (self.names.qual(v.func) or "").removeprefix(
            "torch.nn.modules.loss.").removeprefix("torch.nn.") in ELEMENTWISE_LOSSES for v in values)

    def optimized_tensors(self, optimizer: ast.AST) -> Optional[list[ast.AST]]:
        """The tensors an optimizer made from a literal list updates: ``torch.optim.SGD([w, b], lr=...)``."""
        if not isinstance(optimizer, ast.Name):
            return None
        values = self._values(optimizer.id, self.index.scope_of(optimizer))
        handed = optimized_argument(values[0]) if len(values) == 1 and isinstance(values[0], ast.Call) else None
        if not isinstance(handed, (ast.List, ast.Tuple)) \
                or not (self.names.qual(values[0].func) or "").startswith("torch.optim."):  # type: ignore[attr-defined]
            return None
        return list(handed.elts)


def _a_range(node: ast.AST) -> bool:
    """``range(n)``, ``reversed(range(n))``, also through a progress bar (``tqdm(reversed(range(1, steps)))``: the
    DDPM sampling loop) and tqdm's own ``trange(n)``."""
    while isinstance(node, ast.Call) and node.args and last_identifier(node.func) in ("reversed", "tqdm"):
        node = node.args[0]
    return isinstance(node, ast.Call) and last_identifier(node.func) in ("range", "trange")
