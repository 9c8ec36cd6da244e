"""Expression half of the CUDA data-flow pass: what kind of value each expression produces.

Every evaluated node's kind is recorded (joined) in ``values``, which is what checks read afterwards.
The statement layer (analyzer.py) supplies the environment (env.py: ``lookup``, ``bind``) and the calls into
the user's own functions.
"""

from __future__ import annotations

import ast
import re
from functools import cached_property
from typing import Optional, Union

from advisor.lint import torch_api as api
from advisor.lint.flow.attributes import AttributeReads
from advisor.lint.flow.conditions import gpu_branch_device
from advisor.lint.flow.device_sources import configured_device
from advisor.lint.flow.kinds import (
    CONTAINER,
    CPU_DEVICE,
    CPU_TENSOR,
    CUDA_ANY,
    CUDA_DEVICE,
    CUDA_FN,
    CUDA_MODEL,
    CUDA_TENSOR,
    DTYPE,
    DTYPE_F64,
    F64,
    FRESH,
    MODEL,
    MODEL_BITS,
    NUMPY,
    TENSOR_BITS,
)
from advisor.lint.flow.literals import fixed_flag, is_device_key, is_text, name_hint, own_reduction
from advisor.lint.flow.scopes import ClassInfo, FunctionInfo, ScopeIndex
from advisor.lint.flow.subscript_reads import optimizer_setting
from advisor.lint.flow.unpacking import Unpacking, union
from advisor.lint.index import children
from advisor.lint.names import Names

_COUNTER_KEY = re.compile(r"^(epoch|epochs|step|steps|global_step|iteration|iterations|iter|n_iter|start_epoch)$")
# ret_dict['recognized_sents'], out["captions"]: decoded text a model's result dict carries beside its tensors
_TEXT_KEY = re.compile(r"(^|_)(sents?|sentences?|texts?|captions?|transcripts?|transcriptions?|hyps?|hypothes[ie]s)$",
                       re.IGNORECASE)


