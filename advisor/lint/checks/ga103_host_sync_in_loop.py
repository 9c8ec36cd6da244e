"""GA103: a host read of a CUDA tensor on every iteration of a training or benchmark loop.

Must match:   for x, y in loader: loss = step(x, y); running += loss.item()
              for x, y in loader: ...; print(loss) / float(loss) / if loss < best: / f"{loss}"
              for batch in loader: loss = train_step(batch)   where train_step returns loss.item()
              for t in range(N): ...; print(t, loss.item()) / if not math.isfinite(loss): / writer.add_scalar(..., loss)
              for t in range(N): ...; print(t, loss.item()); for p in model.parameters(): p -= lr * p.grad
              step = make_step(model); for x in data: step(x)   where the nested step returns loss.item()
              for t in range(N): opt.step(closure)   where closure prints loss.item() and tests `if loss > 100:`
              opt = torch.optim.LBFGS(params, max_iter=500); opt.step(closure)   where closure prints loss.item()
                (LBFGS runs the closure up to max_iter times in one step: a loop the file shows by its call)
                (each read of a helper only this loop runs is reported)
              for batch in batches: (for item in batch: encode(item)); loss.backward(); opt.step(); loss.item()
              for data in loader: ...; if RANK == 0: print(loss.item())   (the main process reads every step)
              def train(model, loader, loss, opt, device): ...; value = loss(out, y); print(value)  (a loss handed in)
              for micro in range(n): x, y = get_batch(split, ctx.device); ...; total += loss.item()
              for x, y in loader: ...; for j in range(len(y)): hits[y[j]] += correct[j].item()  (per element)
              for t in range(n): sim.update()  where update walks self.forces (a few registered parts) and prints
              if verbose: / if args.verbose: print(loss.item())   (a switch set before the loop: when on, every step)
Must not:     ...; total += loss.detach()  then  total.item() after the loop
              if step % 100 == 0: print(loss.item())      (some iterations only)
              for epoch in range(n): train_one_epoch(); print(val_loss.item())   (once per epoch)
              for x, y in loader: ...; print(loss.item()); break                 (runs once: a smoke test)
              the same loop in a file with no sign of CUDA at all (CPU code by the project's convention)
              wandb.log(get_wandb_logs(loss_item, recall))   (a record a helper the file does not show built:
                a dict logger is never handed a bare tensor)
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint.checks.common import line_of, short, where
from advisor.lint.checks.few_waits import few_elements, few_runs, sites_in_loops
from advisor.lint.checks.lbfgs_closures import lbfgs_closure_reads
from advisor.lint.flow import CPU_TENSOR, CUDA_TENSOR, SYNC
from advisor.lint.model import CheckDoc, CheckInfo, Hit

DOC = CheckDoc(
    what=('Finds a host read of a CUDA tensor -- .item(), .cpu(), .tolist(), float(t), print(t), an '
          'f-string, `if t:`, math.isfinite(t), a logger handed the tensor (writer.add_scalar, wandb.log), a NumPy '
          'array or a list indexed by a CUDA tensor (confusion[t, p] += 1, classes[pred]: each index is read) -- on '
          'every iteration of a training or benchmark loop, also inside a helper or closure the loop calls '
          '(through a name bound to it, a factory that returns it, optimizer.step(closure)); a read inside a '
          'helper that only this loop calls is reported where it is; one in a helper used elsewhere too, at the '
          'call in the loop.'),
    why=('A host read waits until all queued GPU work has finished, then copies the value back. While it '
         'waits the CPU cannot queue the next step, so the GPU idles between steps; for small steps this can '
         'halve throughput.'),
    bad="""\
import torch

model = torch.nn.Linear(128, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(64, 128, device="cuda")
for step in range(1000):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())  # waits for the GPU every step
""",
    good="""\
import torch

