"""GA110: a Python loop of small elementwise ops on tiny CUDA tensors: launch-bound.

Must match:   b = torch.ones(4, device="cuda"); for _ in range(100000): b += b
              x = torch.zeros(3, device="cuda"); for i in range(n): x = x * 0.9 + 0.1
              hand-written gradient descent on a 5x2 input: x @ w, torch.mean, loss.backward(), w -= w.grad * lr
              29 steps of 30 elementwise ops on a 7x1000 state (torch.tensor(np.random.random((7, n))).cuda()),
              inside a loop of 49 trials: few iterations, but ops x iterations x trials add up
              y_pred = forward(X); l = loss(Y, y_pred) on 8 CUDA points, with def forward(x): return w * x
              (the ops inside the user's helpers count, sized from what the call sites pass)
              loss_fn = nn.MSELoss(); optimizer = torch.optim.SGD([w, b]) on 1-element w, b: the loss module
              and optimizer.step() are small ops too; sizes from torch.linspace(a, b, 2000) and from numpy
              data split with x_tr, y_tr = x[idx], y[idx]
              C[i] = A[i] + B[i] for i in range(1_000_000), A = torch.arange(N, device="cuda"): one element of a
              large 1-D tensor per op (t[i] drops a dimension of a shape the code spells out); the store into
              C[i] is an op too, also alone: out[i] = i * 2, hist[i % 10] += 1
              y = W.matmul(x) for 100 iterations, W 32x32 and x 32x1 on CUDA (the product has 32 elements)
              torch.bernoulli(p[i]) in a loop of 2,000 (a draw shaped like its input)
              h = F.relu(x @ W1 + b1); loss = F.binary_cross_entropy(torch.sigmoid(h @ W2), y) on a 64x2 input,
              with `for p in (W1, b1, W2): p -= lr * p.grad` (torch.nn.functional's elementwise ops and losses)
              model = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid()).to(device) trained 10,001 times on the 4x2 XOR
              table: a model built only of torch.nn layers whose sizes the code spells out (flow/tiny_models.py),
              its loss, backward and SGD(model.parameters()) step are tiny ops too
              GAE / returns one time step at a time over CUDA rollout buffers (rewards[t], zip(reversed(rewards),
              ...)), a running value carried from step to step: few elements a step (checks/step_recurrences.py)
              model = LinearRegressionModel(1, 1) of a class whose __init__ makes only nn.Linear(input_dim,
              output_dim) and whose forward calls it: the same tiny model, 1,000 epochs on an 11x1 array
Must not:     the same loop with the forward of a model the file does not size (a class of its own with a conv,
              a loop or another method in it, or imported,
              a convolution) or a large tensor (10,000,000 elements) in its body;  a loop that breaks early
              (`if i > 12: break` in range(100))
              for _ in range(10): b += b   (a few iterations and ops: nothing to win)
              an op on a tensor whose size the code does not say (a model's output, a parameter)
              rows[i] of a 100x100,000 tensor, flat[i:i + 50_000], flat[index_tensor]: not one element
              tiny tensors on the CPU; a loop over a DataLoader; returns over a list of CUDA tensors or host
              numbers, or a step loop that also runs a model
"""

from __future__ import annotations

import ast
from functools import partial
from typing import Iterator, Optional

from advisor.lint.checks.common import line_of, short, where
from advisor.lint.checks.step_recurrences import step_recurrence
from advisor.lint.flow import COMPUTE, CONTAINER, CUDA_TENSOR, KERNEL
from advisor.lint.flow.op_sizes import (
    MATMUL_FUNCTIONS,
    REDUCING_FUNCTIONS,
    REDUCING_METHODS,
    SAME_SIZE_FUNCTIONS,
    SAME_SIZE_METHODS,
)
from advisor.lint.model import CheckDoc, CheckInfo, Hit
from advisor.lint.torch_api import FUNCTIONAL_ELEMENTWISE, FUNCTIONAL_LOSSES
from advisor.lint.torch_factories import torch_factory

