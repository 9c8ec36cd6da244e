"""Branches that run only on some iterations of a loop: a host read under them is excused.

Under ``if step % 100 == 0:``, ``if i == 0:``, ``if batch_idx <= 2:``, a flag set in the loop (``if log_now:``; not one
it only switches once, ``needs_calibration = False``), in an ``except`` handler or a
branch that exits or fills an empty accumulator (it runs once), or a branch whose condition is itself the (reported)
host read (a running best, ``if loss < best:``; a divergence check, ``if loss > 10:``) -- but in a loop over the
elements of a CUDA tensor a filter against a fixed bound (``if score >= 0.18:``) passes every element above it, so
the reads in its branch count. A test of the device (``if device.type == 'cuda':``, ``if use_cuda:``) or of the rank
excuses nothing: on a GPU it holds on every iteration. A mixin of LoopAnalysis (it needs the loop's assigned names
and whether it walks a CUDA tensor).
"""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.flow import steps
from advisor.lint.flow.branch_shapes import (
    advances_its_threshold,
    counts_rounds,
    ran_out,
    resets_its_counter,
    running_best,
    turns_itself_off,
    updates_a_running_value,
)
from advisor.lint.flow.conditions import bound_is_fixed, cuda_condition, mode_switch, rank_condition
from advisor.lint.flow.kinds import CUDA_TENSOR, TENSOR_BITS
from advisor.lint.index import FUNCTION_TYPES, LOOP_TYPES, target_names
from advisor.lint.names import dotted

_FEW_FIRST = 10  # `if i < 10:` in a loop of steps: a handful of iterations


