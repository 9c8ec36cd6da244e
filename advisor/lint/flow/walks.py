"""Loops that walk the parts of one step rather than run steps: a model's parameters, or a handful of
components the program registered once (``for force in self.forces: total += force.apply()``).

Such a loop computes on CUDA on every iteration, but it is not a loop of steps: the loop around it (the
simulation's time steps, the training iterations) is. Nor is a sweep, whose iterations are separate experiments
(a list of sizes, a dict of a few settings, a range that sizes the tensors). Read from the syntax alone, on the
file's index.
"""

from __future__ import annotations

import ast
import re
from typing import Optional

from advisor.lint.flow.kinds import CUDA_TENSOR, NUMPY, TENSOR_BITS
from advisor.lint.index import FileIndex, target_names
from advisor.lint.names import dotted

_PARAMETER_WALKS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers", "modules",
                              "named_modules", "children", "named_children"})
_GROWING_METHODS = ("append", "insert", "extend")
_FEW_SETTINGS = 16  # a module constant of more literals than this may be data, not settings
_FEW = 8  # registered components: forces, constraints, heads, loss terms -- not a dataset


def walks_parameters(index: FileIndex, loop: ast.AST) -> bool:
    """``for p in model.parameters()`` / ``zip(params, grads)`` / ``for group in opt.param_groups``, also
    through a name bound to such a walk (``params = list(model.parameters())``)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    work, seen = [loop.iter], 0
    while work and seen < 16:
        node = work.pop()
        seen += 1
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _PARAMETER_WALKS:
                return True
            work.extend(node.args)  # enumerate(...), zip(...), list(...), reversed(...)
        elif isinstance(node, ast.Attribute) and node.attr == "param_groups":
            return True
        elif isinstance(node, ast.Name):
            work.extend(index.assigned_values.get(node.id, [])[:2])
    return False


def walks_few_components(index: FileIndex, loop: ast.AST) -> bool:
    """``for force in self.forces`` where the file makes ``self.forces`` a literal list and grows it only by a
    few ``append(...)`` calls written outside any loop: at most a handful of registered parts, each run once per
    step. Not a list filled in a loop (a dataset, a replay buffer), nor one the file receives from elsewhere."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    key = dotted(loop.iter)
    if key is None:
        return False
    made = index.assigned_by_dotted.get(key, [])
    if not made or not all(isinstance(value, (ast.List, ast.Tuple)) for value in made):
        return False
    items = max(len(value.elts) for value in made)
    for method in _GROWING_METHODS:
        for call in index.calls_by_name.get(method, ()):
            if isinstance(call.func, ast.Attribute) and dotted(call.func.value) == key:
                if method == "extend" or index.enclosing_loops(call) or _in_comprehension(index, call) \
                        or not _makes_an_object(call.args[-1] if call.args else None):
                    return False
                items += 1
    return items <= _FEW


def walks_clusters(loop: ast.AST) -> bool:
    """``for k in range(self.K)`` / ``range(n_components)``: a walk over a model's few clusters, components or heads
    -- one part of each EM or training iteration, not a loop of iterations."""
    iterable = getattr(loop, "iter", None)
    if not (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range"
            and len(iterable.args) == 1):
        return False
    count = iterable.args[0]
    name = count.attr if isinstance(count, ast.Attribute) else count.id if isinstance(count, ast.Name) else ""
    return bool(_CLUSTER_COUNT.match(name))


_CLUSTER_COUNT = re.compile(r"^(K|n_?clusters?|num_?clusters?|n_?components?|num_?components?|n_?mixtures?"
                            r"|num_?mixtures?|n_?heads?|num_?heads?)$")


def _makes_an_object(node) -> bool:
    """``Gravity(total)``: a component made where it is registered (a class: its name is capitalized)."""
    if not isinstance(node, ast.Call):
        return False
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    return name[:1].isupper()


def _in_comprehension(index: FileIndex, node: ast.AST) -> bool:
    return any(isinstance(parent, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp))
               for parent in index.ancestors(node))


def walks_a_mapping(loop: ast.AST, kind) -> bool:
    """``for name in loss_dir.keys()`` / ``for k, v in metrics.items()`` of a dict of CUDA tensors: a walk over one
    step's named results (its losses, the metrics to log) -- part of whatever step calls it, not a loop of steps
    (a dict of host data, ``utt2text.items()``, may be a whole dataset). ``kind``: the flow's kind of a node."""
    call = getattr(loop, "iter", None)
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and not call.args \
        and call.func.attr in ("keys", "items", "values") and bool(kind(call.func.value) & CUDA_TENSOR)


