"""What a program does with the time a clock pair measured (``end - start``): shared by GA101 and GA102.

- It drops the cold runs: the pair is read on every iteration of a counted loop, and the first iterations'
  times are thrown away (``if i >= warmup: times.append(t)``, ``times = times[1:]``) or reduced to a median
  or a minimum, which a cold outlier cannot move. Start-up then never reaches the number reported.
- It times a job: it reports minutes (``elapsed // 60``, ``divmod(elapsed, 60)``, ``elapsed / 3600``), or its clocks
  are far apart in the code (the top of main() and its "Finished in"): the duration of a job (training, a pass over a
  dataset, a whole program), next to which start-up and the last queued kernels are noise.
"""

from __future__ import annotations

import ast
from typing import Optional

from advisor.lint.flow.guards import counter_compared

_ROBUST_REDUCTIONS = frozenset({"median", "nanmedian", "min", "amin", "nanmin"})
_TIME_UNITS = frozenset({60, 3600})  # 60.0 and 3600.0 too: equal numbers hash alike


def drops_cold_runs(ctx, region) -> bool:
    difference = region.difference
    if difference is None or region.open is None:
        return False
    common = [loop for loop in ctx.enclosing_loops(difference) if loop in ctx.enclosing_loops(region.open)]
    loop = common[0] if common else None
    # (the counter of any loop around the pair: `if batch_num >= warmup_batches:` around a clock per chunk of a batch)
    counters = set().union(*map(_counters, common)) if common else _parameters(ctx, difference)
    if not counters:
        return False
    uses = [use for use in _uses(ctx, difference, loop) if not _only_tested(ctx, use)]
    return bool(uses) and all(_guarded(ctx, use, loop, counters) or _list_drops_cold(ctx, use) for use in uses)


def starts_after_warmup(ctx, region) -> bool:
    """``for i in range(60): if i > 9: since = time.time(); net(x)``: the clock starts only once the loop's first
    iterations have run the work untimed -- a warm-up, whatever the region then measures."""
    start = region.open
    if start is None:
        return False
    for loop in ctx.enclosing_loops(start)[:1]:
        counters = _counters(loop)
        child = start
        for parent in ctx.index.ancestors(start):
            if parent is loop:
                break
            if isinstance(parent, ast.If) and child in parent.body and _past_first_iterations(parent.test, counters):
                return True
            child = parent
    return False


def _past_first_iterations(test: ast.AST, counters: set[str]) -> bool:
    """``i > 9`` / ``i >= warmup`` / ``9 < i`` of the loop's counter against a positive bound."""
    compared = counter_compared(test, above=True)
    if compared is None:
        return False
    left, right, strict = compared
    positive = not isinstance(right, ast.Constant) or (isinstance(right.value, (int, float))
                                                        and right.value >= (0 if strict else 1))
    return isinstance(left, ast.Name) and left.id in counters and positive


def totals_training_steps(ctx, region) -> bool:
    """A clock pair around each step of a loop over a DataLoader that trains (``training_time += time.time() - start``,
    a logged batch time): the steps' times are summed into the run's or logged as progress, where the first, cold step
    of thousands is noise (as for a clock around the loop)."""
    difference = region.difference
    if difference is None or region.open is None:
        return False
    if any(ctx.iterates_loader(loop) and any(
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "backward"
            for node in ast.walk(loop)) for loop in ctx.enclosing_loops(region.open)):
        return True
    return _lap_over_loader(ctx, region)


def _lap_over_loader(ctx, region) -> bool:
    """``end = time.time()`` before ``for batch in loader:``, then ``times.append(time.time() - end); end =
    time.time()`` in it: a lap time per batch (data time, progress), each one printed or kept on its own -- the cold
    first lap is there to see, as the first batch's, not folded into a number about the work."""
    parent = ctx.index.parents.get(region.open)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return False
    name = parent.targets[0].id
    loops = [loop for loop in ctx.enclosing_loops(region.close) if ctx.iterates_loader(loop)]
    return bool(loops) and loops[0] not in ctx.enclosing_loops(region.open) and name in ctx.assigned_in(loops[0])


_JOB_LINES = 80  # a clock pair this far apart in the code brackets a program's run, not a measurement


def times_a_job(ctx, region) -> bool:
    """A job timer: the time is shown in minutes, or the pair is far apart in the code (``start_time = time.time()``
    at the top of main(), ``print(f"Finished in {time.time() - start_time:.2f}s")`` 200 lines further down, after
    set-up, file reading, collectives and the work of other modules): next to all that, CUDA's start-up and the last
    queued kernels are noise."""
    if region.open is not None and region.close is not None \
            and region.close.lineno - region.open.lineno >= _JOB_LINES:
        return True
    return reports_minutes(ctx, region) or _progress_of_the_run(ctx, region)