model = torch.nn.Linear(128, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(64, 128, device="cuda")
for step in range(1000):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:  # read it only now and then
        print(step, loss.item())
""",
)

INFO = CheckInfo(
    id="GA103", name="host-sync-in-loop", title="Host-GPU synchronization inside a hot loop",
    severity="medium", confidence="inferred",
    cost="Each host read of a CUDA tensor waits for all queued GPU work, then copies it back: the CPU stops "
         "queueing the next step, the GPU idles until it does (~20-25 us per .item() on an H100 plus the "
         "lost overlap; for small steps it can halve throughput). Typical figures; `lint --report` quotes this "
         "machine's.",
    fix="Keep values on the GPU inside the loop (running_loss += loss.detach(); correct += (pred == y).sum()) "
        "and read them once after the loop, or only every N steps under `if step % N == 0:`; collect "
        "predictions in a list of CUDA tensors and torch.cat(...).cpu() once at the end.",
    references=("https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html"
                "#avoid-unnecessary-cpu-gpu-synchronization",),
    doc=DOC,
)


def describe(node: ast.AST) -> str:
    if isinstance(node, ast.FormattedValue):
        return f"formatting the CUDA tensor {short(node.value)} into a string"
    if isinstance(node, ast.BinOp):  # "%.4f" % loss
        return f"formatting {short(node.right)} into a string with %"
    if isinstance(node, ast.Call):
        return short(node)
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):  # y_true[i] = labels (a CPU tensor's slot)
        return f"storing a CUDA tensor into {short(node)} of a CPU tensor (a copy back to the host)"
    if isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)):  # k not in t: __contains__
        return f"{short(node)} (asking a CUDA tensor whether it holds a value)"
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):  # (host data is read by a CUDA index)
        return f"{short(node)} (torch 0.3's way of writing .item())"  # loss.data[0]
    if isinstance(node, ast.Subscript) and any(isinstance(part, ast.Slice) for part in (
            node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice])):  # img[:, x1:x2]
        return f"slicing {short(node.value)} with bounds held in CUDA tensors, {short(node)},"
    if isinstance(node, ast.Subscript):  # classes[pred], confusion[t, p] += 1
        return f"indexing {short(node.value)} (host data) with a CUDA tensor, {short(node)},"
    if isinstance(node, (ast.UnaryOp, ast.BoolOp)):  # `return not bad`, `ok = a or b` outside a condition
        return f"{short(node)} (Python asks the CUDA tensor for its truth value)"
    return f"using the CUDA tensor {short(node)} as a condition"


def measured_cost(machine) -> Optional[str]:
    if not machine.item_us:
        return None
    return (f"Each host read of a CUDA tensor waits for all queued GPU work, then copies it back: the CPU stops "
            f"queueing the next step, the GPU idles until it does (~{machine.item_us:.0f} us per .item() round "
            f"trip, {machine.where}, plus the lost overlap; for small steps it can halve throughput).")


_ELEMENT_READS = frozenset({"item", "tolist", "cpu"})
_HELPER_DEPTH = 3  # helpers inside helpers followed from a loop's sole call
_WAIT_LINES = 5  # a read this close before the clock that ends a region is the latency test's wait; one followed by
# a page of host post-processing before the clock (a prediction pipeline timed per image) is the program's own read


def _comprehension_reads(ctx) -> Iterator[Hit]:
    """``[x.item() for x in preds]`` over a list of CUDA tensors (or a CUDA tensor's rows), also ``int(x)`` or a
    Python list indexed by the element (``[CLASSES[label] for label in predictions]``: ``__index__`` reads it): one
    wait for the GPU per element; torch.stack(preds).tolist() / torch.cat(preds).cpu() reads them all at once."""
    for node in ctx.index.parents:
        if node.__class__ not in (ast.ListComp, ast.GeneratorExp, ast.SetComp) or len(node.generators) != 1:
            continue
        generator = node.generators[0]
        if not isinstance(generator.target, ast.Name):
            continue
        if ctx.kind(generator.iter) & CUDA_TENSOR:
            read = _element_read(ctx, node.elt, generator.target.id, _a_parameter(ctx, generator.iter))
        else:  # [loss_fn(a[i], b[i]).item() for i in range(len(a))]: a CUDA value computed per index, read
            name = generator.target.id
            read = _read_of_computed(node.elt, lambda n, name=name: isinstance(n, ast.Name) and n.id == name)
            read = read if read is not None and ctx.kind(read.func.value) & CUDA_TENSOR else None
        loops = ctx.enclosing_loops(node)
        if any(ctx.runs_on_some_iterations(node, loop) for loop in loops) or not loops and few_elements(ctx, generator.iter):
            continue  # `if step % 100 == 0: norm = sum(p.grad.norm().item() ** 2 for p in ...)`: now and then;
            # `' '.join(CLASSES[predicted[j].item()] for j in range(4))` once: four reads, nothing to win
        if read is not None and not _filled_once_per_epoch(ctx, generator.iter):
            yield Hit(f"{short(read)} waits for the GPU once per element of {short(generator.iter)}: read them "
                      "all at once (torch.stack(...).tolist() or torch.cat(...).cpu())", node=read)


def _lbfgs_closure_reads(ctx) -> Iterator[Hit]:
    """Reads in the closure an L-BFGS step evaluates up to max_iter times (lbfgs_closures.py)."""
    for step, iterations, read in lbfgs_closure_reads(ctx):
        yield Hit(f"{describe(read.node)} waits for the GPU on every evaluation of the L-BFGS closure: "
                  f"{short(step)} ({where(ctx, step)}) runs it up to {iterations} times",
                  node=_pointed_at(ctx, read.node), evidence={"step_line": line_of(ctx, step)})


def _pointed_at(ctx, read: ast.AST) -> ast.AST:
    """Where a read in a helper is reported: the call or format itself, the part of a condition that reads
    (`if step > 3 and loss > 2:` -> `loss > 2`), a formatted value rather than its f-string."""
    node = read if isinstance(read, (ast.Call, ast.BinOp, ast.FormattedValue)) else ctx.condition_read(read)
    return node.value if isinstance(node, ast.FormattedValue) else node


def _filled_once_per_epoch(ctx, value: ast.AST) -> bool:
    """``[i.item() for i in training_losses]`` after training, where ``training_losses.append(...)`` runs once per
    epoch (in a loop around the loop of steps, not in it): a handful of values read once at the end -- the GPU is idle
    by then, each read is a short copy, and there is no step left to stall."""
    if not isinstance(value, ast.Name):
        return False
    scope = ctx.index.scope_of(value)
    fills = [call for call in ctx.index.calls_by_name.get("append", []) + ctx.index.calls_by_name.get("extend", [])
             if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
             and call.func.value.id == value.id and ctx.index.scope_of(call) is scope]
    return bool(fills) and all((loops := ctx.index.enclosing_loops(call)) and _an_epoch_loop(ctx, loops[0])
                               for call in fills)


def _an_epoch_loop(ctx, loop: ast.AST) -> bool:
    """Not hot itself, and a loop inside it is (its loop of steps)."""
    return not ctx.loop_is_hot(loop) and any(ctx.loop_is_hot(inner) for inner in ctx.index.loops
                                             if loop in ctx.index.enclosing_loops(inner))


def _a_parameter(ctx, value: ast.AST) -> bool:
    """``float(v) for v in values`` in ``def add(self, *values)``: the read happens in the caller's loop, which the
    loop pass reports at the call."""
    return isinstance(value, ast.Name) and value.id in ctx.index.parameters


def _element_read(ctx, element: ast.AST, name: str, of_a_parameter: bool) -> Optional[ast.AST]:
    def is_element(node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id == name

    if isinstance(element, ast.Call) and isinstance(element.func, ast.Attribute) \
            and element.func.attr in _ELEMENT_READS and is_element(element.func.value):
        return element
    if of_a_parameter:
        return None
    computed = _read_of_computed(element, is_element)
    if computed is not None:
        return computed
    if isinstance(element, ast.Call) and len(element.args) == 1 and is_element(element.args[0]) \
            and isinstance(element.func, ast.Name) and element.func.id in ("int", "float", "bool") \
            and element.func.id not in ctx.index.bound_names:
        return element
    if isinstance(element, ast.Subscript) and is_element(element.slice) \
            and not ctx.kind(element.value) & (CUDA_TENSOR | CPU_TENSOR) and not _a_dict(ctx, element.value):
        return element  # a Python list indexed by a CUDA tensor (a dict hashes the tensor object: no read)
    return next((node for node in ast.walk(element) if node is not element and isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Attribute) and node.func.attr in _ELEMENT_READS
                 and is_element(node.func.value)), None)  # (class_mapping[i.item()]: the read inside)


def _read_of_computed(element: ast.AST, is_element) -> Optional[ast.AST]:
    """``[((f - mean) @ prec).min().cpu().item() for f in rows]``: a read of a value computed from the element (a
    CUDA row, so the result is on CUDA too) -- the first read on the way out (``.cpu()``; the ``.item()`` after it
    reads a host tensor). The element's own read counts only as the whole element (above)."""
    for node in ast.walk(element):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _ELEMENT_READS \
                and not node.args and not _a_read(node.func.value) and not is_element(node.func.value) \
                and any(is_element(part) for part in ast.walk(node.func.value)):
            return node
    return None


def _a_read(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _ELEMENT_READS


def _a_dict(ctx, value: ast.AST) -> bool:
    values = ctx.index.assigned_values.get(value.id, []) if isinstance(value, ast.Name) else [value]
    return any(isinstance(v, (ast.Dict, ast.DictComp)) or isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
               and v.func.id in ("dict", "defaultdict", "OrderedDict", "Counter") for v in values)


def run(ctx) -> Iterator[Hit]:
    yield from _comprehension_reads(ctx)
    yield from _lbfgs_closure_reads(ctx)
    timing = None  # the reads that close a timed region: a latency test's wait, not a stall (built on first need)
    for loop in ctx.loops_with_host_reads():
        if not ctx.loop_is_hot(loop) or few_runs(ctx, loop):
            continue
        if timing is None:
            timing = _timing_waits(ctx)
        for event in ctx.host_reads(loop):
            if id(event.node) in timing or _stores_a_weight(ctx, event.node):
                continue
            # Python 3.11 places every part of an f-string at the f-string: point at the formatted value
            read = event.node
            if not isinstance(read, (ast.Call, ast.BinOp, ast.FormattedValue, ast.Subscript)):
                read = ctx.condition_read(read)  # `if step > 3 and loss > 2:` points at `loss > 2`
            node = read.value if isinstance(read, ast.FormattedValue) else read
            yield Hit(f"{describe(read)} waits for the GPU on every iteration of the loop at "
                      f"{where(ctx, loop)}", node=node, evidence={"loop_line": line_of(ctx, loop)})
        for call, inner in ctx.calls_with_host_reads(loop):
            if id(inner.node) in timing:
                continue
            if _only_caller(ctx, [call.callee]):
                # the helper runs only from this loop: each read in it is what to change, not only the first
                yield from _reads_inside(ctx, loop, call, timing)
                continue
            # a helper used elsewhere too is fine there: calling it on every iteration is the mistake
            yield Hit(f"{short(call.node)} waits for the GPU on every iteration of the loop at {where(ctx, loop)}: "
                      f"it calls {describe(inner.node)} ({where(ctx, inner.node)})", node=call.node,
                      evidence={"loop_line": line_of(ctx, loop), "sync_line": line_of(ctx, inner.node)})


def _reads_inside(ctx, loop, call, timing: set[int]) -> Iterator[Hit]:
    """The reads a loop's sole call of a helper makes: each read in the helper and in the helpers only it calls, at its
    own line; and each call it makes to a helper used elsewhere too that reads (check_tensor(x) from two places), at
    that calling line -- the session-12 placement, one level down."""
    holders = _with_sole_helpers(ctx, [call.callee])
    runs_it = f"{short(call.node)} ({where(ctx, call.node)}) runs it"
    for holder in holders:
        for read in ctx.every_call_host_reads(holder):
            if read.callee is not None or id(read.node) in timing:
                continue
            yield Hit(f"{describe(read.node)} waits for the GPU on every iteration of the loop at {where(ctx, loop)}: "
                      f"{runs_it}", node=_pointed_at(ctx, read.node), evidence={"loop_line": line_of(ctx, loop),
                                                                               "sync_line": line_of(ctx, read.node)})
        for inner_call in ctx.every_call_helper_calls(holder):
            inner = ctx.helper_host_read(inner_call.callee) if inner_call.callee not in holders else None
            if inner is None or id(inner.node) in timing:
                continue
            evidence = {"loop_line": line_of(ctx, loop), "sync_line": line_of(ctx, inner.node)}
            if len(sites_in_loops(ctx, inner_call.callee)) <= 1:  # this loop is the only one reaching it: the read
                yield Hit(f"{describe(inner.node)} waits for the GPU on every iteration of the loop at "  # itself
                          f"{where(ctx, loop)}: {runs_it}", node=_pointed_at(ctx, inner.node), evidence=evidence)
                continue
            # reached from other loops too: each loop's calling line is the place (the session-25 rule for chains
            # of helpers), not the call inside this loop's own helper
            yield Hit(f"{short(call.node)} waits for the GPU on every iteration of the loop at {where(ctx, loop)}: it "
                      f"calls {short(inner_call.node)} ({where(ctx, inner_call.node)}), which calls "
                      f"{describe(inner.node)} ({where(ctx, inner.node)})", node=call.node, evidence=evidence)


def _timing_waits(ctx) -> set[int]:
    """Reads that close a clock pair in the same iteration (``out.sum().to('cpu')`` just before ``end = time.time()``):
    how a latency test waits for the GPU -- removing them would break the number, not speed the loop up. A read
    deeper in a loop the clock pair surrounds (an epoch clock around per-batch reads) is no such wait."""
    waits = set()
    for region in ctx.timed_regions():
        if region.how == "events":
            continue  # start.record() / end.record(): CUDA events time the stream, no host read makes them right
        sync = region.closing_sync
        loops = ctx.enclosing_loops(region.close) if region.close is not None else []
        if loops and (ctx.loop_runs_update(loops[0])
                      or sync is not None and ctx.iterates_loader(loops[0]) and _kept(ctx, sync.node, loops[0])):
            continue  # a training step's loss.item() before its step clock logs the loss, an evaluation pass's
            # outputs moved to the CPU per batch before its model clock and used after it (torchvision's evaluate):
            # reads like any other
        if sync is not None and region.close is not None and not _several_reads_close(region) \
                and region.close.lineno - sync.node.lineno <= _WAIT_LINES \
                and ctx.index.enclosing_loops(sync.node) == ctx.index.enclosing_loops(region.close):
            waits.add(id(sync.node))
    return waits


def _kept(ctx, read: ast.AST, loop: ast.AST) -> bool:
    """Is what ``read`` reads back bound to a name the loop uses again further down (``outputs = [... .to(cpu)]``,
    then ``evaluator.update(outputs)``)? A wait's value is dropped (``out = model(x).sum().item()``, never read); one
    collected into a list (``v_acc.extend((pred == y).cpu().tolist())``) is kept for later."""
    statement = read
    while statement is not None and not isinstance(statement, ast.stmt):
        statement = ctx.index.parents.get(statement)
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
            and isinstance(statement.value.func, ast.Attribute) and statement.value.func.attr in ("append", "extend"):
        return True
    if not isinstance(statement, ast.Assign):
        return False
    names = {n.id for target in statement.targets for n in ast.walk(target) if isinstance(n, ast.Name)}
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names
               and n.lineno > (statement.end_lineno or statement.lineno)
               for n in ast.walk(loop))


def _stores_a_weight(ctx, read: ast.AST) -> bool:
    """``W.weight.data = torch.matmul(W_, Q).to("cpu", dtype=dtype)`` per layer: a weight rewritten on the GPU and stored
    back on the CPU (model surgery layer by layer, offloading). The copy is the result, not a read to leave out."""
    statement = ctx.index.statement_of(read)
    return isinstance(statement, ast.Assign) and statement.value is read and all(
        isinstance(target, ast.Attribute) and target.attr in ("data", "weight", "bias") for target in statement.targets)


def _several_reads_close(region) -> bool:
    """``loss.item(); acc1.item(); acc5.item()`` for a meter, then the clock: values read for their own sake (one
    wait would do for the clock), not the single read a latency test makes to wait for the GPU."""
    return sum(1 for e in region.events if e.bits & SYNC) > 1


def _with_sole_helpers(ctx, holders: list, depth: int = 0) -> list:
    """The holders and, through them, each helper that only they call, once per call of theirs (Metrics.update
    calling self.distance(a, b), which reads max_min_dist.item()): its reads run on every iteration too."""
    found = list(holders)
    if depth >= _HELPER_DEPTH:
        return found
    for holder in holders:
        helpers = [e.callee for e in ctx.every_call_helper_calls(holder)
                   if e.callee not in found and len(ctx.call_sites(e.callee)) == 1]
        found.extend(h for h in _with_sole_helpers(ctx, helpers, depth + 1) if h not in found)
    return found


def _only_caller(ctx, holders) -> bool:
    """Is this call the only call site of the helper it enters and of the function holding the read? Then the read
    is reported inside the helper (one place to change). With two or more call sites -- in other loops, or twice in
    this one (check(a) and check(b) per class) -- each call in a loop is reported instead: each is where the program
    chose to read per step (the placement settled for the lint corpora in session 12)."""
    return all(len(sites_in_loops(ctx, info)) <= 1 for info in holders)
