"""Which models are frozen, and which values carry an autograd graph: what GA107 asks before it says that a
forward pass records one.

A forward pass records a graph when the model has a parameter that requires grad, or when its input does.
Freezing is per model: ``for p in netW.parameters(): p.requires_grad = False`` freezes ``netW`` (and what is
reached through it, ``netW.encoder``), not the generator next to it; ``backbone.requires_grad_(False)``
freezes ``backbone``. A freeze in a loop over parameters whose model cannot be told (``for p in params:``)
is read as freezing everything, the cautious answer for a check that warns.

A frozen model still records when it is fed a value that carries a graph: the output of a model that
records (a generator's samples fed back into a frozen vocoder), or a tensor made with requires_grad=True.
That is a name-level, flow-insensitive question inside one function (a loop feeds its outputs back), cut by
the calls that leave the graph (``.detach()``, ``.item()``, ``.argmax()`` ...).
"""

from __future__ import annotations

import ast
import re
from typing import Callable, Optional

from advisor.lint.checks.helper_freezes import frozen_through_calls
from advisor.lint.index import children
from advisor.lint.names import last_identifier

_LEAVES_GRAPH = frozenset({"detach", "detach_", "item", "tolist", "numpy", "argmax", "argmin", "argsort", "size",
                           "dim", "numel", "nonzero", "data"})
_PARAMETER_LISTS = frozenset({"parameters", "named_parameters"})
_MAX_ROUNDS = 8  # enough for any chain of re-bindings a real loop writes; keeps a pathological file linear
EVERYTHING = "*"


def frozen_models(ctx) -> frozenset[str]:
    """The models whose parameters all stop requiring grad, as their code (``netW``, ``self.backbone``);
    ``EVERYTHING`` among them when a freeze names no model the code can tell."""
    index = ctx.index
    frozen: set[str] = set()

    def freeze(node: ast.AST, receiver: ast.AST) -> None:
        name = _frozen_by(index, receiver)
        handed = frozen_through_calls(ctx, node, name)  # a helper's freeze: what its callers hand it
        frozen.update([name] if handed is None else handed)
    for call in index.calls_by_name.get("requires_grad_", ()):
        if _is_false(call.args[0] if call.args else _keyword(call, "requires_grad")) \
                and isinstance(call.func, ast.Attribute):
            freeze(call, call.func.value)
    for node in index.assigns:
        if isinstance(node, ast.Assign) and _is_false(node.value):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr == "requires_grad":
                    freeze(node, target.value)
    return frozenset(name for name in frozen if not _new_part_after_freeze(index, name))


def _new_part_after_freeze(index, name: str) -> bool:
    """``model.classifier = nn.Sequential(...)`` (or ``model.classifier[6] = nn.Linear(...)``) after the freeze: a
    new head whose parameters do require grad, so the model still records (transfer learning's frozen backbone)."""
    for node in index.assigns:
        if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Call, ast.Name)):  # = nn.Linear(...) / = head
            for target in node.targets:
                if isinstance(target, (ast.Attribute, ast.Subscript)) and getattr(target, "attr", "") != "requires_grad" \
                        and (_text(target.value) == name or _text(target.value).startswith(name + ".")):
                    return True
    return False


def is_frozen(model: ast.AST, frozen: frozenset[str]) -> bool:
    """Is this model expression one of the frozen models, or a part of one (``netW.encoder`` of ``netW``)?"""
    if not frozen:
        return False
    if EVERYTHING in frozen:
        return True
    text = _text(model)
    return any(text == name or text.startswith(name + ".") for name in frozen)


def graph_carrying_names(index, scope: ast.AST, records: Callable[[ast.Call], bool]) -> frozenset[str]:
    """The names in ``scope`` that may hold a value with a graph: assigned (anywhere in the function, so a
    loop's fed-back outputs count) from a call ``records`` says records one, from a tensor made with
    requires_grad=True, or from another such name, not through a call that leaves the graph."""
    assigns = [node for node in index.assigns if node.value is not None and index.scope_of(node) is scope]
    carrying: set[str] = set()
    for _ in range(_MAX_ROUNDS):
        grown = False
        for node in assigns:
            if not _carries(node.value, carrying, records):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in _bound_names(target):
                    if name not in carrying:
                        carrying.add(name)
                        grown = True
        if not grown:
            break
    return frozenset(carrying)