class BranchGuards:
    def guarded(self, node: ast.AST, stop: ast.AST) -> bool:
        """Is ``node`` under a branch that runs only on some iterations (between it and ``stop``)? Also a condition
        whose read comes after a guard in the same ``and`` (``if step % k == 0 and loss.isnan().any():``: Python
        stops at the first false operand, so the read runs when the guard holds)."""
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            first_read = next((i for i, value in enumerate(node.values) if self.effects.truth_sync(value)), 0)
            if any(self.is_guard(value, stop) for value in node.values[:first_read]):
                return True
        child = node
        for parent in self.index.ancestors(node):
            if parent is stop or isinstance(parent, FUNCTION_TYPES):
                return False
            if isinstance(parent, ast.ExceptHandler):
                return True  # runs when something failed, not on every iteration
            if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test \
                    and self._branch_guarded(parent, child, stop):
                return True
            child = parent
        return False

    def _branch_guarded(self, parent: ast.If | ast.IfExp, child: ast.AST, stop: ast.AST) -> bool:
        """Does the branch of ``parent`` that holds ``child`` run on some iterations only?"""
        in_else = child is parent.orelse or isinstance(parent, ast.If) and child in parent.orelse
        if in_else and isinstance(parent, ast.If) and _skips_only(parent.body):
            return False  # `if x.shape[0] == 1: pass` / `continue`, else the work: the else is the loop's usual path
        if not in_else and isinstance(parent, ast.If) and updates_a_running_value(parent):
            return False  # `if avg: avg = avg * d + x * (1 - d)` `else: avg = x`: every iteration after the first
        if self._else_guard(parent.test, stop) if in_else else self.is_guard(parent.test, stop):
            return True
        if not isinstance(parent, ast.If):
            return False
        branch = parent.orelse if in_else else parent.body
        if steps.runs_once(branch) and (self._in_a_loop(parent, stop) or not _returns(branch)):
            return True  # a branch that leaves the loop runs once at most (a function's branch that returns is taken on
            # any call: `if greedy: return q.argmax().item()`)
        return not in_else and (steps.fills_when_empty(parent.test, parent.body) or resets_its_counter(parent)
                                or turns_itself_off(parent) or running_best(parent) or advances_its_threshold(parent))

    def _else_guard(self, test: ast.AST, stop: Optional[ast.AST]) -> bool:
        """Does the ``else`` of ``test`` run on some iterations only? Not the else of ``if step % 100 == 0:`` nor of
        ``if i == 0:`` (every other iteration), nor of an epsilon-greedy ``if training and random() < eps:`` (the
        greedy steps, most of them); the else of a flag set in the loop, or of a condition that is itself the host
        read (a running best), does -- as does the else of a healthy-path test (``if not (isnan(l) or isinf(l)):``)."""
        if self.effects.truth_sync(test) or _healthy_polarity(test) is True:
            return True
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.is_guard(test.operand, stop)
        if isinstance(test, ast.BoolOp):  # not (a and b) = not a or not b; not (a or b) = not a and not b
            combine = all if isinstance(test.op, ast.And) else any
            return combine(self._else_guard(value, stop) for value in test.values)
        return isinstance(test, (ast.Name, ast.Attribute)) and self.is_guard(test, stop) or _skips_every_kth(test) \
            or isinstance(stop, LOOP_TYPES) and ran_out(test, self.assigned(stop)) and not counts_rounds(test, stop)

    def _in_a_loop(self, node: ast.AST, stop: ast.AST) -> bool:
        """Is ``node`` inside a loop, ``stop`` itself or one between them?"""
        for parent in self.index.ancestors(node):
            if isinstance(parent, LOOP_TYPES):
                return True
            if parent is stop or isinstance(parent, FUNCTION_TYPES):
                return False
        return False

    def _fixed_bound_filter(self, test: ast.AST, stop: Optional[ast.AST]) -> bool:
        """``score >= 0.18`` / ``conf > args.thresh`` in a loop over the elements of a CUDA tensor (boxes,
        detections) that never changes the bound. Not ``loss < best`` (a running best), nor ``loss > 10`` in
        a training loop (a divergence check: it should never pass)."""
        if not isinstance(stop, LOOP_TYPES) or not self.walks_cuda_tensor(stop) \
                or not isinstance(test, ast.Compare) or len(test.ops) != 1 \
                or not isinstance(test.ops[0], (ast.Gt, ast.GtE, ast.Lt, ast.LtE)):
            return False
        sides = [test.left, test.comparators[0]]
        bounds = [side for side in sides if not self.kind(side) & CUDA_TENSOR]
        return len(bounds) == 1 and bound_is_fixed(bounds[0], self.assigned(stop))

    def is_guard(self, test: ast.AST, stop: Optional[ast.AST] = None) -> bool:
        """Does the branch under ``test`` run on some iterations of ``stop`` (a loop) only?"""
        if self.effects.truth_sync(test):
            # the condition is the host read (reported there); its branch runs only sometimes (a new best) --
            # unless it is a filter against a fixed bound (`if score >= 0.18:` per box): that passes every
            # element above the bound, and each read in its branch counts
            return not self._fixed_bound_filter(test, stop) and not _differs_from_a_constant(test) \
                and not _emptiness_test(test) and not _healthy_path(test)
        if self.kind(test) & CUDA_TENSOR or isinstance(test, ast.Compare) and isinstance(test.left, ast.BinOp) \
                and isinstance(test.left.op, ast.Mod) and self.sizes.int_value(test.left.right) == 1:
            return False  # (`if (epoch + 1) % 1 == 0:` holds on every iteration; so does `% print_interval` with
            # `print_interval = 1`)
        if _differs_from_a_constant(test) and any(self._a_tensor(side) for side in ast.walk(test)
                                                  if isinstance(side, ast.expr) and side is not test):
            return False  # `if torch.mean(target) != 0.:` of a batch's CPU data: holds for almost every batch (as the
            # host read `if loss != 0:` above)
        if isinstance(test, ast.BoolOp):  # `a and b` runs when both hold: a guard if either is one; `a or b` when
            # either holds: a guard only if both are (`not self.training or random.random() > eps` runs on most steps)
            combine = any if isinstance(test.op, ast.And) else all
            return combine(self.is_guard(value, stop) for value in test.values)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.is_guard(test.operand, stop)
        if cuda_condition(test, self.names.qual) is not None or rank_condition(test) or _asks_the_type(test):
            return False  # `if device.type == 'cuda':` / `if rank == 0:` holds on every iteration on a GPU; `if
            # type(hidden) == tuple:` (an LSTM's state) is the same answer on every iteration
        if isinstance(test, ast.Attribute):
            if isinstance(stop, FUNCTION_TYPES) and self._set_at_construction(test, stop):
                return False  # `if self.center:` of a helper called per step: a switch of the run, on every call
            return stop is None or not isinstance(stop, LOOP_TYPES) or dotted(test) in self.assigned(stop)
        if isinstance(test, ast.Name):
            # `if log_now:` set in the loop varies per iteration; `if is_main:` set before it holds for all of them
            return stop is None or not isinstance(stop, LOOP_TYPES) or test.id in self.assigned(stop) \
                and not self._switched_once(test.id, stop) and not self._names_a_phase(test.id, stop)
        if _skips_every_kth(test):
            return False  # `if step % 4 != 3:` runs on three iterations in four (its else on the fourth)
        if any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) for n in ast.walk(test)) \
                or _crosses_a_multiple(test):
            return True  # `if step % 100 == 0:`, `if prev // every != steps // every:`
        if isinstance(test, ast.Compare) and isinstance(test.ops[0], ast.In) \
                and isinstance(test.comparators[0], (ast.List, ast.Tuple, ast.Set)):
            # `if epoch in [10, 50, 100]:` holds on the iterations listed only; `if mode in ['train', 'valid']:` of a
            # value the loop does not change is a switch of the run: on every iteration or on none
            names = {n.id for n in ast.walk(test.left) if isinstance(n, ast.Name)}
            return not isinstance(stop, LOOP_TYPES) or not names or bool(names & self.assigned(stop))
        if self._first_iterations(test, stop):
            return True  # `if batch_idx <= 2:` runs on the first few iterations only
        if isinstance(test, ast.Compare) and all(isinstance(op, (ast.Eq, ast.NotEq)) for op in test.ops):
            if _filters_walked_items(test, stop):
                return False  # `for j in range(n): if p[j].item() == 0:` -- the items of one kind, on every pass
            if self._counts_an_inner_walk(test, stop):
                return False  # `for idx, metric in enumerate(metrics): if idx == 0:` -- one of the items, every step
            assigned = self.assigned(stop) if isinstance(stop, LOOP_TYPES) else set()
            if not any(isinstance(side, ast.Constant) for side in [test.left] + test.comparators):
                # `if i == len(loader) - 1:`; in a function, `if self.buffer_size == self.batch_size:` of a counter it
                # steps (`self.buffer_size += 1`): the calls that find it full, now and then
                return _one_iteration(test, stop, assigned if isinstance(stop, LOOP_TYPES) else self.assigned(stop))
            return not mode_switch(test, assigned) and not _fixed_in(test, stop, assigned)
        return False

    def _a_tensor(self, node: ast.expr) -> bool:
        """A tensor by its kind, or the result of a torch function (``torch.mean(target)`` of a batch of unknown kind)."""
        return bool(self.kind(node) & TENSOR_BITS) or isinstance(node, ast.Call) \
            and (self.names.qual(node.func) or "").startswith("torch.")

    def _counts_an_inner_walk(self, test: ast.Compare, stop: Optional[ast.AST]) -> bool:
        """``if idx == 0:`` where idx counts a loop inside ``stop`` around the test (``for idx, metric_fn in
        enumerate(metrics)``): it picks one of the items that walk visits, on every iteration of ``stop``."""
        if not isinstance(stop, LOOP_TYPES):
            return False
        names = {side.id for side in [test.left] + test.comparators if isinstance(side, ast.Name)}
        for loop in self.index.enclosing_loops(test):
            if loop is stop:
                return False
            if isinstance(loop, (ast.For, ast.AsyncFor)) and names & target_names(loop.target):
                return True
        return False

    def _set_at_construction(self, test: ast.Attribute, function: ast.AST) -> bool:
        """``self.center`` that the object's setup assigns (``__init__``, a loss-building method: outside any loop
        and outside the function that tests it): a switch of the run, which holds on every call."""
        key = dotted(test)
        values = self.index.assigned_by_dotted.get(key, []) if key and key.startswith("self.") else []
        return bool(values) and all(self.index.scope_of(v) is not function and not self.index.enclosing_loops(v)
                                    for v in values)

    def _bound_in(self, name: str, loop: ast.AST) -> list[ast.AST]:
        """The values ``loop`` binds ``name`` to, inside it."""
        return [v for v in self.index.assigned_values.get(name, ()) if loop in self.index.ancestors(v)]

    def _names_a_phase(self, name: str, loop: ast.AST) -> bool:
        """``d_join = (args.discriminator_join <= step_count)`` in the loop: a name the loop binds only to a threshold
        test of its counter that is no guard itself -- once past the threshold it holds on every iteration (a phase
        of training: the discriminator joins), so a branch under it (or its else, before) runs on every step."""
        inside = self._bound_in(name, loop)
        return bool(inside) and all(
            isinstance(v, ast.Compare) and len(v.ops) == 1 and isinstance(v.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE))
            and not self.is_guard(v, loop) for v in inside)

    def _switched_once(self, name: str, loop: ast.AST) -> bool:
        """``needs_calibration = False`` after the calibration batches: a flag the loop sets only to one constant
        changes once at most, so a branch under it runs on every iteration of a stretch, not on some."""
        inside = self._bound_in(name, loop)
        return bool(inside) and all(isinstance(v, ast.Constant) and isinstance(v.value, bool) for v in inside) \
            and len({v.value for v in inside}) == 1

    def _first_iterations(self, test: ast.AST, stop: Optional[ast.AST]) -> bool:
        """``batch_idx <= 2`` / ``i < 5`` of a counter the loop steps (or the length of a list it appends to) against a
        small constant: the first few iterations only (``step > 100``, most of them, is no guard)."""
        compared = counter_compared(test, above=False)
        if not isinstance(stop, LOOP_TYPES) or compared is None:
            return False
        left, right, _ = compared
        if self._grows_in(left, stop):  # `if len(scores) <= visualize_samples:` of a list the loop appends to
            bound = self.sizes.int_value(right)
            return bound is not None and 0 <= bound <= _FEW_FIRST
        return isinstance(left, ast.Name) and left.id in self.assigned(stop) and isinstance(right, ast.Constant) \
            and isinstance(right.value, int) and not isinstance(right.value, bool) and 0 <= right.value <= _FEW_FIRST

    def _grows_in(self, node: ast.AST, loop: ast.AST) -> bool:
        """``len(items)`` of a list the loop appends to on its way: a count of the iterations so far."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"
                and len(node.args) == 1 and isinstance(node.args[0], ast.Name)):
            return False
        name = node.args[0].id
        return any(isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                   and call.func.value.id == name and loop in self.index.ancestors(call)
                   for call in self.index.calls_by_name.get("append", ()))


def _fixed_in(test: ast.Compare, stop: Optional[ast.AST], assigned: set[str]) -> bool:
    """``if reps == 1:`` in a loop that never sets ``reps`` (an option, a count fixed before it): the same answer on
    every iteration, not a test of which iteration this is (``if i == 0:``)."""
    names = [side for side in [test.left] + test.comparators if isinstance(side, (ast.Name, ast.Attribute))]
    return isinstance(stop, LOOP_TYPES) and bool(names) and all(bound_is_fixed(side, assigned) for side in names)


def _skips_only(body: list[ast.stmt]) -> bool:
    return all(isinstance(statement, (ast.Pass, ast.Continue)) for statement in body)


def _skips_every_kth(test: ast.AST) -> bool:
    """``step % 4 != 3``: true on all iterations but one in k."""
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq) \
        and isinstance(test.left, ast.BinOp) and isinstance(test.left.op, ast.Mod)


def _emptiness_test(test: ast.AST) -> bool:
    """``if label_mask.any():`` / ``if ok.all():`` / ``if valid.sum() > 0:``: whether a mask selects anything -- true
    on most iterations (a label present in the batch), so its branch runs on most of them, unlike a running best's
    ``if loss < best:``."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant) \
            and (isinstance(test.ops[0], ast.Gt) and test.comparators[0].value == 0
                 or isinstance(test.ops[0], ast.GtE) and test.comparators[0].value == 1):
        counted = test.left  # `if valid.sum() > 0:` / `if mask.count_nonzero() >= 1:`: the mask selects something
        return isinstance(counted, ast.Call) and isinstance(counted.func, ast.Attribute) \
            and counted.func.attr in ("sum", "count_nonzero", "numel", "nonzero") and not counted.args
    return isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr in ("any", "all") \
        and not test.args and not _an_anomaly_mask(test.func.value)