DOC = CheckDoc(
    what=('Finds a Python loop of many small ops (elementwise math, reductions, products of tiny matrices, '
          'the backward pass of such a loss) on tiny CUDA tensors: sizes the code spells out, below the size '
          'where the GPU beats the CPU (one element of a 1-D tensor, t[i], is one element). Counts and sizes '
          'come from constants, a parameter\'s default, or a command-line option\'s default (args.steps). '
          'A loop whose count the code spells out counts from 100 iterations, or '
          'below that when its ops times its iterations times the loops around it add up to 1,000 launches; '
          'the ops inside the user\'s own helper functions it calls count too (a parameter is as large as '
          'what the call sites pass); an elementwise loss module (nn.MSELoss, nn.L1Loss, ...) and the step of an '
          'optimizer built over a list of tiny tensors (torch.optim.SGD([w, b])) count as small ops, and so does a '
          'model built only of torch.nn layers whose sizes the code spells out (nn.Linear(2, 1), activations) '
          'with its optimizer -- also a model class of the file\'s own whose __init__ makes only such layers '
          '(LinearRegressionModel(1, 1)) and whose forward only calls them and elementwise math. '
          'A loop that computes returns or advantages one time step at a time over CUDA rollout buffers '
          '(for t in reversed(range(T)): gae = delta + gamma * lam * gae, from rewards[t] and values[t]) counts '
          'whatever the rollout\'s length: each step holds a few elements. '
          'An op on a tensor whose size the code does not say (a model\'s output, a parameter no call site '
          'sizes) is not known to be small, and keeps it quiet.'),
    why=('Every CUDA op is a kernel launch that costs the CPU several microseconds, while a tiny kernel runs '
         'in about one: the loop runs at the speed of launches. Below tens of thousands of elements an '
         'elementwise op is faster on the CPU; `gpu-advisor diagnose` measures where that crossover lies on '
         'your machine, and `lint --report` quotes it.'),
    bad="""\
import torch

b = torch.ones(4, device="cuda")
for _ in range(100_000):
    b += b
""",
    good="""\
import torch

b = torch.ones(4)  # tiny: keep it on the CPU (or do all iterations in one op)
for _ in range(100_000):
    b += b
""",
)

INFO = CheckInfo(
    id="GA110", name="launch-bound-loop", title="Loop of tiny CUDA ops (launch-bound)",
    severity="medium", confidence="inferred",
    cost="Every CUDA op is a kernel launch that costs the CPU ~5-10 us (typical) while a tiny kernel runs in "
         "about 1 us: a loop of small ops runs at the speed of launches, not of the GPU. Below roughly 10,000-"
         "50,000 elements (typical; it depends on the CPU and GPU) an elementwise op is faster on the CPU.",
    fix="Keep tiny tensors on the CPU (or use Python numbers); or vectorize: do all iterations in one op on a "
        "larger tensor; if the loop must stay on the GPU, capture it with torch.compile(mode=\"reduce-overhead\") "
        "or CUDA graphs (torch.cuda.graphs), which launch the whole loop body at once.",
    references=("https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html",
                "https://pytorch.org/docs/stable/notes/cuda.html#cuda-graphs"),
    doc=DOC,
)
TYPICAL_CROSSOVER = 10_000  # elements; H100/H200 hosts measure 20,000-40,000 for a float32 add
_MIN_ITERATIONS = 100
_MAX_CALL_DEPTH = 3  # calls into the user's functions followed from a loop body
_MIN_OPS_UNCOUNTED = 3  # ops per iteration that make a loop over a collection of unknown length worth reporting
_MIN_LAUNCHES = 1000  # a shorter loop still counts when its ops x iterations x the loops around it add up to this
_GRAPH_CAPTURE = frozenset({"torch.cuda.graph", "torch.cuda.graphs.graph"})
_COMPILERS = frozenset({"torch.compile", "torch.jit.script", "torch.jit.trace"})
_OPERATORS = (ast.BinOp, ast.UnaryOp, ast.Compare, ast.AugAssign)
SMALL_FUNCTIONS = SAME_SIZE_FUNCTIONS | REDUCING_FUNCTIONS | MATMUL_FUNCTIONS | {"einsum"}
SMALL_METHODS = SAME_SIZE_METHODS | REDUCING_METHODS | MATMUL_FUNCTIONS | {"expand", "expand_as"}  # (a view: sized by the shape it takes)


