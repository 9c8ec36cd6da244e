"""Functions and classes of one module, and which one a bare name calls (Python's lexical rules, simplified).

The data-flow pass keeps its per-function summaries here: the kinds each parameter was called with, the
kind the function returns, and the attributes `self.x` its class assigns.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional, Union

from advisor.lint.flow.kinds import CUDA_ANY, CUDA_DEVICE, INSTANCE_SHIFT
from advisor.lint.index import FUNCTION_TYPES, FileIndex, FunctionNode
from advisor.lint.names import Names, dotted, last_identifier, self_attribute
from advisor.lint.torch_api import MODEL_BASE_HINT

_MAX_HELD_DEPTH = 4


@dataclass(eq=False)
class FunctionInfo:
    node: FunctionNode
    parent: ast.AST  # Module, FunctionDef or ClassDef holding the def
    class_info: Optional["ClassInfo"]
    positional: list[str]
    keyword_only: list[str]
    vararg: Optional[str]
    kwarg: Optional[str]
    param_kinds: dict[str, int] = field(default_factory=dict)
    return_kind: int = 0
    touches_cuda: bool = False
    moves_data_to_cuda: bool = False  # it copies data (not a model) to a device that can be CUDA: .to(self.args.device)
    exit_env: dict[str, int] = field(default_factory=dict)
    called: bool = False  # some call in the module reaches it
    analyzed: bool = False

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def of_a_model(self) -> bool:
        """A method of one of the file's nn.Module classes."""
        return self.class_info is not None and self.class_info.is_model

    @property
    def takes_self(self) -> bool:
        if self.class_info is None or not self.positional:
            return False
        return not any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in self.node.decorator_list)

    @property
    def is_classmethod(self) -> bool:
        return any(isinstance(d, ast.Name) and d.id == "classmethod" for d in self.node.decorator_list)

    @property
    def is_abstract(self) -> bool:
        """A method left for subclasses: its body (a docstring aside) is ``raise NotImplementedError``,
        ``pass`` or ``...``."""
        body = self.node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        if not body:
            return True
        if len(body) != 1:
            return False
        only = body[0]
        if isinstance(only, ast.Raise):
            return last_identifier(only.exc) == "NotImplementedError" if only.exc is not None else False
        return isinstance(only, ast.Pass) or (isinstance(only, ast.Expr) and isinstance(only.value, ast.Constant)
                                              and only.value.value is Ellipsis)


@dataclass(eq=False)
class ClassInfo:
    node: ast.ClassDef
    parent: ast.AST
    is_model: bool = False
    instance_bit: int = 0  # see kinds.INSTANCE_SHIFT
    methods: dict[str, FunctionInfo] = field(default_factory=dict)
    attrs: dict[str, int] = field(default_factory=dict)  # "self.model" -> kind, joined over its methods

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def holds_cuda(self) -> bool:
        """Do its methods keep a CUDA device, tensor, model or optimizer in ``self``?"""
        return any(kind & (CUDA_ANY | CUDA_DEVICE) for kind in self.attrs.values())


Definition = Union[FunctionInfo, ClassInfo]