def sums_loss_terms(index: FileIndex, loop: ast.AST) -> bool:
    """``def criterion(y_pred, y_true): loss = 0.0; for name, weight in CFG.loss_info.items(): loss += losses[name](
    y_pred, y_true) * weight; return loss``: a walk over a configuration's few entries that adds up one step's loss
    and hands it back -- part of the step that calls it, whatever loop that is. (Only additions into the total
    returned right after: a walk that reads or stores anything else is not taken for one.)"""
    call = getattr(loop, "iter", None)
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and not call.args
            and call.func.attr in ("keys", "items", "values")) or loop.orelse \
            or not all(isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Name)
                       for s in loop.body):
        return False
    totals = {s.target.id for s in loop.body}
    following = next(iter(index.statements_after(loop)), None)
    return len(totals) == 1 and isinstance(following, ast.Return) and isinstance(following.value, ast.Name) \
        and following.value.id in totals


def enumerated(iterable: ast.AST) -> ast.AST:
    """What ``enumerate(x)`` walks: ``x``; any other iterable as it is."""
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "enumerate" \
            and iterable.args:
        return iterable.args[0]
    return iterable


def walked_cuda_tensor(loop: ast.AST, index: FileIndex, kind) -> Optional[ast.AST]:
    """``t`` of ``for v in t`` / ``for i in range(len(t))`` / ``range(t.size(0))`` / ``range(t.shape[0])`` when t is on
    CUDA (``kind``: the flow's kind of a node), else None. Not a walk over a model's parameters."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or walks_parameters(index, loop):
        return None  # (model.named_parameters(): one pass per parameter, as often as the loop around it runs)
    walked = enumerated(loop.iter)  # (for i, value in enumerate(labels): the walk over labels)
    if isinstance(walked, ast.Call) and isinstance(walked.func, ast.Name) and walked.func.id == "range" \
            and len(walked.args) == 1:
        walked = _row_count_of(walked.args[0], loop, index) or walked.args[0]
        while isinstance(walked, (ast.Subscript, ast.Call, ast.Attribute)):
            if isinstance(walked, ast.Call) and isinstance(walked.func, ast.Name) and walked.func.id == "len":
                walked = walked.args[0] if walked.args else walked
                break
            walked = walked.func if isinstance(walked, ast.Call) else walked.value
            if isinstance(walked, ast.Attribute) and walked.attr in ("size", "shape", "numel"):
                walked = walked.value
                break
    if kind(walked) & CUDA_TENSOR:
        return walked
    iterable = loop.iter  # range(len(names)) -- not a count the file spells out
    counts_a_list = isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
        and iterable.func.id == "range" and len(iterable.args) == 1 and isinstance(iterable.args[0], ast.Call) \
        and isinstance(iterable.args[0].func, ast.Name) and iterable.args[0].func.id == "len"
    return _indexed_alongside(loop, kind) if counts_a_list else None


def _indexed_alongside(loop: ast.AST, kind) -> Optional[ast.AST]:
    """``for i in range(len(filenames)): pred = predicted[i].item()``: a walk over a list that indexes a CUDA tensor
    by the same counter walks that tensor's rows too -- the batch's names beside its predictions."""
    if not isinstance(loop.target, ast.Name):
        return None
    counter = loop.target.id
    for node in ast.walk(loop):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and kind(node.value) & CUDA_TENSOR:
            first = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and node.slice.elts else node.slice
            if isinstance(first, ast.Name) and first.id == counter:
                return node.value
    return None


def _row_count_of(count: ast.AST, loop: ast.AST, index: FileIndex) -> Optional[ast.AST]:
    """``W`` of ``W, C = seq.shape`` (or ``seq.size()``) bound once in the loop's function: ``range(W)`` walks seq's
    rows as ``range(seq.shape[0])`` does. None for any other count."""
    if not isinstance(count, ast.Name):
        return None
    scope = index.scope_of(loop)
    found = [(position, value) for position, value, node in index.unpacked_names.get(count.id, ())
             if index.scope_of(node) is scope and _a_shape(value)]
    if len(found) != 1 or any(index.scope_of(v) is scope for v in index.assigned_values.get(count.id, ())):
        return None  # (bound again in the function: not only the row count)
    position, value = found[0]
    return value if position == 0 else None


def _a_shape(value: ast.AST) -> bool:
    """``t.shape`` / ``t.size()``."""
    return isinstance(value, ast.Attribute) and value.attr == "shape" or isinstance(value, ast.Call) \
        and not value.args and isinstance(value.func, ast.Attribute) and value.func.attr == "size"


def walks_written_items(loop: ast.AST) -> bool:
    """``for mask in [train_mask, val_mask, test_mask]``: a handful of items written out in the loop's header."""
    return isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.iter, (ast.List, ast.Tuple, ast.Set)) \
        and 0 < len(loop.iter.elts) <= _FEW_SETTINGS