class ExprEvaluator(AttributeReads, Unpacking):
    names: Names
    scopes: ScopeIndex
    scope: ast.AST
    values: dict[ast.AST, int]
    default_cuda: bool
    cuda_seen: int
    parsed_args: set[str]  # names holding parser.parse_args()
    argparse_defaults: dict[str, Optional[ast.AST]]  # dest -> the default= of its add_argument (None: none)
    required_options: frozenset[str]  # dests of add_argument(..., required=True)

    # -- supplied by the statement layer ------------------------------------------------------------
    def lookup(self, key: str) -> Optional[int]:
        raise NotImplementedError

    def bind(self, key: str, kind: int) -> None:
        raise NotImplementedError

    def call_function(self, info: FunctionInfo, call: ast.Call, pos: list[int], kw: dict,
                      skip_self: bool) -> int:
        raise NotImplementedError

    def instantiate(self, info: ClassInfo, call: ast.Call, pos: list[int], kw: dict) -> int:
        raise NotImplementedError

    def init_handlers(self) -> None:
        table = type(self).__dict__.get("_handler_table")
        if table is None:  # once per class: plain functions, called with self
            table = {cls: getattr(type(self), name) for cls, name in _HANDLER_NAMES.items()}
            type(self)._handler_table = table
        self._handlers = table

    # -- expressions --------------------------------------------------------------------------------
    def ev(self, node: ast.AST, keep_fresh: bool = False) -> int:
        if keep_fresh and isinstance(node, ast.Name):
            kind = self.lookup(node.id) or 0
        else:
            handler = self._handlers.get(node.__class__)
            kind = handler(self, node) if handler is not None else self._children(node)
        if kind:
            values = self.values
            values[node] = values.get(node, 0) | kind
            if kind & (CUDA_ANY | CUDA_DEVICE):
                self.cuda_seen += 1
        return kind

    def _children(self, node: ast.AST) -> int:
        for child in children(node):
            if isinstance(child, (ast.expr, ast.comprehension, ast.keyword)):
                self.ev(child)
        return 0

    def _constant(self, node: ast.Constant) -> int:
        value = node.value
        if isinstance(value, str):
            if value.startswith("cuda"):
                return CUDA_DEVICE
            if value == "cpu":
                return CPU_DEVICE
            if value in api.F64_DTYPE_STRINGS:
                return DTYPE | DTYPE_F64
        return 0

    @cached_property
    def _stored_names(self) -> set[str]:
        """Every name the file binds somewhere (assigned, a loop or with target, a parameter, an import)."""
        index = self.index
        targets = [loop.target for loop in index.loops if isinstance(loop, (ast.For, ast.AsyncFor))]
        targets += [item.optional_vars for node in index.withs for item in node.items if item.optional_vars]
        stored = {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}
        return stored | index.parameters | set(self.names.imports) | index.bound_names

    def _name(self, node: ast.Name) -> int:
        if not isinstance(node.ctx, ast.Load):
            return 0
        kind = self.lookup(node.id)
        if kind is None:
            found = self.scopes.resolve(node.id, self.scope)
            if found is None:
                # bound nowhere in reach: a star import's DEVICE, a snippet's device -- or a snippet's model; but a
                # device every binding of which in the file (in another function) is "cpu" is the CPU
                elsewhere = self.index.assigned_values.get(node.id, ())
                if elsewhere and all(isinstance(v, ast.Constant) and v.value == "cpu" for v in elsewhere):
                    return CPU_DEVICE
                return name_hint(node.id, self.index) or (CUDA_MODEL if api.FREE_MODEL_NAME.match(node.id)
                                              and node.id not in self._stored_names else 0)
            return CUDA_FN if isinstance(found, FunctionInfo) and found.touches_cuda else 0
        if kind & FRESH:  # any use but a move makes the CPU copy needed: no longer "fresh"
            self.bind(node.id, kind & ~FRESH)
        return kind

    def qual_here(self, node: ast.AST) -> Optional[str]:
        """The import path of ``node`` unless its root name holds a tensor here (names.qual_unless_rebound)."""
        return self.names.qual_unless_rebound(node, lambda root: bool((self.lookup(root.id) or 0) & TENSOR_BITS))

    def _subscript(self, node: ast.Subscript) -> int:
        base = self.ev(node.value)
        self.ev(node.slice)
        if not isinstance(node.ctx, ast.Load) or optimizer_setting(node):
            return 0  # (optimizer.param_groups[0]["lr"]: a Python number, whatever the optimizer was built over)
        item = self.item_of_loop_tuple(node)  # p[0] of for p in model.named_parameters(): the name
        if item is not None:
            return item
        if not base & (TENSOR_BITS | NUMPY) and is_device_key(node.slice):  # cfg['device']
            return configured_device(self.index, node.slice.value, self.qual_here)
        if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str) \
                and (_COUNTER_KEY.match(node.slice.value) or _TEXT_KEY.search(node.slice.value)
                     or isinstance(node.value, ast.Name)
                     and node.slice.value in self.index.text_keys.get(node.value.id, ())):
            return 0  # checkpoint['epoch'], state['steps'] + 1: a counter saved as a Python number, not a tensor;
            # sample["question"] of {"question": tokenizer.decode(ids), ...}: text
        if base & CUDA_DEVICE and not base & (TENSOR_BITS | NUMPY) and not isinstance(node.slice, ast.Slice):
            return base & (CUDA_DEVICE | CPU_DEVICE)  # GPU = ['cuda:0', 'cuda:1']; torch.device(GPU[1]): one of the devices
        sliced_fill = FRESH if isinstance(node.value, ast.Call) and (
            _a_view(node.slice) or isinstance(node.slice, (ast.Name, ast.Attribute))) else 0
        return base & (CUDA_TENSOR | CPU_TENSOR | F64 | NUMPY | MODEL | CUDA_MODEL | sliced_fill)  # (linspace(...)[k:],
        # torch.eye(n)[labels]: rows picked from a fill are made from it too)

    def _binop(self, node: ast.BinOp) -> int:
        left, right = self.ev(node.left), self.ev(node.right)
        if isinstance(node.op, ast.Mod) and is_text(node.left):
            return 0  # "%.4f" % loss is text (and a host read of loss: see effects.py)
        both = left | right
        out = 0
        if both & CUDA_TENSOR:  # elbo / np.log(2.): a NumPy float64 scalar is a Python float to torch (np.float64
            # subclasses float) and promotes nothing; only a float64 tensor makes the result float64
            tensors = CUDA_TENSOR | CPU_TENSOR
            out = CUDA_TENSOR | ((left if left & tensors else 0) | (right if right & tensors else 0)) & F64
        elif both & CPU_TENSOR:  # new only when every tensor in it is (inputs @ weights + noise: data)
            if own_reduction(node.right, node.left):  # fill / fill.sum(): made from the fill alone
                right |= left & FRESH
            fresh = all(side & FRESH or not side & CPU_TENSOR for side in (left, right))
            out = CPU_TENSOR | (both & F64) | (FRESH if fresh else 0)
        if both & NUMPY and not out & CUDA_TENSOR:  # (with a CUDA tensor NumPy takes part as a scalar only)
            out |= NUMPY | (both & F64)
        if isinstance(node.op, ast.Add):
            out |= left & CUDA_DEVICE  # "cuda:" + str(rank)
        return out

    def _unaryop(self, node: ast.UnaryOp) -> int:
        operand = self.ev(node.operand)
        return 0 if isinstance(node.op, ast.Not) else operand & (TENSOR_BITS | NUMPY)

    def _compare(self, node: ast.Compare) -> int:
        both = 0
        for operand in [node.left] + node.comparators:
            kind = self.ev(operand)
            both |= 0 if kind & CONTAINER else kind  # `preds == []` compares a list, not tensors
        if all(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            return 0
        if any(isinstance(o, ast.Constant) and o.value is None for o in [node.left] + node.comparators):
            return 0  # `t.grad != None`: torch declines the comparison, Python compares identities -- a bool
        if any(isinstance(o, ast.Constant) and isinstance(o.value, str) or _joined_text(o, self.index.assigned_values)
               for o in [node.left] + node.comparators):
            return 0  # `cfg["name"] == "pool"`: a tensor is never compared with text -- a value of a mixed dict;
            # `gts == out[i]` with gts = ''.join(...): out[i] is a decoded string
        if both & CUDA_TENSOR:
            return CUDA_TENSOR
        return CPU_TENSOR if both & CPU_TENSOR else 0

    def _boolop(self, node: ast.BoolOp) -> int:
        out = 0
        for value in node.values:
            out |= self.ev(value)
        return out

    def _ifexp(self, node: ast.IfExp) -> int:
        self.ev(node.test)
        fixed = fixed_flag(node.test, self.index)  # USE_CUDA = False just before: "cuda" if USE_CUDA else "cpu"
        body, orelse = self.ev(node.body) if fixed is not False else 0, self.ev(node.orelse) if fixed is not True else 0
        return body | orelse | (gpu_branch_device(node.test, body, orelse, self.names.qual) if fixed is None else 0)

    def _joinedstr(self, node: ast.JoinedStr) -> int:
        for value in node.values:
            self.ev(value)
        first = node.values[0] if node.values else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.startswith("cuda"):
            return CUDA_DEVICE
        return 0

    def _formatted(self, node: ast.FormattedValue) -> int:
        self.ev(node.value)
        if node.format_spec is not None:
            self.ev(node.format_spec)
        return 0

    def _display(self, node: Union[ast.List, ast.Tuple, ast.Set]) -> int:
        out = 0
        for element in node.elts:
            out |= self.ev(element)
        if isinstance(getattr(node, "ctx", None), ast.Store):
            return 0
        return out | CONTAINER if out & TENSOR_BITS else out

    def _dict(self, node: ast.Dict) -> int:
        for key in filter(None, node.keys):
            self.ev(key)
        kinds = tuple(self.ev(value) for value in node.values)
        every_model = bool(kinds) and all(kind & MODEL_BITS for kind in kinds)  # a dict of models ({'E': E, 'C': C})
        out = union(kinds) & (TENSOR_BITS | NUMPY | (MODEL_BITS if every_model else 0))  # hands each back; a mixed
        return out | CONTAINER if out & (TENSOR_BITS | NUMPY) else out  # one ({'model': m, 'decoder': d}) none

    def _lambda(self, node: ast.Lambda) -> int:
        params = [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
        saved = {name: self.lookup(name) for name in params}
        for name in params:
            self.bind(name, 0)
        seen = self.cuda_seen
        self.ev(node.body)
        for name, kind in saved.items():
            self.bind(name, kind or 0)
        return CUDA_FN if self.cuda_seen > seen else 0

    def _comprehension(self, node: ast.AST) -> int:
        bound: dict[str, Optional[int]] = {}
        for generator in node.generators:
            shape = self.element_of(generator.iter, self.ev(generator.iter))
            for name_node in ast.walk(generator.target):
                if isinstance(name_node, ast.Name) and name_node.id not in bound:
                    bound[name_node.id] = self.lookup(name_node.id)
            self.bind_target(generator.target, shape)
            for condition in generator.ifs:
                self.ev(condition)
        if isinstance(node, ast.DictComp):
            self.ev(node.key)
            out = self.ev(node.value)
        else:
            out = self.ev(node.elt)
        for name, kind in bound.items():
            self.bind(name, kind or 0)
        out &= TENSOR_BITS | NUMPY
        return out | CONTAINER if out and not isinstance(node, ast.GeneratorExp) else out

    def _namedexpr(self, node: ast.NamedExpr) -> int:
        kind = self.ev(node.value)
        self.bind_target(node.target, kind)
        return kind

    def _passthrough(self, node: ast.AST) -> int:
        return self.ev(node.value) if node.value is not None else 0

    # -- calls --------------------------------------------------------------------------------------
    def eval_args(self, call: ast.Call, keep_first_fresh: bool = False) -> tuple[list[int], dict[Optional[str], int]]:
        """``keep_first_fresh``: the call reads only the first argument's shape (torch.ones_like(x)), so a tensor
        just made stays "just made" (a copy of it to the GPU is still one GA104 can avoid)."""
        pos = [self.ev(arg, keep_fresh=keep_first_fresh and index == 0) for index, arg in enumerate(call.args)]
        kw: dict[Optional[str], int] = {}
        for keyword in call.keywords:
            kw[keyword.arg] = kw.get(keyword.arg, 0) | self.ev(keyword.value)
        return pos, kw

    def _call(self, node: ast.Call) -> int:
        raise NotImplementedError  # calls.CallEvaluator knows the APIs


# Handlers by method name, bound per instance (see ``init_handlers``) so subclasses add calls.
_HANDLER_NAMES = {
    ast.Constant: "_constant", ast.Name: "_name", ast.Attribute: "_attribute", ast.Subscript: "_subscript",
    ast.BinOp: "_binop", ast.UnaryOp: "_unaryop", ast.Compare: "_compare", ast.BoolOp: "_boolop",
    ast.IfExp: "_ifexp", ast.JoinedStr: "_joinedstr", ast.FormattedValue: "_formatted", ast.List: "_display",
    ast.Tuple: "_display", ast.Set: "_display", ast.Dict: "_dict", ast.Lambda: "_lambda",
    ast.ListComp: "_comprehension", ast.SetComp: "_comprehension", ast.GeneratorExp: "_comprehension",
    ast.DictComp: "_comprehension", ast.NamedExpr: "_namedexpr", ast.Starred: "_passthrough",
    ast.Await: "_passthrough", ast.Yield: "_passthrough", ast.YieldFrom: "_passthrough", ast.Call: "_call",
}


def _a_view(index: ast.AST) -> bool:
    """``[k:]``, ``[None, None, ...]``, ``[:, None]``: slices and new axes, a view of the same elements."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return any(isinstance(p, ast.Slice) or isinstance(p, ast.Constant) and p.value in (None, Ellipsis) for p in parts) \
        and all(isinstance(p, ast.Slice) or isinstance(p, ast.Constant) and p.value in (None, Ellipsis) for p in parts)


def _joined_text(node: ast.AST, assigned: dict) -> bool:
    """``''.join(...)``, or a name bound only to such joins: a string."""
    if isinstance(node, ast.Name):
        values = assigned.get(node.id, ())
        return bool(values) and all(_joined_text(v, {}) for v in values)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" \
        and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)