class ScopeIndex:
    def __init__(self, index: FileIndex, names: Names) -> None:
        self.index = index
        self.functions: dict[ast.AST, FunctionInfo] = {}
        self.classes: dict[ast.AST, ClassInfo] = {}
        self._defs_in: dict[ast.AST, dict[str, Definition]] = {}
        self.by_instance_bit: dict[int, ClassInfo] = {}
        for number, node in enumerate(index.classes):
            parent = self._holder(node)
            info = ClassInfo(node, parent, instance_bit=1 << (INSTANCE_SHIFT + number))
            self.by_instance_bit[info.instance_bit] = info
            self.classes[node] = info
            self._defs_in.setdefault(parent, {})[node.name] = info
        for node in index.functions:
            parent = self._holder(node)
            class_info = self.classes.get(parent) if isinstance(parent, ast.ClassDef) else None
            args = node.args
            info = FunctionInfo(
                node, parent, class_info,
                positional=[a.arg for a in args.posonlyargs + args.args],
                keyword_only=[a.arg for a in args.kwonlyargs],
                vararg=args.vararg.arg if args.vararg else None,
                kwarg=args.kwarg.arg if args.kwarg else None)
            self.functions[node] = info
            if class_info is not None:
                class_info.methods[node.name] = info
            else:
                self._defs_in.setdefault(parent, {})[node.name] = info
        for info in self.classes.values():  # in source order, so a base defined earlier is already decided
            info.is_model = any(self._is_model_base(base, names) for base in info.node.bases)
            for base in self._bases_here(info):  # (its methods are complete: it was defined earlier)
                for name, method in base.methods.items():
                    info.methods.setdefault(name, method)  # self.to_var(x) of a mixin: the base's own code runs
        self._names = names
        self._returns: dict[FunctionInfo, list[ast.AST]] = {}
        self._holders: Optional[dict[FunctionInfo, set[str]]] = None
        self._children: Optional[dict[ast.AST, list[FunctionInfo]]] = None
        self._held: dict[tuple[str, ast.AST], tuple[FunctionInfo, ...]] = {}
        self._overrides: dict[FunctionInfo, list[FunctionInfo]] = {}

    def _holder(self, node: ast.AST) -> ast.AST:
        for parent in self.index.ancestors(node):
            if isinstance(parent, FUNCTION_TYPES + (ast.ClassDef, ast.Module)):
                return parent
        return self.index.tree

    def _bases_here(self, info: ClassInfo) -> list[ClassInfo]:
        """The classes ``info`` derives from that the file defines before it, first base first (the MRO's order
        for the usual single chain and mixins)."""
        found = []
        for base in info.node.bases:
            if isinstance(base, ast.Name):
                found += [other for other in self.classes.values() if other.name == base.id
                          and other.node.lineno < info.node.lineno and other is not info][-1:]
        return found

    def _is_model_base(self, base: ast.AST, names: Names) -> bool:
        qualified = names.qual(base) or ""
        if qualified.startswith("torch.nn.") or qualified.startswith("lightning") \
                or qualified.startswith("pytorch_lightning"):
            return True
        if isinstance(base, ast.Name):
            for info in self.classes.values():
                if info.name == base.id and info.node is not base:
                    return info.is_model
        return bool(MODEL_BASE_HINT.search(last_identifier(base)))

    def resolve(self, name: str, scope: ast.AST) -> Optional[Definition]:
        """The def or class a bare ``name`` refers to from inside ``scope`` (class bodies are skipped)."""
        node: Optional[ast.AST] = scope
        while node is not None:
            found = self._defs_in.get(node, {}).get(name)
            if found is not None:
                return found
            if isinstance(node, ast.Module):
                return None
            info = self.functions.get(node)
            node = info.parent if info is not None else self._holder(node)
            while isinstance(node, ast.ClassDef):
                node = self.classes[node].parent
        return None

    def _passed_for(self, name: str, scope: ast.AST) -> list[ast.AST]:
        """``def train(model, ..., acc_fn)`` called ``train(..., numpy_iou)``: what the file's calls pass for a
        parameter (by position or keyword), when every call passes something."""
        info = self.functions.get(scope)
        if info is None or info.name == "__init__" or name not in info.positional + info.keyword_only:
            return []
        passed = []
        for site in call_sites(self.index, info):
            value = passed_at(site, info, name)
            if value is None or any(isinstance(a, ast.Starred) for a in site.args):
                return []
            passed.append(value)
        return passed

    def held_function(self, node: ast.AST, scope: ast.AST) -> Optional[FunctionInfo]:
        """The user's function an expression evaluates to: a def's own name, a name bound to one (``step =
        train_step``; ``step = make_step(model)`` where make_step returns a nested def), functools.partial(f)."""
        held = self.held_functions(node, scope)
        return held[0] if len(held) == 1 else None

    def held_functions(self, node: ast.AST, scope: ast.AST, depth: int = 0) -> tuple[FunctionInfo, ...]:
        """Every user's function an expression may evaluate to, as held_function; several where a name is bound to
        one of several defs (``def analyze(..., extract_fn)`` called once with each of two extractors). Empty when
        one of its values is not a known function: then nothing is known."""
        if depth > _MAX_HELD_DEPTH:
            return ()
        if isinstance(node, ast.Name):
            key = (node.id, scope)
            if key in self._held:  # the pass asks again on every round: the answer never changes
                return self._held[key]
            self._held[key] = ()  # a guard against step = step
            found = self.resolve(node.id, scope)
            if found is not None:
                result = (found,) if isinstance(found, FunctionInfo) else ()
            else:
                values = list(self.index.assigned_values.get(node.id, ())) or self._passed_for(node.id, scope)
                result = self._all_known(self.held_functions(v, self.index.scope_of(v), depth + 1)
                                         for v in values if v is not node)
            self._held[key] = result
            return result
        if self_attribute(node):  # step_fn = self.train_step_fn, set in __init__ to self._make_train_step_fn()
            values = [v for v in self.index.assigned_by_dotted.get(f"self.{node.attr}", ())
                      if self._same_class(self.index.scope_of(v), scope)]
            return self._all_known(self.held_functions(v, self.index.scope_of(v), depth + 1) for v in values) \
                if values else ()
        if isinstance(node, ast.Call):
            if self._names.qual(node.func) == "functools.partial" and node.args:
                return self.held_functions(node.args[0], scope, depth + 1)
            factory = self.method_of(scope, node.func.attr) if self_attribute(node.func) else \
                self.resolve(node.func.id, scope) if isinstance(node.func, ast.Name) else None
            if not isinstance(factory, FunctionInfo):
                return ()
            return self._all_known(self.held_functions(v, factory.node, depth + 1) for v in self.returned(factory))
        return ()

    def _same_class(self, one: ast.AST, other: ast.AST) -> bool:
        first, second = self.functions.get(one), self.functions.get(other)
        return first is not None and second is not None and first.class_info is not None \
            and first.class_info is second.class_info

    @staticmethod
    def _all_known(options) -> tuple[FunctionInfo, ...]:
        """The functions of every option, in first-seen order; none at all when one option is not known."""
        found: list[FunctionInfo] = []
        for held in options:
            if not held:
                return ()
            found.extend(info for info in held if info not in found)
        return tuple(found)

    def returned(self, info: FunctionInfo) -> list[ast.AST]:
        """What ``info``'s own ``return`` statements hand back (bare returns aside), found once."""
        found = self._returns.get(info)
        if found is None:
            found, stack = [], list(info.node.body)
            while stack:
                node = stack.pop()
                if isinstance(node, ast.Return) and node.value is not None:
                    found.append(node.value)
                elif not isinstance(node, FUNCTION_TYPES + (ast.ClassDef, ast.Lambda)):
                    stack.extend(ast.iter_child_nodes(node))
            self._returns[info] = found
        return found

    def names_holding(self, info: FunctionInfo) -> set[str]:
        """Names other than its own that are bound to ``info`` (see held_function): more ways to call it."""
        if self._holders is None:
            self._holders = {}
            for name, values in self.index.assigned_values.items():
                if any(isinstance(v, (ast.Name, ast.Call)) for v in values):
                    held = self.held_function(ast.Name(id=name, ctx=ast.Load()), self.index.tree)
                    if held is not None and held.name != name:
                        self._holders.setdefault(held, set()).add(name)
                for value in values:  # step_fn = self.train_step_fn: one of the closures a factory method made
                    if self_attribute(value):
                        for one in self.held_functions(value, self.index.scope_of(value)):
                            if one.name != name:
                                self._holders.setdefault(one, set()).add(name)
            for function in self.functions.values():  # def train(..., acc_fn): called with train(..., numpy_iou)
                for name in function.positional + function.keyword_only:
                    held = self.held_function(ast.Name(id=name, ctx=ast.Load()), function.node) \
                        if self.index.calls_by_name.get(name) else None
                    if held is not None and held.name != name:
                        self._holders.setdefault(held, set()).add(name)
        return self._holders.get(info, set())

    def overrides(self, method: FunctionInfo) -> list[FunctionInfo]:
        """The methods of the file's subclasses (at any depth) that replace ``method``: what ``self.step(...)`` in
        a base class's loop runs for an instance of each (``Trainer.run`` calling the ``step`` that ``VAETrainer``
        and ``GANTrainer`` define)."""
        owner = method.class_info
        if owner is None:
            return []
        known = self._overrides.get(method)
        if known is None:
            known = self._overrides[method] = [
                other.methods[method.name] for other in self.classes.values()
                if other is not owner and method.name in other.methods
                and other.methods[method.name].class_info is other and owner in self._ancestors(other)]
        return known

    def _ancestors(self, info: ClassInfo, depth: int = 0) -> list[ClassInfo]:
        bases = self._bases_here(info)
        if depth >= _MAX_HELD_DEPTH:
            return bases
        return bases + [far for base in bases for far in self._ancestors(base, depth + 1)]

    def method_of(self, scope: ast.AST, name: str) -> Optional[FunctionInfo]:
        """``self.name`` called from inside a method of a class: that class's method ``name``."""
        info = self.functions.get(scope)
        if info is None or info.class_info is None:
            return None
        return info.class_info.methods.get(name)

    def duck_typed_methods(self, receiver: str, attr: str, scope: ast.AST) -> list[FunctionInfo]:
        """``def train_agent(agent, env): ... agent.choose_action(obs)`` where nothing in the file says what
        ``agent`` is: the methods ``attr`` of the file's classes named for the parameter (``DQNAgent``,
        ``PPOAgent``). Only for a parameter of the enclosing function, and only classes whose name ends with the
        parameter's name (underscores aside), so ``env.step`` does not run a ``Trainer.step``."""
        info = self.functions.get(scope)
        if info is None or receiver not in info.positional + info.keyword_only or receiver in ("self", "cls"):
            return []
        wanted = receiver.replace("_", "").lower()
        if len(wanted) < 3:
            return []
        return [c.methods[attr] for c in self.classes.values()
                if attr in c.methods and c.name.replace("_", "").lower().endswith(wanted)]

    def classes_of(self, kind: int) -> list[ClassInfo]:
        """The user's classes a value of this kind may be an instance of."""
        bits = kind >> INSTANCE_SHIFT
        found = []
        while bits:
            low = bits & -bits
            info = self.by_instance_bit.get(low << INSTANCE_SHIFT)
            if info is not None:
                found.append(info)
            bits ^= low
        return found

    def children_of(self, node: ast.AST) -> list[FunctionInfo]:
        """The functions defined directly in ``node``'s body (a def's nested defs)."""
        if self._children is None:
            self._children = {}
            for info in self.functions.values():
                self._children.setdefault(info.parent, []).append(info)
        return self._children.get(node, [])


