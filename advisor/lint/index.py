"""One walk over a module's AST that every check shares: parents, and the nodes checks look for, in order.

Walking a 10,000-line file costs tens of milliseconds; doing it once instead of once per check is most
of what keeps the linter well under a second.
"""

from __future__ import annotations

import ast
from functools import cached_property
from typing import Any, Callable, Iterator, Optional, Union

from advisor.lint.names import dotted

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_AST = ast.AST
# Fields that never hold a node worth visiting: context and operator singletons, names, flags.
_SKIPPED_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "arg", "name", "names", "module", "level", "kind",
                             "type_comment", "conversion", "simple", "is_async"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def children(node: ast.AST) -> list[ast.AST]:
    """ast.iter_child_nodes without the Load/Store/operator singletons, about a third faster."""
    cls = node.__class__
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        fields = _CHILD_FIELDS[cls] = tuple(f for f in cls._fields if f not in _SKIPPED_FIELDS)
    found = []
    for name in fields:
        value = getattr(node, name, None)
        if value.__class__ is list:
            for item in value:
                if isinstance(item, _AST):
                    found.append(item)
        elif isinstance(value, _AST):
            found.append(value)
    return found

def _parameter_names(functions: list) -> Iterator[str]:
    for function in functions:
        arguments = function.args
        for argument in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
            yield argument.arg
        for argument in (arguments.vararg, arguments.kwarg):
            if argument is not None:
                yield argument.arg


def target_names(target: Optional[ast.AST]) -> set[str]:
    """The names an assignment or loop target binds (``for i, (x, y) in ...`` -> {"i", "x", "y"})."""
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)} if target is not None else set()


def parameter_defaults(arguments: ast.arguments) -> dict[str, ast.expr]:
    """Each parameter's default by name (``def f(x, n=3, *, device="cpu")`` -> {"n": 3, "device": "cpu"})."""
    positional = arguments.posonlyargs + arguments.args
    found = {a.arg: d for a, d in zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults,
                                      strict=True)}
    found.update((a.arg, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d is not None)
    return found


ScopeNode = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef]
LOOP_TYPES = (ast.For, ast.AsyncFor, ast.While)
FUNCTION_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)