def _progress_of_the_run(ctx, region) -> bool:
    """``start = time.time()`` before ``for episode in range(n):``, then ``if episode % log_interval == 0: end =
    time.time(); print(..., total_steps / (end - start))``: the run's elapsed time (its FPS so far) logged now and
    then, a progress meter of the whole job, not a measurement of the GPU work."""
    if region.open is None or region.close is None:
        return False
    outer = [loop for loop in ctx.enclosing_loops(region.close) if loop not in ctx.enclosing_loops(region.open)]
    return any(ctx.runs_on_some_iterations(region.close, loop) for loop in outer[-1:])


def reports_minutes(ctx, region) -> bool:
    difference = region.difference
    if difference is None:
        return False
    return any(_in_minutes(ctx, use) for use in _uses(ctx, difference, None))


def _counters(loop: Optional[ast.AST]) -> set[str]:
    """``for i in range(n)`` / ``for i, batch in enumerate(...)`` / ``for i in tqdm(range(n))`` / ``while i < n``: i."""
    if isinstance(loop, ast.While):
        test = loop.test
        return {test.left.id} if isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) else set()
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return set()
    target = loop.target
    if isinstance(target, ast.Tuple) and target.elts:
        target = target.elts[0]
    return {target.id} if isinstance(target, ast.Name) else set()


def _parameters(ctx, node: ast.AST) -> set[str]:
    """A function timed once per call and handed the call's number (``def infer(image, model, i)``, called from
    the caller's loop): ``if i != 0:`` around the time drops the first, cold call as a loop counter would."""
    function = ctx.scope_of(node)
    arguments = getattr(function, "args", None)
    if arguments is None:
        return set()
    return {a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs}


def _uses(ctx, difference: ast.AST, loop: Optional[ast.AST]) -> list[ast.AST]:
    """Where the measurement goes: the difference itself, or the loads of the name it is assigned to (``t = end -
    start``) after it, in the same function (and inside ``loop``, when given)."""
    parent = ctx.index.parents.get(difference)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return [difference]
    scope, after = ctx.scope_of(parent), (parent.lineno, parent.col_offset)
    return [node for node in ctx.index.names_by_id.get(parent.targets[0].id, ())
            if isinstance(node.ctx, ast.Load) and (node.lineno, node.col_offset) > after
            and ctx.scope_of(node) is scope and (loop is None or loop in ctx.enclosing_loops(node))]


def _only_tested(ctx, use: ast.AST) -> bool:
    """``if elapsed < 1.0:``: the time decides a branch; it is reported only where the branch uses it."""
    child = use
    for parent in ctx.index.ancestors(use):
        if isinstance(parent, (ast.If, ast.While)):
            return child is parent.test
        if isinstance(parent, ast.stmt):
            return False
        child = parent
    return False


def _guarded(ctx, use: ast.AST, loop: ast.AST, counters: set[str]) -> bool:
    """Inside ``if i >= warmup:`` / ``if i > 0:`` (the body): the first iterations never get there."""
    child = use
    for parent in ctx.index.ancestors(use):
        if parent is loop:
            return False
        if isinstance(parent, ast.If) and child in parent.body and _skips_first(parent.test, counters):
            return True
        child = parent
    return False


def _skips_first(test: ast.AST, counters: set[str]) -> bool:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_skips_first(value, counters) for value in test.values)
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return False
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(right, ast.Name) and right.id in counters:  # warmup < i
        left, right = right, left
        op = {ast.Lt: ast.Gt(), ast.LtE: ast.GtE()}.get(type(op), op)
    if not (isinstance(left, ast.Name) and left.id in counters):
        return False
    if isinstance(op, (ast.Gt, ast.NotEq)):
        return not (isinstance(right, ast.Constant) and isinstance(right.value, int) and right.value < 0)
    if isinstance(op, ast.GtE):
        return not (isinstance(right, ast.Constant) and isinstance(right.value, int) and right.value <= 0)
    return False


def _list_drops_cold(ctx, use: ast.AST) -> bool:
    """``times.append(t)`` where the program later keeps ``times[k:]`` (k > 0), or takes its median or minimum."""
    call = ctx.index.parents.get(use)
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
            and isinstance(call.func.value, ast.Name)):
        return False
    scope = ctx.scope_of(call)
    for name in ctx.index.names_by_id.get(call.func.value.id, ()):
        parent = ctx.index.parents.get(name)
        if ctx.scope_of(name) is not scope:
            continue
        if isinstance(parent, ast.Subscript) and parent.value is name and isinstance(parent.slice, ast.Slice) \
                and parent.slice.lower is not None and parent.slice.upper is None:
            lower = parent.slice.lower
            if not (isinstance(lower, ast.Constant) and lower.value in (0, None)) \
                    and not isinstance(lower, ast.UnaryOp):  # times[-10:] keeps the last ten: cold ones may stay
                return True
        if isinstance(parent, ast.Call) and parent.args[:1] == [name] \
                and _function_name(parent.func) in _ROBUST_REDUCTIONS:
            return True
    return False