def carries_graph(node: ast.AST, carrying: frozenset[str], records: Callable[[ast.Call], bool]) -> bool:
    return _carries(node, carrying, records)


def _carries(node: ast.AST, carrying, records) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Name):
            if current.id in carrying:
                return True
            continue
        if isinstance(current, (ast.Lambda, ast.Constant)):
            continue
        if isinstance(current, ast.Attribute) and current.attr in _LEAVES_GRAPH:
            continue  # x.data: the tensor without its history
        if isinstance(current, ast.Call):
            func = current.func
            if isinstance(func, ast.Attribute) and func.attr in _LEAVES_GRAPH:
                continue
            if _is_true(_keyword(current, "requires_grad")) or records(current):
                return True
            if isinstance(func, ast.Attribute) and func.attr == "requires_grad_" \
                    and not _is_false(current.args[0] if current.args else None):
                return True
            stack.extend(current.args)
            stack.extend(keyword.value for keyword in current.keywords)
            if isinstance(func, ast.Attribute):
                stack.append(func.value)
            continue
        stack.extend(ast.iter_child_nodes(current))
    return False


def _frozen_by(index, receiver: ast.AST) -> str:
    """What ``receiver.requires_grad = False`` / ``receiver.requires_grad_(False)`` freezes: ``netW`` for ``p``
    of ``for p in netW.parameters():`` (or ``for name, p in netW.named_parameters():``, or a comprehension
    over them); everything for a loop over something else (``for p in params:``); else the receiver itself
    (``backbone``, ``self.encoder``)."""
    if isinstance(receiver, ast.Name):
        for parent in index.ancestors(receiver):
            if isinstance(parent, (ast.For, ast.AsyncFor)):
                generators = [parent]
            elif isinstance(parent, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                generators = parent.generators
            elif isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                break
            else:
                continue
            for generator in generators:
                if receiver.id in _bound_names(generator.target):
                    walked = _parameters_of(generator.iter)
                    if walked:
                        return walked
                    if isinstance(generator.target, ast.Name) and not _DATA_NAME.search(_text(generator.iter)):
                        return EVERYTHING
                    # `for (x, _, _) in train_loader: x.requires_grad = False`: a batch, not parameters
                    return _text(receiver)
    return _text(receiver)


_DATA_NAME = re.compile(r"loader|batch|data|sample", re.IGNORECASE)


def _parameters_of(source: ast.AST) -> Optional[str]:
    """``netW`` for ``netW.parameters()``, ``netW.named_parameters()``, ``list(netW.parameters())``."""
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id in ("list", "tuple") \
            and source.args:
        source = source.args[0]
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and source.func.attr in _PARAMETER_LISTS:
        return _text(source.func.value)
    return None


def _bound_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in _bound_names(element)]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    return []


def _keyword(call: ast.Call, name: str) -> Optional[ast.AST]:
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    return None


