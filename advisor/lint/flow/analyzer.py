"""The data-flow pass: which names hold CUDA devices, CUDA tensors, CUDA models (and float64, fresh CPU
tensors, DataLoaders...) at each point of each function and of the module.

Flow-sensitive inside a body (an assignment replaces what a name held; branches join; loops run to a
fixpoint), and module-level across functions: every function is analysed with the kinds its call sites
pass (``train(model, device)`` learns that ``device`` is CUDA from ``main()``), returns a summary kind
(a ``try_gpu()`` helper returns a CUDA device), and methods share what ``__init__`` stored in
``self.model``. A worklist re-analyses only what changed; kinds only grow, and a pass cap bounds it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional

from advisor.lint import torch_api as api
from advisor.lint.flow.argparse_options import argparse_options, required_options
from advisor.lint.flow.branch_shapes import tensor_tested_away
from advisor.lint.flow.call_results import defaulted_device, initial_parameter_kind, kept_through_call, returned_shape
from advisor.lint.flow.calls import CallEvaluator
from advisor.lint.flow.class_fields import bind_class_fields
from advisor.lint.flow.conditions import cuda_condition
from advisor.lint.flow.device_sources import assigned_device, chosen_elsewhere
from advisor.lint.flow.env import Environment
from advisor.lint.flow.expression_statements import ExpressionStatements
from advisor.lint.flow.kinds import (
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_TENSOR,
    EVAL,
    F64,
    FRESH,
    INSTANCE_BITS,
    MODEL,
    MODEL_BITS,
    NUMPY,
)
from advisor.lint.flow.moves import moved_in_place
from advisor.lint.flow.scopes import ClassInfo, FunctionInfo, ScopeIndex, call_sites, evaluated_arguments
from advisor.lint.index import FileIndex, parameter_defaults
from advisor.lint.names import Names, dotted

_MAX_PASSES = 8
_MAX_NESTING = 20  # on-demand analyses inside each other (calls inside calls)


@dataclass
class FlowResult:
    values: dict[ast.AST, int]
    scopes: ScopeIndex
    module_env: dict[str, int]
    default_cuda: bool = False
    uses_cuda: bool = False
    readers: dict[FunctionInfo, set] = field(default_factory=dict)

    def kind(self, node: Optional[ast.AST]) -> int:
        return self.values.get(node, 0) if node is not None else 0


def _without_cuda(kind: int) -> int:
    """A value on the branch that runs without CUDA: a tensor it holds is on the host
    (``if device.type == 'cuda': loss = loss.cpu()`` leaves ``loss`` on the host either way)."""
    return (kind & ~CUDA_TENSOR) | CPU_TENSOR if kind & CUDA_TENSOR else kind


def analyze(index: FileIndex, names: Names, fixed: Optional[dict[ast.If, bool]] = None) -> FlowResult:
    """``fixed``: ifs whose answer the file fixes (dead_branches.fixed_answers): only the branch that runs is followed."""
    analyzer = FlowAnalyzer(index, names, fixed or {})
    analyzer.run()
    return FlowResult(analyzer.values, analyzer.scopes, analyzer.environment.module_env, analyzer.default_cuda,
                      analyzer.cuda_seen > 0, analyzer.readers)


class FlowAnalyzer(ExpressionStatements, CallEvaluator):
    def __init__(self, index: FileIndex, names: Names, fixed: Optional[dict[ast.If, bool]] = None) -> None:
        self.index = index
        self.fixed = fixed or {}
        self.names = names
        self.scopes = ScopeIndex(index, names)
        self.values: dict[ast.AST, int] = {}
        self.default_cuda, self.cuda_seen = False, 0
        self.environment = Environment()
        # the expression layers ask the environment through these (bound once: they run for every name)
        self.lookup, self.bind = self.environment.lookup, self.environment.bind
        self.branches, self.loop = self.environment.branches, self.environment.loop
        self.scope: ast.AST = index.tree
        self.returned, self.module_dirty = 0, True
        self.dirty: set[FunctionInfo] = set()
        self.readers: dict[FunctionInfo, set] = {}
        self.active: set[FunctionInfo] = set()  # being analysed on demand (recursion guard)
        self.parsed_args, self.argparse_defaults = argparse_options(index)
        self.required_options = required_options(index)
        tree = index.tree  # names the module assigns: a function reads them once the module's pass has bound them
        self.module_globals = frozenset(name for name, values in index.assigned_values.items()
                                        if any(index.scope_of(v) is tree for v in values))
        self.init_handlers()
        self._stmt_handlers = {
            ast.Assign: self._assign, ast.AugAssign: self._augassign, ast.AnnAssign: self._annassign,
            ast.Expr: self._expr, ast.If: self._if, ast.For: self._for, ast.AsyncFor: self._for,
            ast.While: self._while, ast.With: self._with, ast.AsyncWith: self._with, ast.Try: self._try,
            ast.Return: self._return, ast.FunctionDef: self._def, ast.AsyncFunctionDef: self._def,
            ast.ClassDef: self._classdef, ast.Match: self._match,
        }
        if hasattr(ast, "TryStar"):
            self._stmt_handlers[ast.TryStar] = self._try

    # -- driver ------------------------------------------------------------------------------------
    def run(self) -> None:
        order = list(self.scopes.functions.values())
        self.dirty = set(order)
        for _ in range(_MAX_PASSES):
            if not self.module_dirty and not self.dirty:
                break
            if self.module_dirty:
                self.module_dirty = False
                before = self.environment.module_env
                self._analyze_module()
                after = self.environment.module_env
                for key in before.keys() | after.keys():
                    if before.get(key) != after.get(key):
                        self.dirty.update(self.environment.global_reads.get(key, ()))
            for info in order:
                if info in self.dirty:
                    self._analyze_function(info)

    def _analyze_module(self) -> None:
        environment = self.environment
        environment.env, environment.outer, environment.current = {}, [], None
        self.scope = self.index.tree
        self._block(self.index.tree.body)
        environment.module_env = environment.env

    def _analyze_function(self, info: FunctionInfo) -> None:
        self.dirty.discard(info)
        info.analyzed = True
        before = (info.return_kind, info.touches_cuda, info.exit_env, info.moves_data_to_cuda)
        environment = self.environment
        self.scope, self.returned = info.node, 0
        environment.current, environment.outer, environment.env = info, self._outer_envs(info), {}
        for name in info.positional + info.keyword_only + [info.vararg, info.kwarg]:
            if name is not None:
                environment.env[name] = info.param_kinds.get(name, 0) or initial_parameter_kind(
                    self.index, info, name) or self._module_model_of(info, name)
        if info.takes_self and info.class_info is not None:
            environment.env[info.positional[0]] = (MODEL if info.class_info.is_model else 0) | info.class_info.instance_bit
        seen = self.cuda_seen
        self._block(info.node.body)
        info.return_kind |= self.returned
        info.touches_cuda = info.touches_cuda or self.cuda_seen > seen
        info.exit_env = environment.env
        if (info.return_kind, info.touches_cuda) != before[:2]:
            for reader in self.readers.get(info, ()):
                if reader is None:
                    self.module_dirty = True
                else:
                    self.dirty.add(reader)
        if info.exit_env != before[2]:
            self.dirty.update(self.scopes.children_of(info.node))
        if info.moves_data_to_cuda and not before[3]:
            # a model this function (or its class) is handed sits beside that data: run again the ones handed a model
            siblings = info.class_info.methods.values() if info.class_info is not None else [info]
            self.dirty.update(sibling for sibling in siblings
                              if any(api.FREE_MODEL_NAME.match(p) for p in sibling.positional + sibling.keyword_only))
        if info.class_info is not None:
            self._share_attributes(info.class_info, info.exit_env)

    def _module_model_of(self, info: FunctionInfo, name: str) -> int:
        """``def recall_at_k(model, k=10):`` that the file never calls, beside a module-level ``model = MF(...).to(device)``:
        a script's helper written for the script's model (labelled as written) -- its ``model`` is that model."""
        if info.class_info is not None or not isinstance(info.parent, ast.Module) or call_sites(self.index, info):
            return 0
        return self.environment.module_env.get(name, 0) & (MODEL_BITS | INSTANCE_BITS)

    def _outer_envs(self, info: FunctionInfo) -> list[dict[str, int]]:
        envs: list[dict[str, int]] = []
        if info.class_info is not None:
            envs.append(info.class_info.attrs)
        parent = info.parent
        while isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            enclosing = self.scopes.functions.get(parent)
            if enclosing is not None:
                envs.append(enclosing.exit_env)
                parent = enclosing.parent
            else:
                parent = self.scopes.classes[parent].parent
        envs.append(self.environment.module_env)
        return envs

    def _share_attributes(self, info: ClassInfo, env: dict[str, int]) -> None:
        changed = False
        for key, kind in env.items():
            if key.startswith("self.") and (info.attrs.get(key, 0) | kind) != info.attrs.get(key):
                info.attrs[key] = info.attrs.get(key, 0) | kind
                changed = True
        if changed:
            self.dirty.update(info.methods.values())

    # -- calls into the user's code ----------------------------------------------------------------
    def call_function(self, info: FunctionInfo, call: ast.Call, pos: list[int], kw: dict, skip_self: bool) -> int:
        info.called = True
        params = info.positional[1:] if skip_self else info.positional
        grown = False
        for index, kind in enumerate(pos):
            is_starred = isinstance(call.args[index], ast.Starred)
            name = params[index] if index < len(params) and not is_starred else info.vararg
            grown |= self._grow(info, name, kind)
        for name, kind in kw.items():
            target = name if name in params or name in info.keyword_only else info.kwarg
            grown |= self._grow(info, target, kind)
        if grown:
            self.dirty.add(info)
        for key in evaluated_arguments(call, info):  # def evaluate(model): model.eval() -- the caller's model too
            if (self.lookup(key) or 0) & MODEL_BITS:
                self.bind(key, (self.lookup(key) or 0) | EVAL)
        return self.return_kind_of(info)

    def return_kind_of(self, info: FunctionInfo) -> int:
        """What ``info`` returns, as far as it is known: analysed now on first use (the caller gets a real kind at
        once), and the current scope re-run when it grows. Also for methods nothing in the file calls by name:
        a Dataset's ``__getitem__`` (the loader calls it), a ``@property`` read as an attribute."""
        if not info.analyzed and info not in self.active and len(self.active) < _MAX_NESTING:
            self._analyze_now(info)
        self.readers.setdefault(info, set()).add(self.environment.current)
        return info.return_kind

    def _analyze_now(self, info: FunctionInfo) -> None:
        environment = self.environment
        saved = (environment.env, environment.outer, environment.current, environment.trail, self.scope, self.returned)
        self.active.add(info)
        environment.trail = []
        try:
            self._analyze_function(info)
        finally:
            self.active.discard(info)
            environment.env, environment.outer, environment.current, environment.trail, self.scope, self.returned = saved

    def _grow(self, info: FunctionInfo, name: Optional[str], kind: int) -> bool:
        if name is None or not kind:
            return False
        old = info.param_kinds.get(name, 0)
        if old | kind == old:
            return False
        info.param_kinds[name] = old | kind
        return True

    def run_forward(self, held: int, call: ast.Call, pos: list[int], kw: dict) -> int:
        """`net(x)` with `net = Net()` of the user's nn.Module class runs Net.forward on x: its parameters learn
        what the call passes (a clock read inside forward then times CUDA work)."""
        out = 0
        if held & INSTANCE_BITS:  # (and `metrics = self(y, preds)` / `meter(y, p)` of a class of the file's own with
            # a __call__: what that method hands back)
            for info in self.scopes.classes_of(held):
                method = info.methods.get("forward") if info.is_model and held & MODEL_BITS \
                    else info.methods.get("__call__")
                if method is not None:
                    out |= self.call_function(method, call, pos, kw, skip_self=True)
        return out

    def _name(self, node: ast.Name) -> int:
        if node.id in self.module_globals and self.scope is not self.index.tree and self.lookup(node.id) is None:
            return 0  # run on demand before the module's first pass bound this global: not yet known
        return super()._name(node)

    def instantiate(self, info: ClassInfo, call: ast.Call, pos: list[int], kw: dict) -> int:
        init = info.methods.get("__init__")
        if init is not None:
            self.call_function(init, call, pos, kw, skip_self=True)
        else:  # Config(device=args.device) of a dataclass: the keyword fills the field it names
            for name, kind in kw.items():
                if name is not None and "self." + name in info.attrs:
                    info.attrs["self." + name] |= kind
        return (MODEL if info.is_model else 0) | info.instance_bit

    # -- statements --------------------------------------------------------------------------------
    def _block(self, statements: list[ast.stmt]) -> None:
        handlers = self._stmt_handlers
        for statement in statements:
            handler = handlers.get(statement.__class__)
            if handler is not None:
                handler(statement)
            else:
                self._children(statement)

    def _assign(self, node: ast.Assign) -> None:
        value = node.value
        if len(node.targets) == 1 and isinstance(node.targets[0], (ast.Tuple, ast.List)) \
                and isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(node.targets[0].elts) \
                and not any(isinstance(e, ast.Starred) for e in value.elts):
            shape = tuple(self.ev(element) for element in value.elts)
            self.bind_target(node.targets[0], shape)
            return
        kind = self.ev(value) or kept_through_call(self, node.targets, value)
        if (moved := moved_in_place(value, kind, self.lookup)) is not None:
            self.bind(moved, kind)  # model_cpu = model_conv.cpu(): the module itself moved too
        if not kind and len(node.targets) == 1:
            kind = assigned_device(node.targets[0], value, self.scope, self.names.qual, self.values)
        for target in node.targets:
            self.bind_target(target, returned_shape(self, target, value) or kind)
            for element in (target.elts if isinstance(target, ast.Tuple) and chosen_elsewhere(value, self.names.qual) else []):
                if isinstance(element, ast.Name) and element.id in api.DEVICE_NAME_HINT and not self.lookup(element.id):
                    self.bind_target(element, CUDA_DEVICE)  # _, device = get_cuda_if_available(): as above

    def _augassign(self, node: ast.AugAssign) -> None:
        key = dotted(node.target)
        old = (self.lookup(key) or 0) if key is not None else 0
        kind = self.ev(node.value)
        if key is None:
            self.bind_target(node.target, 0)
            return
        new = (old | (kind & (CUDA_TENSOR | CPU_TENSOR | F64 | NUMPY))) & ~FRESH  # total += loss: on the GPU
        self.values[node.target] = self.values.get(node.target, 0) | new
        self.bind(key, new)

    def _annassign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.bind_target(node.target, self.ev(node.value))

    def _if(self, node: ast.If) -> None:
        self.ev(node.test)
        answer = self.fixed.get(node)
        if answer is not None:  # `if DATA_TYPE == "double":` with DATA_TYPE = "float": one branch only ever runs
            self._block(node.body if answer else node.orelse)
            return
        on_cuda = cuda_condition(node.test, self.names.qual, strict=True)
        self.bind_option_defaults(node)
        untensored = tensor_tested_away(node.test)  # if hasattr(t, "item"): ... else: t[0] -- no tensor in the else

        def orelse() -> None:
            if untensored is not None:
                self.bind(untensored, 0)
            self._block(node.orelse)
        self.branches([lambda: self._block(node.body), orelse], may_skip_all=False,
                      host_only=None if on_cuda is None else int(on_cuda), on_host=_without_cuda)

    def _for(self, node: ast.For) -> None:
        shape = self.element_of(node.iter, self.ev(node.iter))
        self.loop(lambda: self.bind_target(node.target, shape), lambda: self._block(node.body))
        self._block(node.orelse)

    def _while(self, node: ast.While) -> None:
        self.loop(lambda: self.ev(node.test), lambda: self._block(node.body))
        self._block(node.orelse)

    def _with(self, node: ast.With) -> None:
        for item in node.items:
            kind = self.ev(item.context_expr)
            if item.optional_vars is not None:
                self.bind_target(item.optional_vars, kind)
        self._block(node.body)

    def _try(self, node: ast.Try) -> None:  # (the body may stop anywhere: what follows sees both joined)
        self.branches([lambda: (self._block(node.body), self._block(node.orelse))], may_skip_all=True)
        for handler in node.handlers:
            if handler.type is not None:
                self.ev(handler.type)
            self.branches([lambda h=handler: self._handler(h)], may_skip_all=True)
        self._block(node.finalbody)

    def _handler(self, handler: ast.ExceptHandler) -> None:
        if handler.name:
            self.bind(handler.name, 0)
        self._block(handler.body)

    def _match(self, node: ast.AST) -> None:
        self.ev(node.subject)
        self.branches([lambda c=case: self._case(c) for case in node.cases], may_skip_all=True)

    def _case(self, case: ast.AST) -> None:
        if case.guard is not None:
            self.ev(case.guard)
        self._block(case.body)

    def _return(self, node: ast.Return) -> None:
        if node.value is not None:
            self.returned |= self.ev(node.value)

    def _def(self, node: ast.AST) -> None:
        for decorator in node.decorator_list:
            self.ev(decorator)
        info = self.scopes.functions.get(node)
        for argument, default in parameter_defaults(node.args).items():
            kind = defaulted_device(self.index, info, argument, self.ev(default))
            if info is not None and self._grow(info, argument, kind):
                self.dirty.add(info)

    def _classdef(self, node: ast.ClassDef) -> None:
        for expression in node.bases + node.decorator_list:
            self.ev(expression)
        bind_class_fields(self, node)  # class Args: device = torch.device("cpu")
        for statement in node.body:  # methods are analysed on their own; their defaults belong here
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._def(statement)