def _function_name(func: ast.AST) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


_CLOCK_FORMATS = frozenset({"gmtime", "localtime", "timedelta"})


def _in_minutes(ctx, use: ast.AST) -> bool:
    parent = ctx.index.parents.get(use)
    if isinstance(parent, ast.BinOp) and parent.left is use and isinstance(parent.op, (ast.FloorDiv, ast.Div, ast.Mod)):
        return isinstance(parent.right, ast.Constant) and parent.right.value in _TIME_UNITS
    if isinstance(parent, ast.Call) and _function_name(parent.func) == "divmod" and parent.args[:1] == [use]:
        return len(parent.args) == 2 and isinstance(parent.args[1], ast.Constant) and parent.args[1].value in _TIME_UNITS
    # time.strftime('%H:%M:%S', time.gmtime(elapsed)), datetime.timedelta(seconds=elapsed): a clock of hours
    return isinstance(parent, ast.Call) and _function_name(parent.func) in _CLOCK_FORMATS and use in parent.args + [
        k.value for k in parent.keywords]


def warmed_up_by_a_call(ctx, region) -> bool:
    """``def inf(): t0 = time.time(); ...; return time.time() - t0`` run on its own first (``inf()``, or a dry-run loop of
    ``_ = measure(model, x)``), then where its times are kept: the first calls are the warm-up, their cold time is not
    among the times kept."""
    info = ctx.function_at(region.scope)
    if info is None:
        return False
    sites = sorted(ctx.call_sites(info), key=lambda call: call.lineno)
    if sites and _told_to_warm_up(sites[0]) and any(not _told_to_warm_up(site) for site in sites[1:]):
        return True  # test_matmul(8192, ..., warmup=True) first, then the measured calls
    kept = [site for site in sites if not _dropped(ctx, site)]
    looped = [site for site in sites if ctx.index.enclosing_loops(site)]
    return bool(kept) and any(_dropped(ctx, site) and site.lineno < kept[0].lineno for site in sites) \
        or bool(looped) and any(not ctx.index.enclosing_loops(site) and _dropped(ctx, site)
                                and site.lineno < looped[0].lineno for site in sites)


def handed_function_ran_before(ctx, region) -> bool:
    """``def benchmark(fn, ...): fn(); torch.cuda.synchronize(); start.record(); fn() ...``: the function handed
    in (the work timed) ran once before the clock -- a warm-up, whatever it computes."""
    start = region.open
    info = ctx.function_at(region.scope)
    if start is None or info is None:
        return False
    handed = set(info.positional + info.keyword_only)
    calls = ctx.calls_in(region.scope)
    timed = {e.node.func.id for e in region.events if isinstance(e.node, ast.Call)
             and isinstance(e.node.func, ast.Name) and e.node.func.id in handed}
    timed |= {c.func.id for c in calls if isinstance(c.func, ast.Name) and c.func.id in handed
              and c.lineno > start.lineno}
    moved = {c.func.value.id for c in calls if isinstance(c.func, ast.Attribute) and c.func.attr in ("to", "cuda")
             and isinstance(c.func.value, ast.Name) and c.lineno < start.lineno}  # (net(x) on the CPU, then net.cuda())
    return any(isinstance(c.func, ast.Name) and c.func.id in timed - moved and c.lineno < start.lineno for c in calls)


def _told_to_warm_up(call: ast.Call) -> bool:
    """``run(..., warmup=True)``: the call's own keyword says it is the warm-up."""
    return any(k.arg is not None and "warm" in k.arg.lower() and isinstance(k.value, ast.Constant)
               and k.value.value is True for k in call.keywords)


def _dropped(ctx, call: ast.Call) -> bool:
    """``inf()`` / ``_ = measure(model, x)`` / ``warmup_timings = exp(model, shape, 200)``: a call whose time nobody
    keeps, or keeps under a warm-up's name (a warm-up, a dry run)."""
    parent = ctx.index.parents.get(call)
    return isinstance(parent, ast.Expr) or (isinstance(parent, ast.Assign) and all(
        isinstance(t, ast.Name) and (t.id == "_" or "warm" in t.id.lower()) for t in parent.targets))