def run(ctx) -> Iterator[Hit]:
    if not ctx.uses_cuda:
        return
    threshold = ctx.machine.add_crossover or TYPICAL_CROSSOVER
    sized = _makes_sized_cuda_tensors(ctx)  # every size the linter knows starts at a factory with a constant shape
    reported: set[ast.AST] = set()
    stores_in = _stores(ctx)
    depth = {loop: len(ctx.index.enclosing_loops(loop)) for loop in ctx.index.loops}
    for loop in sorted(ctx.index.loops, key=lambda loop: -depth[loop]):  # innermost first
        recurrence = None if sized else step_recurrence(ctx, loop, partial(_is_small_op, ctx))
        if not sized and recurrence is None:
            continue  # no size known: only a recurrence over a rollout's buffers is known to be small
        if ctx.is_sweep(loop) or ctx.iterates_loader(loop) or _captured(ctx, loop):
            continue
        compute = [e for e in ctx.iteration_events(loop) if e.bits & (COMPUTE | KERNEL)]  # a random fill: a kernel
        stores = stores_in.get(loop, [])
        if not compute and not stores or (compute[0].node if compute else stores[0]) in reported:
            continue
        ops = _ops(ctx, compute, 0)
        if ops is None:
            continue
        ops += stores
        iterations = _iterations(ctx, loop)
        repeats = _repeats(ctx, loop)
        if iterations is not None and iterations < _MIN_ITERATIONS \
                and iterations * repeats * len(ops) < _MIN_LAUNCHES:
            continue  # a few short iterations: nothing to win (unless many ops, or a loop around, add up)
        if iterations is None and isinstance(loop, (ast.For, ast.AsyncFor)) and len(ops) < _MIN_OPS_UNCOUNTED \
                and not ctx.walks_cuda_tensor(loop):
            continue  # one or two tiny ops per element of a collection of unknown length (a loss summed over the
            # datasets of a config): nothing says the loop is long (a walk over a CUDA tensor's rows is as long as it)
        sizes = [_elements(ctx, node) for node in ops]
        if None in sizes:  # sizes unknown: small all the same when it steps through a rollout's buffers
            recurrence = recurrence or step_recurrence(ctx, loop, partial(_is_small_op, ctx))
            if recurrence is None:
                continue
        elif max(sizes) >= threshold:  # type: ignore[type-var]
            continue
        reported.update([e.node for e in compute] + stores)
        # the loop's own line (not inside a helper it calls): its first computing op, else its first fill or store
        first = next((e.node for e in compute if e.bits & COMPUTE), compute[0].node if compute else stores[0])
        first = min([first] + _copies_in(ctx, loop), key=lambda node: (node.lineno, node.col_offset))
        if recurrence is not None:
            yield _recurrence_hit(ctx, loop, first, len(ops), recurrence)
        else:
            yield _hit(ctx, loop, first, len(ops), max(sizes), iterations, repeats)  # type: ignore[type-var]


def _copies_in(ctx, loop: ast.AST) -> list[ast.AST]:
    """Copies of tiny host data to the GPU in the loop's own body (``inputs = torch.from_numpy(x_train).cuda()``):
    the body's first op, when the loop starts with one, is where the finding points."""
    calls = [node for statement in loop.body for node in ast.walk(statement) if isinstance(node, ast.Call)]
    return [call for call in calls if isinstance(call.func, ast.Attribute)
            and call.func.attr in ("cuda", "to") and ctx.is_cuda_tensor(call)
            and not ctx.kind(call.func.value) & CUDA_TENSOR  # (x_train.to(device) of a tensor already there: a no-op)
            and ctx.enclosing_loops(call)[:1] == [loop] and ctx.numel(call) is not None]