def _is_false(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _is_true(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _text(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # a hand-made node: a name nothing else will match
        return f"<{id(node)}>"


# Tensor methods and subscripts that keep the graph on the way to a .detach(): `target_net(s).max(1)[0].detach()`.
_KEEPS_GRAPH = frozenset({"max", "min", "mean", "sum", "squeeze", "unsqueeze", "view", "reshape", "gather", "float",
                          "softmax", "log_softmax", "sigmoid", "clone", "contiguous", "flatten", "t", "permute",
                          "cpu", "cuda", "to", "double", "half"})  # (copies and casts are differentiable too)


def output_detached(index, call: ast.Call, names_of: Callable[[ast.AST], dict]) -> bool:
    """Is the forward's output cut from the graph before anything uses it: ``teacher(x).detach()``,
    ``target_net(s2).max(1)[0].detach()``, or ``out = model(x)`` whose every later read in the function is
    ``out.detach()``? Then the graph autograd records is never used (a distillation teacher, a DQN target).
    ``names_of(scope)``: the reads in a function (or the module) by name, see ``scope_reads``."""
    cut, node, parent = _follow_chain(index, call, _DETACH, through_functions=False)
    if cut is not None:
        return cut
    collected = isinstance(parent, (ast.ListComp, ast.GeneratorExp)) and parent.elt is node
    if collected:  # features = [model(x)[2] for model in seniors]: a list of outputs
        parent = index.parents.get(parent)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1):
        return False
    target = parent.targets[0]
    if isinstance(target, ast.Tuple) and not collected:  # logits, _ = self.model(obs): each part kept
        names = [t.id for t in target.elts if isinstance(t, ast.Name) and t.id != "_"]
        if len(names) != len(target.elts) - sum(isinstance(t, ast.Name) and t.id == "_" for t in target.elts):
            return False  # (a starred or attribute target: not followed)
    elif isinstance(target, ast.Name):
        names = [target.id]
    else:
        return False
    detached = _elements_detached if collected else _detached_at
    scope_names = names_of(index.scope_of(call))
    reads = [n for name in names for n in scope_names.get(name, ()) if n.lineno > parent.lineno]
    return bool(names) and bool(reads) and all(detached(index, read) for read in reads)


def _elements_detached(index, read: ast.Name) -> bool:
    """``[CKA(z, f.detach()) for f in features]`` / ``for f in features: ... f.detach()``: the list is only
    walked, and each element is only used detached."""
    holder = index.parents.get(read)
    if isinstance(holder, ast.comprehension) and holder.iter is read:
        body = index.parents.get(holder)  # the ListComp / GeneratorExp / SetComp / DictComp
    elif isinstance(holder, (ast.For, ast.AsyncFor)) and holder.iter is read:
        body = holder
    else:
        return False
    target = holder.target
    if not isinstance(target, ast.Name):
        return False
    uses = [n for n in ast.walk(body) if isinstance(n, ast.Name) and n.id == target.id
            and isinstance(n.ctx, ast.Load)]
    return bool(uses) and all(_detached_at(index, use) for use in uses)


def scope_reads(scope: ast.AST) -> dict[str, list[ast.Name]]:
    """The names a function's (or the module's) own statements read, nested defs and lambdas aside."""
    found: dict[str, list[ast.Name]] = {}
    stack = [node for node in scope.body if not isinstance(node, _NESTED)]
    name, load = ast.Name, ast.Load
    while stack:
        node = stack.pop()
        if node.__class__ is name:
            if node.ctx.__class__ is load:
                found.setdefault(node.id, []).append(node)
        elif not isinstance(node, _NESTED):
            stack.extend(children(node))  # the index's child walk: no ctx/operator singletons
    return found


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _detached_at(index, read: ast.Name) -> bool:
    """``out.detach()``, also after ops that keep the graph (``F.softmax(logits, dim=-1).detach().cpu()``,
    ``q.max(1)[0].detach()``) or ending in a value with no graph (``logits.argmax().item()``)."""
    return bool(_follow_chain(index, read, _CUTS_GRAPH, through_functions=True)[0])


def _follow_chain(index, node: ast.AST, cuts: frozenset, through_functions: bool):
    """Walk up from ``node`` through subscripts and the graph-keeping methods of ``_KEEPS_GRAPH`` (with
    ``through_functions``, also graph-keeping functions it is the first argument of: ``F.softmax(logits, dim=-1)``).
    Returns (True, ...) on reaching a method of ``cuts``, (False, ...) on any other method or an attribute that is
    not called, else (None, node, parent) where the chain ends."""
    parent = index.parents.get(node)
    while True:
        if through_functions and isinstance(parent, ast.Call) and parent.args and parent.args[0] is node \
                and last_identifier(parent.func) in _KEEPS_GRAPH:
            node, parent = parent, index.parents.get(parent)
        elif isinstance(parent, ast.Subscript) and parent.value is node:
            node, parent = parent, index.parents.get(parent)
        elif isinstance(parent, ast.Attribute) and parent.value is node:
            call = index.parents.get(parent)
            if not isinstance(call, ast.Call) or call.func is not parent or parent.attr not in cuts | _KEEPS_GRAPH:
                return False, node, parent
            if parent.attr in cuts:
                return True, node, parent
            node, parent = call, index.parents.get(call)
        else:
            return None, node, parent


_DETACH = frozenset({"detach", "detach_"})
# What ends a forward's graph for a reader: a detach, or a value that carries none (a number, a list, integer
# indices) -- the part of _LEAVES_GRAPH that reads a value (not .size(), .data, .numpy(), which the carrier test uses).
_CUTS_GRAPH = _DETACH | {"item", "tolist", "argmax", "argmin"}