def _an_anomaly_mask(mask: ast.AST) -> bool:
    """``torch.isnan(p)`` / ``p.grad.isinf()``: a mask of broken values, empty on nearly every iteration -- its
    ``.any()`` branch (a NaN report) runs when training breaks, not on most steps."""
    return isinstance(mask, ast.Call) and (dotted(mask.func) or "").rsplit(".", 1)[-1] in ("isnan", "isinf")


def _returns(body: list[ast.stmt]) -> bool:
    """Does the branch leave by ``return`` (not ``raise`` / ``sys.exit()``, which end the run)?"""
    for statement in body:
        if isinstance(statement, ast.Return):
            return True
        if isinstance(statement, (ast.With, ast.AsyncWith)) and _returns(statement.body):
            return True
        if isinstance(statement, (ast.Raise, ast.Break)) or steps.runs_once([statement]):
            return False
    return False


def _one_iteration(test: ast.Compare, stop: Optional[ast.AST], assigned: set[str]) -> bool:
    """``if i == len(loader) - 1:`` / ``if epoch == num_epochs - 1:``: the loop's counter equal to a bound the loop never
    changes -- one iteration (the last, a chosen one)."""
    if stop is None or not (len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]

    def varies(node: ast.AST) -> bool:
        return any(isinstance(n, (ast.Name, ast.Attribute)) and dotted(n) in assigned for n in ast.walk(node))
    def counts(node: ast.AST) -> bool:  # (not `len(clip_batch) == batch_size`: a batch filled and run -- the step)
        return varies(node) and not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len"
                                        for n in ast.walk(node))
    return any(map(counts, sides)) and not all(map(varies, sides))  # (`batch_idx + 1 == len(loader)` too)