def _stores(ctx) -> dict[ast.AST, list[ast.AST]]:
    """``out[i] = v`` / ``acc[j] += 1`` into a CUDA tensor, by the loops around them: a copy or a fill kernel each,
    even when no op on tensors is written (``v`` a Python number). One pass over the file's assignments."""
    found: dict[ast.AST, list[ast.AST]] = {}
    for node in ctx.index.assigns:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and ctx.kind(target.value) & CUDA_TENSOR:
                for loop in ctx.enclosing_loops(target):
                    found.setdefault(loop, []).append(target)
    for stores in found.values():
        stores.sort(key=lambda t: (t.lineno, t.col_offset))
    return found


def _ops(ctx, compute: list, depth: int) -> Optional[list[ast.AST]]:
    """The ops an iteration runs: a call into the user's function (y_pred = forward(X)) stands for the ops
    inside it, whose sizes come from what the call sites pass; None past a few levels of calls."""
    ops: list[ast.AST] = []
    for event in compute:
        if event.callee is None or isinstance(event.node, ast.Call) and ctx.tiny_model(event.node.func) is not None:
            ops.append(event.node)  # (a tiny model class of the user's: sized as a whole, by its layers)
            continue
        inner = [e for e in ctx.function_events(event.callee) if e.bits & COMPUTE] if depth < _MAX_CALL_DEPTH else []
        if any(ctx.index.enclosing_loops(e.node) for e in inner):
            return None  # the function's own loop is the hot one, judged (and reported) on its own
        expanded = _ops(ctx, inner, depth + 1) if inner else None
        if not expanded:
            return None  # a function we cannot see into: its ops may be anything
        ops.extend(expanded)
    return ops


def measured_cost(machine) -> Optional[str]:
    if not (machine.launch_us or machine.add_crossover):
        return None
    launch, crossover = _launch(machine), _crossover(machine)
    return (f"Every CUDA op is a kernel launch: {launch}; {crossover}. A loop of small ops runs at the speed of "
            "launches, not of the GPU.")


def _launch(machine) -> str:
    if machine.launch_us:
        return f"~{machine.launch_us:.1f} us of CPU time to launch ({machine.where})"
    return "~5-10 us of CPU time to launch (typical)"


def _crossover(machine) -> str:
    if machine.add_crossover:
        return (f"below {machine.add_crossover:,} elements a float32 add is faster on the CPU than on the GPU here "
                f"({machine.where})")
    return (f"below roughly {TYPICAL_CROSSOVER:,} elements an elementwise op is usually faster on the CPU "
            "(typical; `gpu-advisor diagnose` measures this machine's crossover)")


def _gpu_time(machine) -> str:
    if machine.tiny_kernel_us:
        return f"~{machine.tiny_kernel_us:.1f} us"
    return "about 1 us"


def _iterations(ctx, loop: ast.AST) -> Optional[int]:
    """The count the code spells out, cut short by ``if i > 12: break`` on the loop's own counter (a profiling
    loop that stops after a dozen steps runs a dozen, not range(100)'s hundred)."""
    count = ctx.loop_iterations(loop)
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.target, ast.Name):
        return count
    for statement in loop.body:
        if not (isinstance(statement, ast.If) and any(isinstance(s, ast.Break) for s in statement.body)):
            continue
        test = statement.test
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
                and test.left.id == loop.target.id and isinstance(test.ops[0], (ast.Gt, ast.GtE, ast.Eq)):
            limit = ctx.int_value(test.comparators[0])
            if limit is not None:
                ran = limit + (2 if isinstance(test.ops[0], ast.Gt) else 1)
                count = ran if count is None else min(count, ran)
    return count