class FileIndex:
    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.parents: dict[ast.AST, ast.AST] = {}
        self.calls: list[ast.Call] = []
        self.loops: list[ast.AST] = []
        self.withs: list[ast.AST] = []
        self.functions: list[FunctionNode] = []
        self.classes: list[ast.ClassDef] = []
        self.imports: list[ast.AST] = []
        self.assigns: list[ast.AST] = []  # Assign, AugAssign, AnnAssign
        self.formatted: list[ast.FormattedValue] = []
        self.subscripts: list[ast.Subscript] = []
        self.tests: list[ast.AST] = []  # If, While, Assert, IfExp: nodes whose .test Python makes a bool of
        self.truth_ops: list[ast.AST] = []  # `not x`, `a or b`: Python makes a bool of their operands too
        self.bound_names: set[str] = set()
        buckets = {
            ast.Call: self.calls, ast.For: self.loops, ast.AsyncFor: self.loops, ast.While: self.loops,
            ast.With: self.withs, ast.AsyncWith: self.withs, ast.FunctionDef: self.functions,
            ast.AsyncFunctionDef: self.functions, ast.ClassDef: self.classes, ast.Import: self.imports,
            ast.ImportFrom: self.imports, ast.Assign: self.assigns, ast.AugAssign: self.assigns,
            ast.AnnAssign: self.assigns, ast.FormattedValue: self.formatted, ast.Subscript: self.subscripts,
            ast.If: self.tests, ast.Assert: self.tests, ast.IfExp: self.tests, ast.BoolOp: self.truth_ops,
        }
        parents = self.parents
        self.subtractions: list[ast.BinOp] = []
        self.text_formats: list[ast.BinOp] = []  # "%.3f" % value
        stack: list[ast.AST] = [tree]
        fields_of, binop, sub = _CHILD_FIELDS, ast.BinOp, ast.Sub
        while stack:  # children() inlined: this loop runs once per node of the file
            node = stack.pop()
            cls = node.__class__
            bucket = buckets.get(cls)
            if bucket is not None:
                bucket.append(node)
            elif cls is ast.UnaryOp and node.op.__class__ is ast.Not:
                self.truth_ops.append(node)
            elif cls is binop and node.op.__class__ is sub:
                self.subtractions.append(node)
            elif cls is binop and node.op.__class__ is ast.Mod and node.left.__class__ in (ast.Constant, ast.JoinedStr):
                self.text_formats.append(node)
            fields = fields_of.get(cls)
            if fields is None:
                fields = fields_of[cls] = tuple(f for f in cls._fields if f not in _SKIPPED_FIELDS)
            if not fields:
                continue
            found = []
            for name in fields:
                value = getattr(node, name, None)
                if value.__class__ is list:
                    for item in value:
                        if isinstance(item, _AST):
                            parents[item] = node
                            found.append(item)
                elif isinstance(value, _AST):
                    parents[value] = node
                    found.append(value)
            found.reverse()
            stack.extend(found)
        for loop in self.loops:
            if isinstance(loop, ast.While):
                self.tests.append(loop)
        # name -> values assigned to it anywhere (flow-insensitive), and callee name -> call sites
        self.assigned_values: dict[str, list[ast.AST]] = {}
        for node in self.assigns:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    self.bound_names.add(target.id)
                    if node.value is not None:
                        self.assigned_values.setdefault(target.id, []).append(node.value)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                        and len(target.elts) == len(node.value.elts) \
                        and not any(isinstance(v, ast.Starred) for v in node.value.elts):
                    # a, b = x[i], y[i]: each name gets its own value, pairwise (a starred value: unknown)
                    for element, value in zip(target.elts, node.value.elts, strict=True):
                        if isinstance(element, ast.Name):
                            self.assigned_values.setdefault(element.id, []).append(value)
        self.calls_by_name: dict[str, list[ast.Call]] = {}
        for call in self.calls:
            func = call.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name is not None:
                self.calls_by_name.setdefault(name, []).append(call)
        # `opt = AdamW(junior.parameters())`: whatever `junior` is made by, it is a model
        self.parameter_owners = frozenset(
            c.func.value.id for c in self.calls if isinstance(c.func, ast.Attribute)
            and c.func.attr in ("parameters", "named_parameters") and isinstance(c.func.value, ast.Name))
        self._scope_cache: dict[ast.AST, ScopeNode] = {}
        self._memos: dict[str, Any] = {}
        self.parameters = frozenset(_parameter_names(self.functions))
        self.bound_names.update(f.name for f in self.functions)
        self.bound_names.update(c.name for c in self.classes)

    @cached_property
    def names_by_id(self) -> dict[str, list[ast.Name]]:
        """Every plain name in the file (read or written), by identifier, in no particular order: built on first
        use from the parent map, so a question about one name never walks the tree."""
        found: dict[str, list[ast.Name]] = {}
        for node in self.parents:
            if node.__class__ is ast.Name:
                found.setdefault(node.id, []).append(node)  # type: ignore[attr-defined]
        return found

    @cached_property
    def assigned_by_dotted(self) -> dict[str, list[ast.AST]]:
        """``self.forces = [...]``: the values of plain assignments, by the dotted name they are bound to (names
        and attribute chains), built on first use."""
        found: dict[str, list[ast.AST]] = {}
        for node in self.assigns:
            if isinstance(node, ast.Assign):
                for key in {dotted(target) for target in node.targets} - {None}:
                    found.setdefault(key, []).append(node.value)  # type: ignore[arg-type]
        return found

    @cached_property
    def unpacked_names(self) -> dict[str, list[tuple[int, ast.AST, ast.Assign]]]:
        """``w, c = seq.shape``: for each name a tuple unpacking binds, (its position, the unpacked value, the
        assignment), built on first use."""
        found: dict[str, list[tuple[int, ast.AST, ast.Assign]]] = {}
        for node in self.assigns:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple):
                for position, name in enumerate(node.targets[0].elts):
                    if isinstance(name, ast.Name):
                        found.setdefault(name.id, []).append((position, node.value, node))
        return found

    @cached_property
    def text_keys(self) -> dict[str, frozenset[str]]:
        """For a loop variable drawn from a list of dict literals (``samples.append({"question":
        tokenizer.decode(ids), "path": path_trace[i]})`` ... ``for sample in samples:``), the keys every such dict
        binds to text: ``sample["question"]`` is a string though other entries hold CUDA tensors. Built on first use."""
        text: dict[str, dict[str, bool]] = {}
        for call in self.calls_by_name.get("append", ()):
            func = call.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and len(call.args) == 1 \
                    and isinstance(call.args[0], ast.Dict):
                keys = text.setdefault(func.value.id, {})
                for key, value in zip(call.args[0].keys, call.args[0].values, strict=True):
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        keys[key.value] = keys.get(key.value, True) and _makes_text(value)
        found: dict[str, frozenset[str]] = {}
        for loop in self.loops:
            drawn, target = getattr(loop, "iter", None), getattr(loop, "target", None)
            if isinstance(drawn, ast.Name) and drawn.id in text and isinstance(target, ast.Name):
                found[target.id] = frozenset(k for k, always in text[drawn.id].items() if always)
        return found

    @cached_property
    def loops_by_target(self) -> dict[str, list[ast.AST]]:
        """``for L in Ls:``: the loops whose target is a plain name, by that name (int_value asks for every name it
        reads, to learn the values a loop rebinds it to). Built on first use."""
        found: dict[str, list[ast.AST]] = {}
        for loop in self.loops:
            target = getattr(loop, "target", None)
            if isinstance(target, ast.Name):
                found.setdefault(target.id, []).append(loop)
        return found

    @cached_property
    def stored_under_keys(self) -> dict[str, list[ast.AST]]:
        """The values the file stores under each text key, in a dict literal (``{"device": "cpu"}``) or by a
        subscript assignment (``configs["device"] = torch.device("cpu")``), whatever dict they go into. Built on first
        use."""
        found: dict[str, list[ast.AST]] = {}
        for node in self.parents:
            if node.__class__ is ast.Dict:
                for key, value in zip(node.keys, node.values, strict=True):  # type: ignore[attr-defined]
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        found.setdefault(key.value, []).append(value)
        for node in self.assigns:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) \
                            and isinstance(target.slice.value, str):
                        found.setdefault(target.slice.value, []).append(node.value)
        return found

    @cached_property
    def indexed_by_items(self) -> frozenset[str]:
        """``self.features[example_index.item()]``: the containers (dotted names) the file indexes with a number read
        back from a tensor somewhere -- host lists or dicts, whatever built them. Built on first use."""
        found = set()
        for node in self.parents:
            if node.__class__ is ast.Subscript:
                key, slice_ = dotted(node.value), node.slice  # type: ignore[attr-defined]
                if key is not None and isinstance(slice_, ast.Call) and isinstance(slice_.func, ast.Attribute) \
                        and slice_.func.attr == "item" and not slice_.args:
                    found.add(key)
        return frozenset(found)

    @cached_property
    def loaded_from_state_dicts(self) -> frozenset[str]:
        """``target_net.load_state_dict(policy_net.state_dict())``: the dotted names whose weights the file loads
        from another module's state_dict (a DQN's target network), built on first use."""
        found = set()
        for call in self.calls_by_name.get("load_state_dict", ()):
            if isinstance(call.func, ast.Attribute) and call.args and isinstance(call.args[0], ast.Call) \
                    and isinstance(call.args[0].func, ast.Attribute) and call.args[0].func.attr == "state_dict":
                key = dotted(call.func.value)
                if key is not None:
                    found.add(key)
        return frozenset(found)

    @cached_property
    def devices_handed(self) -> frozenset[str]:
        """``net.to(env.device)``, ``torch.zeros(n, device=sim.device)``: the dotted names whose ``.device`` the file
        hands to a call, built on first use."""
        return frozenset(key for call in self.calls for value in [*call.args, *(k.value for k in call.keywords)]
                         if isinstance(value, ast.Attribute) and value.attr == "device"
                         and (key := dotted(value.value)) is not None)

    @cached_property
    def keyed_by_text(self) -> frozenset[tuple[ScopeNode, str]]:
        """(scope, name) for each name a function subscripts with a string (``batch["mask"]``): a mapping there,
        built on first use."""
        return frozenset((self.scope_of(s), s.value.id) for s in self.subscripts  # type: ignore[attr-defined]
                         if isinstance(s.value, ast.Name) and isinstance(s.slice, ast.Constant)
                         and isinstance(s.slice.value, str))

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        parent = self.parents.get(node)
        while parent is not None:
            yield parent
            parent = self.parents.get(parent)

    def memo(self, key: str, make: Callable[[], Any]) -> Any:
        """A fact a check works out once per file, kept on its index (an lru_cache would keep old trees alive)."""
        if key not in self._memos:
            self._memos[key] = make()
        return self._memos[key]

    def scope_of(self, node: ast.AST) -> ScopeNode:
        """The function (or module) whose body holds ``node``; lambdas belong to where they are written."""
        cached = self._scope_cache.get(node)
        if cached is None:
            cached = self.tree
            for parent in self.ancestors(node):
                if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                    cached = parent
                    break
            self._scope_cache[node] = cached
        return cached

    def grouped_by_scope(self, nodes: list) -> dict[ScopeNode, list]:
        """``nodes`` (calls, loops, assignments ...) by the function (or module) whose body holds each, in order."""
        found: dict[ScopeNode, list] = {}
        for node in nodes:
            found.setdefault(self.scope_of(node), []).append(node)
        return found

    def enclosing_loops(self, node: ast.AST) -> list[ast.AST]:
        """Loops around ``node`` inside its own function, innermost first. A for-loop's iterable is not inside."""
        loops = []
        child = node
        for parent in self.ancestors(node):
            if isinstance(parent, FUNCTION_TYPES + (ast.Lambda, ast.ClassDef)):
                break
            if isinstance(parent, LOOP_TYPES) and not (isinstance(parent, (ast.For, ast.AsyncFor))
                                                       and child is parent.iter):
                loops.append(parent)
            child = parent
        return loops

    def statement_of(self, node: ast.AST) -> Optional[ast.stmt]:
        if isinstance(node, ast.stmt):
            return node
        for parent in self.ancestors(node):
            if isinstance(parent, ast.stmt):
                return parent
        return None

    def statements_after(self, statement: ast.stmt) -> list[ast.stmt]:
        """The statements that follow ``statement`` in its own block (a body, an else, a finally)."""
        owner = self.parents.get(statement)
        for field_name in ("body", "orelse", "finalbody"):
            block = getattr(owner, field_name, None)
            if isinstance(block, list) and statement in block:
                return block[block.index(statement) + 1:]
        return []

    def last_write_before(self, name: str, statement: ast.stmt) -> Optional[ast.stmt]:
        """The last statement of ``statement``'s own block, before it, that writes the plain name ``name`` anywhere
        inside it (``r = 5`` before ``while r:``; a loop or a branch that rebinds it), or None. Found from the
        name's stores, not by walking the block: blocks can be a whole module."""
        owner = self.parents.get(statement)
        block = next((getattr(owner, field) for field in ("body", "orelse", "finalbody")
                      if statement in getattr(owner, field, [])), [])
        found: Optional[ast.stmt] = None
        in_block: Optional[set[int]] = None  # (made once: `node in block` compares a module's statements one by one)
        for store in self.names_by_id.get(name, ()):
            if not isinstance(store.ctx, ast.Store):
                continue
            node: Optional[ast.AST] = store
            while node is not None and self.parents.get(node) is not owner:
                node = self.parents.get(node)
            if not isinstance(node, ast.stmt) or node.lineno >= statement.lineno \
                    or found is not None and node.lineno <= found.lineno:
                continue
            if in_block is None:
                in_block = {id(s) for s in block}
            if id(node) in in_block:
                found = node
        return found

    def last_write_reaching(self, name: str, statement: Optional[ast.stmt]) -> Optional[ast.stmt]:
        """``last_write_before`` in ``statement``'s block, else in the blocks around it -- out of a loop, a branch, and
        a nested ``def run_fn(): transform_fn(waveform)`` whose free name the enclosing function bound."""
        for _ in range(8):
            if statement is None:
                return None
            written = self.last_write_before(name, statement)
            if written is not None:
                return written
            statement = self.parents.get(statement)
            while statement is not None and not isinstance(statement, ast.stmt):
                statement = self.parents.get(statement)
        return None


_TEXT_METHODS = frozenset({"decode", "batch_decode", "join", "format", "strip", "lower", "upper", "replace"})


def _makes_text(value: ast.AST) -> bool:
    """A string literal, an f-string, ``str(x)``, or a method that hands back text (``tokenizer.decode(ids)``)."""
    if isinstance(value, ast.JoinedStr) or isinstance(value, ast.Constant) and isinstance(value.value, str):
        return True
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    return isinstance(func, ast.Name) and func.id == "str" \
        or isinstance(func, ast.Attribute) and func.attr in _TEXT_METHODS