def sweeps_settings(loop: ast.AST, index: FileIndex, qual) -> bool:
    """``for size in [256, 1024]``, ``for name, option in runs.items()`` of a dict of a few settings,
    ``itertools.product(...)`` of settings, a range whose variable sizes the tensors: each iteration is a separate
    experiment, not a step."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    iterable = enumerated(loop.iter)  # (for i, bs in enumerate(batch_sizes): the sizes)
    if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)) or isinstance(iterable, ast.Call) \
            and qual(iterable.func) == "itertools.product":
        return True  # (for seq_len, n_head in itertools.product(args.seq_lens, args.n_heads): a grid of settings)
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute) and not iterable.args \
            and iterable.func.attr in ("items", "keys", "values") and isinstance(iterable.func.value, ast.Name):
        values = index.assigned_values.get(iterable.func.value.id, [])  # runs = {"uniform": None, ...}
        return bool(values) and all(isinstance(v, ast.Dict) and 0 < len(v.keys) <= _FEW_SETTINGS
                                    and all(isinstance(k, ast.Constant) for k in v.keys) for v in values)
    if isinstance(iterable, ast.Name):  # (the name's values in the loop's own function: impls = [...] there)
        scope = index.scope_of(loop)
        every = index.assigned_values.get(iterable.id, [])
        values = [v for v in every if index.scope_of(v) is scope]
        if not values and every:  # METHODS = ("tiles_half_s", "tiles_s") at module level: a few named settings
            return all(isinstance(v, (ast.List, ast.Tuple, ast.Set)) and 0 < len(v.elts) <= _FEW_SETTINGS
                       and all(isinstance(e, ast.Constant) for e in v.elts) for v in every)
        return bool(values) and all(isinstance(v, (ast.List, ast.Tuple, ast.Set)) and v.elts for v in values)
    return sweeps_sizes(loop, index, qual)


def sweeps_sizes(loop: ast.AST, index: FileIndex, qual) -> bool:
    """``for i in range(1, 20): N = 1024 * i; q = torch.rand(B, H, N, D, device="cuda")``: a loop whose variable
    gives the shape of the tensors it fills is a sweep over problem sizes -- each iteration its own experiment, not a
    step (data built from it, ``torch.tensor(batch)``, is no shape)."""
    if not (isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.iter, ast.Call)
            and isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "range"):
        return False
    end = loop.end_lineno or loop.lineno  # (the index's calls by name, not a walk of the loop: this runs per loop)
    fills = [node for fill in _SHAPED_FILLS for node in index.calls_by_name.get(fill, ())
             if loop.lineno <= node.lineno <= end and (node.args or node.keywords)]
    if not fills:
        return False  # (no fill in the loop: nothing it could size)
    derived = target_names(loop.target)
    for statement in loop.body:  # (straight-line assignments: N = 1024 * i; q_shape = (B, H, N, D))
        if isinstance(statement, ast.Assign) and _free_names(statement.value) & derived:
            derived |= {n.id for t in statement.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    for node in fills:
        name = qual(node.func) or ""
        if name.startswith("torch."):
            shape = node.args[:1] if name.endswith(".full") else list(node.args)
            shape += [k.value for k in node.keywords if k.arg == "size"]
            if any(_free_names(argument) & derived for argument in shape):
                return True
    return False


_SHAPED_FILLS = frozenset({"randn", "rand", "zeros", "ones", "empty", "full", "eye"})


def _free_names(node: ast.AST) -> set[str]:
    """The names an expression reads, less those its own comprehensions bind (``[r[k] for i in range(n)]``)."""
    bound = {n.id for c in ast.walk(node) if isinstance(c, ast.comprehension) for n in ast.walk(c.target)
             if isinstance(n, ast.Name)}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} - bound


def walked_batch_result(loop: ast.AST, kind) -> Optional[ast.AST]:
    """``for j, pred_seq in enumerate(predictions):`` of ``predictions = out.argmax(-1).cpu().numpy()``: the
    sequences of a batch's result, read back and post-processed one by one (a name holding tensors or arrays)."""
    iterable = getattr(loop, "iter", None)
    while isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
            and iterable.func.id in ("enumerate", "zip") and iterable.args:
        iterable = iterable.args[0]
    return iterable if isinstance(iterable, ast.Name) and kind(iterable) & (TENSOR_BITS | NUMPY) else None