def _repeats(ctx, loop: ast.AST) -> int:
    """How many times the loops around ``loop`` run it, as far as the code spells their counts out."""
    total = 1
    for outer in ctx.enclosing_loops(loop):
        count = None if ctx.is_sweep(outer) else ctx.loop_iterations(outer)
        total *= count if count else 1
    return total


def _hit(ctx, loop: ast.AST, first: ast.AST, ops: int, elements: int, iterations: Optional[int],
         repeats: int = 1) -> Hit:
    machine = ctx.machine
    runs = f", for {iterations:,} iterations" if iterations is not None else ""
    if runs and repeats > 1:
        runs += f" run {repeats:,} times by the loops around it"
    launch, crossover = _launch(machine), _crossover(machine)
    statement = ctx.index.statement_of(first)
    what = short(statement if statement is not None and statement.lineno == statement.end_lineno else first)
    # a bound: a slice x[i] counts x's elements, a product a @ b (elements of a) x (elements of b)
    size = f"tensor{'s' if ops > 1 else ''} of at most {elements:,} element{'s' if elements > 1 else ''}"
    message = (f"the loop at {where(ctx, loop)} runs {ops} small CUDA op{'s' if ops > 1 else ''} per iteration "
               f"({what}) on {'a ' if ops == 1 else ''}{size}{runs}: each op costs {launch} for {_gpu_time(machine)} "
               f"of GPU work, so the loop is launch-bound; {crossover}")
    evidence = {"loop_line": line_of(ctx, loop), "elements": elements, "ops_per_iteration": ops,
                "iterations": iterations, "repeats": repeats, "crossover_elements": machine.add_crossover or TYPICAL_CROSSOVER,
                "crossover_source": "measured" if machine.add_crossover else "typical"}
    return Hit(message, node=first, evidence=evidence)


def _recurrence_hit(ctx, loop: ast.AST, first: ast.AST, ops: int, recurrence: tuple[str, ast.AST]) -> Hit:
    carried, element = recurrence
    launch, crossover = _launch(ctx.machine), _crossover(ctx.machine)
    message = (f"the loop at {where(ctx, loop)} steps through CUDA buffers one time step at a time ({short(element)}), "
               f"carrying {carried} from step to step: its {ops} ops per step each work on one step's few elements, "
               f"so each costs {launch} for {_gpu_time(ctx.machine)} of GPU work and the loop is launch-bound "
               f"however long the rollout; {crossover}. Compute it on the CPU (rewards.cpu(), a NumPy loop) or as "
               "one vectorized discounted sum")
    evidence = {"loop_line": line_of(ctx, loop), "elements": None, "ops_per_iteration": ops, "iterations": None,
                "repeats": 1, "carried": carried, "element": short(element, 120),
                "crossover_elements": ctx.machine.add_crossover or TYPICAL_CROSSOVER,
                "crossover_source": "measured" if ctx.machine.add_crossover else "typical"}
    return Hit(message, node=first, evidence=evidence)


def _captured(ctx, loop: ast.AST) -> bool:
    """Inside `with torch.cuda.graph(g):` or a @torch.compile function: launched as one graph -- the fix."""
    for parent in ctx.index.ancestors(loop):
        if isinstance(parent, (ast.With, ast.AsyncWith)) and any(
                (ctx.qual(item.context_expr.func) if isinstance(item.context_expr, ast.Call) else None)
                in _GRAPH_CAPTURE for item in parent.items):
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                ctx.qual(d.func if isinstance(d, ast.Call) else d) in _COMPILERS for d in parent.decorator_list):
            return True
    return False


def _makes_sized_cuda_tensors(ctx) -> bool:
    """A CUDA tensor made with a size the code spells out: tiny itself, or large with tiny parts (``t[i]``)."""
    for call in ctx.index.calls:
        name = ctx.qual(call.func) or ""
        if name.startswith("torch.") and name.count(".") == 1 and ctx.is_cuda_tensor(call) \
                or isinstance(call.func, ast.Attribute) and call.func.attr in ("cuda", "to") and ctx.is_cuda_tensor(call):
            if ctx.numel(call) is not None:
                return True
    return False