def _differs_from_a_constant(test: ast.AST) -> bool:
    """``if loss != 0:`` / ``if not (loss == 0):``: holds on almost every iteration, unlike a new best."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if negated else test
    if not (isinstance(inner, ast.Compare) and len(inner.ops) == 1
            and any(isinstance(side, ast.Constant) for side in (inner.left, inner.comparators[0]))):
        return False
    return isinstance(inner.ops[0], ast.Eq) if negated else isinstance(inner.ops[0], ast.NotEq)


def _asks_the_type(test: ast.AST) -> bool:
    """``type(x) == tuple`` / ``type(x) is T``: which kind of value the run uses, not which iteration this is."""
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.Is)) \
        and isinstance(test.left, ast.Call) and isinstance(test.left.func, ast.Name) and test.left.func.id == "type"


_BAD_VALUE_TESTS = {"isnan": True, "isinf": True, "isfinite": False}  # name -> does True mean a bad value?


def _healthy_path(test: ast.AST) -> bool:
    """``if loss.isnan().any() == False:``, ``if not torch.isnan(loss):``, ``if torch.isfinite(loss).all():``,
    ``if not torch.isnan(loss) and not torch.isinf(loss):``: the branch a healthy step takes -- every iteration, unless
    training diverged (the reads under it count)."""
    return _healthy_polarity(test) is True


def _healthy_polarity(test: ast.AST) -> Optional[bool]:
    """True when ``test`` holds for a healthy value, False when it holds for a bad one (nan / inf), None when it is not
    such a test. ``a and b`` is healthy when both parts are, ``a or b`` bad when both are (``isnan(l) or isinf(l)``)."""
    healthy = True
    while True:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, healthy = test.operand, not healthy
        elif isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.Is)) \
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is False:
            test, healthy = test.left, not healthy  # `... == False`
        else:
            break
    if isinstance(test, ast.BoolOp):
        parts = {_healthy_polarity(value) for value in test.values}
        joined = isinstance(test.op, ast.And)  # `and` of healthy parts is healthy; `or` of bad parts is bad
        if parts != {joined}:
            return None  # (`a and not t.isfinite().all()`: the polarity of a part says nothing of the whole)
        return joined == healthy
    if not isinstance(test, ast.Call):
        return None
    names = [n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
             for n in ast.walk(test) if isinstance(n, ast.Call)]
    checks = [name for name in names if name in _BAD_VALUE_TESTS]
    if len(checks) != 1:
        return None
    return _BAD_VALUE_TESTS[checks[0]] != healthy


def counter_compared(test: ast.AST, above: bool) -> Optional[tuple[ast.AST, ast.AST, bool]]:
    """``i > 9`` / ``9 < i`` (``above``) or ``i <= 2`` / ``2 >= i`` (not ``above``), one comparison read with the
    counter first: (counter, bound, strict); None for any other test."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    op, left, right = test.ops[0], test.left, test.comparators[0]
    wanted, flipped = ((ast.Gt, ast.GtE), (ast.Lt, ast.LtE)) if above else ((ast.Lt, ast.LtE), (ast.Gt, ast.GtE))
    if isinstance(op, flipped):
        left, right = right, left
    elif not isinstance(op, wanted):
        return None
    return left, right, isinstance(op, (ast.Gt, ast.Lt))


def _crosses_a_multiple(test: ast.AST) -> bool:
    """``prev_steps // eval_every != total_steps // eval_every``: the count passed a multiple of ``eval_every`` this
    iteration -- now and then, like ``step % every == 0`` for a count that grows by more than one."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
        return False
    sides = [test.left, test.comparators[0]]
    return all(isinstance(side, ast.BinOp) and isinstance(side.op, ast.FloorDiv) for side in sides) \
        and ast.dump(sides[0].right) == ast.dump(sides[1].right)


def _filters_walked_items(test: ast.Compare, stop: Optional[ast.AST]) -> bool:
    """``if p[j].item() == 0:`` inside ``for j in range(...)``: a test of the item the walk is at -- it picks the
    items of one kind on every pass of the walk, not some iterations of it."""
    if not isinstance(stop, (ast.For, ast.AsyncFor)):
        return False
    walked = target_names(stop.target)
    return any(isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id in walked
               for node in ast.walk(test))