def call_sites(index: FileIndex, info: FunctionInfo) -> list[ast.Call]:
    """The calls in the file by the function's name (the class's name for an ``__init__``)."""
    if info.name == "__init__" and info.class_info is not None:
        return index.calls_by_name.get(info.class_info.name, [])
    method = info.class_info is not None  # (model.train() is no call of a plain function train(); a method's is)
    return [c for c in index.calls_by_name.get(info.name, []) if isinstance(c.func, ast.Attribute) == method]


def passed_at(site: ast.Call, info: FunctionInfo, name: str) -> Optional[ast.expr]:
    """What a call passes for the parameter ``name`` (by keyword, else by position), or None."""
    value = next((k.value for k in site.keywords if k.arg == name), None)
    position = info.positional.index(name) - info.takes_self if name in info.positional else None
    if value is None and position is not None and 0 <= position < len(site.args):
        value = site.args[position]
    return value


def evaluated_arguments(call: ast.Call, info: FunctionInfo) -> list[str]:
    """What ``call`` hands for the parameters whose module the function switches to eval mode on every call (``def
    evaluate(model, x): model.eval(); ...``, a statement of its own body, not under a branch): the caller's names,
    whose modules are then in eval mode too (a module is switched in place)."""
    found = []
    for statement in info.node.body:
        switch = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(switch, ast.Call) and isinstance(switch.func, ast.Attribute) \
                and isinstance(switch.func.value, ast.Name) \
                and switch.func.value.id in info.positional + info.keyword_only \
                and (switch.func.attr == "eval" or switch.func.attr == "train" and switch.args
                     and isinstance(switch.args[0], ast.Constant) and switch.args[0].value is False):
            handed = passed_at(call, info, switch.func.value.id)
            if handed is not None and (key := dotted(handed)) is not None:
                found.append(key)
    return found