def _elements(ctx, node: ast.AST) -> Optional[int]:
    """Elements of the largest tensor an op touches or makes, when the code says (None otherwise): every
    operand must be a Python number or a tensor of known size -- an operand the linter cannot size (a
    model's output, a parameter) may be large, so the op is not known to be small."""
    if isinstance(node, ast.Subscript):  # a store into part of a CUDA tensor
        return ctx.numel(node)
    if isinstance(node, ast.AugAssign):
        target = ctx.numel(node.target) if ctx.kind(node.target) & CUDA_TENSOR else None
        if target is not None:
            return target  # in place: whatever is added must broadcast into the target's elements
        parts = [node.target, node.value]
    elif isinstance(node, ast.Call):
        if _is_backward(ctx, node):
            return ctx.numel(node.func.value)  # replays the ops that made the loss: known only if it is
        if ctx.is_loss_module(node.func):
            parts = [node] + list(node.args[:2])  # loss_fn(z, y): an elementwise op and a reduction
        elif _is_optimizer_step(ctx, node):
            parts = ctx.optimized_tensors(node.func.value)  # one small update per tensor it holds
            if parts is None:  # SGD(net.parameters()) of a net of tiny nn layers: its largest parameter
                return ctx.optimized_tiny_model(node.func.value).parameters or None  # type: ignore[union-attr]
        elif ctx.tiny_model(node.func) is not None:  # net(x), net = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())
            parts = [node] + list(node.args)
            largest_parameter = ctx.tiny_model(node.func).parameters  # type: ignore[union-attr]
            if largest_parameter >= (ctx.machine.add_crossover or TYPICAL_CROSSOVER):
                return largest_parameter
        elif torch_factory(ctx.qual(node.func) or ""):  # torch.randint(4, 227, size=(512,), device="cuda"): one fill kernel
            parts = [node]
        elif not _is_small_op(ctx, node):
            return None
        else:
            parts = [node] + ([node.func.value] if isinstance(node.func, ast.Attribute) and not ctx.qual(node.func)
                              else [])
            parts += list(node.args) + [k.value for k in node.keywords if ctx.kind(k.value) & CUDA_TENSOR]
    elif isinstance(node, _OPERATORS):
        parts = [node] + [n for n in ast.iter_child_nodes(node) if isinstance(n, ast.expr)]
    else:
        return None
    largest = 0
    for part in parts:
        kind = ctx.kind(part)
        if kind & CONTAINER or ctx.is_number(part) or kind and not kind & CUDA_TENSOR \
                or isinstance(part, ast.Constant) and isinstance(part.value, str):
            continue  # a Python number, a CPU value, a dtype, einsum's equation: no CUDA elements of its own
        count = ctx.numel(part)
        if count is None:
            return None
        largest = max(largest, count)
    return largest or None


def _is_optimizer_step(ctx, call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr == "step" and not call.args \
        and (ctx.optimized_tensors(call.func.value) is not None or ctx.optimized_tiny_model(call.func.value) is not None)


def _is_backward(ctx, call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr == "backward" and not ctx.qual(call.func) \
        and bool(ctx.kind(call.func.value) & CUDA_TENSOR)


def _is_small_op(ctx, call: ast.Call) -> bool:
    """An elementwise op, a reduction or a matrix product: a kernel as small as its operands (not a model,
    a solver, a user's function)."""
    name = ctx.qual(call.func) or ""
    if name.startswith("torch.") and name.count(".") == 1:
        return name[6:] in SMALL_FUNCTIONS
    if name.startswith("torch.nn.functional."):  # F.relu(h), F.mse_loss(out, y)
        return name[20:] in FUNCTIONAL_ELEMENTWISE or name[20:] in FUNCTIONAL_LOSSES
    return isinstance(call.func, ast.Attribute) and not name and call.func.attr in SMALL_METHODS \
        and bool(ctx.kind(call.func.value) & CUDA_TENSOR)
