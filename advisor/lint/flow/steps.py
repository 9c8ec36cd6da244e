"""Training steps: which loop bodies run the update (``loss.backward()``, ``optimizer.step()``), and which run
only once.

A loop whose own body runs the update is the step loop, whatever loops it holds: the per-item encodes
that build a batch and the per-layer losses summed before ``loss.backward()`` are parts of one step. A loop
whose every iteration steps the optimizer is a training run: a clock pair around all of it times epochs,
not queued kernels.
"""

from __future__ import annotations

import ast
import builtins
import re

from advisor.lint.flow.effects import COMPUTE, Event
from advisor.lint.index import FUNCTION_TYPES, LOOP_TYPES, children
from advisor.lint.names import dotted, last_identifier
from advisor.lint.torch_api import ENVIRONMENT_NAME

UPDATES = frozenset({"backward", "step", "grad"})  # (torch.autograd.grad: a hand-written or meta-learning step)
OPTIMIZER_STEP = frozenset({"step"})
_OWN_UPDATES = UPDATES - {"grad"}  # a step of its own: backward() or a step(), not torch.autograd.grad alone
# an optimizer (or GradScaler) handed in from outside, whose parameters the file cannot place
_NOT_THIS_BODY = (*FUNCTION_TYPES, *LOOP_TYPES, ast.Lambda, ast.ClassDef)
_OPTIMIZER_NAME = re.compile(r"optim|^opt(_\w+)?$|scaler", re.IGNORECASE)


def runs_update(events: list[Event], updates: frozenset = UPDATES) -> bool:
    """Do these events (one loop body, inner loops aside) run a training update on CUDA: ``loss.backward()``
    of a CUDA tensor, or ``optimizer.step()`` / ``scaler.step(opt)`` of an optimizer over CUDA parameters?
    ``updates=OPTIMIZER_STEP`` asks for the optimizer step only (a gradient-accumulation loop only runs
    backward)."""
    for event in events:
        call = event.node
        if event.callee is None and event.bits & COMPUTE and isinstance(call, ast.Call) \
                and isinstance(call.func, ast.Attribute) and call.func.attr in updates:
            return True
    return False


def update_calls(body: list[ast.stmt], updates: frozenset = UPDATES) -> list[ast.Call]:
    """The ``X.step()`` / ``X.backward()`` calls in ``body`` outside its inner loops and definitions."""
    return [call for call in _body_calls(body) if isinstance(call.func, ast.Attribute) and call.func.attr in updates]


def steps_on_its_own(body: list[ast.stmt]) -> bool:
    """Does this loop body run backward() or a step (an optimizer's, an environment's)? MAML's inner adaptation only
    differentiates (``grads = torch.autograd.grad(loss, params, create_graph=True)``; ``params = [p - lr * g ...]``):
    part of the task's step, not micro steps that make the loop around it a round of steps."""
    return bool(update_calls(body, _OWN_UPDATES))


def is_step_function(node: ast.AST) -> bool:
    """``def training_step(self, batch): ...; loss.backward(); self.optimizer.step(); return loss``: a helper whose
    own body (its loops aside) runs both the backward pass and the optimizer step. A loop calling it on every
    iteration is a loop of steps, whatever per-element loops its metrics run inside."""
    calls = update_calls(node.body) if isinstance(node, FUNCTION_TYPES) else []
    return {"backward", "step"} <= {call.func.attr for call in calls}  # type: ignore[attr-defined]


def steps_environment(body: list[ast.stmt]) -> bool:
    """``obs, reward, done, info = env.step(action)`` in this body, its inner loops aside: each iteration is one
    step of an RL environment (the policy's forward, its action read back), however many updates an inner loop
    runs after it (SAC's ``for _ in range(update_num_per_step)``): a loop of steps, not of epochs."""
    return any(isinstance(call.func, ast.Attribute) and call.func.attr == "step"
               and ENVIRONMENT_NAME.search(last_identifier(call.func.value)) for call in _body_calls(body))


def named_like_optimizer(call: ast.Call) -> bool:
    """``self.optimizer.step()`` / ``opt.step()`` / ``scaler.step(opt)``: an optimizer handed in from outside
    has no kind the pass could know, its name says what it is."""
    return bool(_OPTIMIZER_NAME.search(last_identifier(call.func.value)))


def builds_a_schedule(name: str) -> bool:
    """``get_scheduler(optimizer, opt)``, ``get_linear_schedule_with_warmup(optimizer, ...)``: a function handed the
    optimizer to build the schedule that will step it later, not a step."""
    return "schedul" in name.lower()


def hands_an_optimizer(call: ast.Call) -> bool:
    """``Loss.compute_loss(model=m, ..., policy_optimizer=self.policy_optimizer)``: a call handed an optimizer by
    keyword runs the update with it (not one building a schedule around it: ``get_scheduler(optimizer=opt)``)."""
    return not builds_a_schedule(last_identifier(call.func)) and any(
        keyword.arg is not None and _HANDED_OPTIMIZER.search(keyword.arg)
        and _HANDED_OPTIMIZER.search(last_identifier(keyword.value)) for keyword in call.keywords)


_HANDED_OPTIMIZER = re.compile(r"optimi[sz]er", re.IGNORECASE)
_EXITS = frozenset({"sys.exit", "exit", "quit", "os._exit"})


def fills_when_empty(test: ast.AST, body: list[ast.stmt]) -> bool:
    """``if not preds.size: preds = p.cpu().numpy() else: preds = np.concatenate(...)``, ``if acc is None:``,
    ``if len(acc) == 0:``: the body fills an accumulator the test finds empty, so it runs on the first iteration
    only (the else branch runs on all the others)."""
    tested = _emptiness_tested(test)
    return tested is not None and any(isinstance(target, ast.Name) and target.id == tested
                                      for statement in body if isinstance(statement, ast.Assign)
                                      for target in statement.targets)


def _emptiness_tested(test: ast.AST):
    """The name ``not x`` / ``not x.size`` / ``x is None`` / ``len(x) == 0`` / ``x.size == 0`` finds empty, or
    ``'x' not in locals()`` finds unbound."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        operand = test.operand.value if isinstance(test.operand, ast.Attribute) and test.operand.attr in _SIZES \
            else test.operand
        return operand.id if isinstance(operand, ast.Name) else None
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotIn) \
            and isinstance(test.left, ast.Constant) and isinstance(test.left.value, str) \
            and isinstance(test.comparators[0], ast.Call) and isinstance(test.comparators[0].func, ast.Name) \
            and test.comparators[0].func.id in ("locals", "globals", "vars", "dir"):
        return test.left.value  # `if 'pred' not in locals():` -- not bound yet
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant) \
            and test.comparators[0].value in (None, 0) and isinstance(test.ops[0], (ast.Is, ast.Eq)):
        left = test.left
        if isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "len" and left.args:
            left = left.args[0]
        elif isinstance(left, ast.Attribute) and left.attr in _SIZES:
            left = left.value
        return left.id if isinstance(left, ast.Name) else None
    return None


_SIZES = frozenset({"size", "shape", "numel"})


def runs_once(body: list[ast.stmt]) -> bool:
    """Does the body leave the loop unconditionally (``...; break`` as a smoke test of one batch, or a debug
    ``sys.exit()`` after the first pass)?"""
    for statement in body:
        if isinstance(statement, (ast.Break, ast.Return, ast.Raise)):
            return True
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
                and ast.unparse(statement.value.func) in _EXITS:
            return True
        if isinstance(statement, (ast.With, ast.AsyncWith)) and runs_once(statement.body):
            return True
        if isinstance(statement, ast.Try) and (runs_once(statement.body) or runs_once(statement.finalbody)):
            return True
    return False


def in_exit_branch(index, node: ast.AST) -> bool:
    """Is ``node`` in an ``if`` branch that leaves its function or loop (``if not math.isfinite(loss): ...;
    sys.exit(1)``), so that it runs once at most?"""
    child = node
    for parent in index.ancestors(node):
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
            return False
        branch = (parent.body if child in parent.body else parent.orelse) if isinstance(parent, ast.If) else []
        if branch and child is not parent.test and runs_once(branch):
            # a branch that only returns, with no loop around it, cuts nothing short: the loop written in
            # `if visualization: for x in loader: ...; return score` runs all its iterations
            return bool(index.enclosing_loops(parent)) or not isinstance(branch[-1], ast.Return)
        child = parent
    return False


_EPOCH_RUN = re.compile(r"epoch|^(train|fit)(_model|_network|_net)?$|^run_training", re.IGNORECASE)


def runs_epochs(index, loop: ast.AST) -> bool:
    """Does the loop's own body call a training run the file does not define (``train_joint_epoch(model, ...)``,
    ``fit(model, data)`` imported from the project, ``train_fn(train_loader, model, ...)`` handed a whole loader)?
    Then one iteration is a run or an epoch, not a step."""
    calls = _body_calls(loop.body)
    for call in calls:
        name = last_identifier(call.func)
        if name not in index.bound_names and (_EPOCH_RUN.search(name) or handed_a_loader(call)
                                              and not _stepped_by_hand(call, calls)):
            return True  # (not the file's own def or variable)
    return False


def _stepped_by_hand(call: ast.Call, calls: list[ast.Call]) -> bool:
    """``x = dataloader.next_batch()`` ... ``sample(x, net, dataloader)`` in the same body: the loop walks the loader
    itself, and the helper is handed it for lookups, not for a pass of its own."""
    handed = {last_identifier(a) for a in list(call.args) + [k.value for k in call.keywords]
              if isinstance(a, (ast.Name, ast.Attribute))}
    return any(isinstance(c.func, ast.Attribute) and isinstance(c.func.value, (ast.Name, ast.Attribute))
               and last_identifier(c.func.value) in handed and _LOADER_NAME.search(last_identifier(c.func.value))
               for c in calls)


_LOADER_NAME = re.compile(r"(^|_)(data_?)?(loaders?|iter|iterator)$|(^|_)dl$", re.IGNORECASE)  # (valid_iter: torchtext)


def handed_a_loader(call: ast.Call) -> bool:
    """``train_fn(train_loader, model, ...)``: a function of another module handed a whole DataLoader (by its name)
    walks it -- a pass over the data. (A class handed one, ``DataPrefetcher(val_loader)``, wraps it; ``len(loader)``,
    ``iter(loader)`` are Python's: no pass.)"""
    name = last_identifier(call.func)
    return not name[:1].isupper() and not hasattr(builtins, name) and any(
        isinstance(a, (ast.Name, ast.Attribute)) and _LOADER_NAME.search(last_identifier(a))
        for a in list(call.args) + [k.value for k in call.keywords])


def waits_for_user(index, body: list[ast.stmt]) -> bool:
    """``text = input("Write a sentence:")`` in this body: each iteration waits on a person, so one request's
    reads are its answer, not a stall in a GPU-bound loop."""
    if not index.calls_by_name.get("input"):
        return False  # (most files never call input(): no walk)
    return any(isinstance(call.func, ast.Name) and call.func.id == "input" and not _conditional(index, call, body)
               for call in _body_calls(body))


def _conditional(index, node: ast.AST, body: list[ast.stmt]) -> bool:
    """Is ``node`` in an ``if`` inside ``body`` whose branch ends the loop (``if opt.demo: running = False;
    input("Press enter")``): a pause before the loop stops, not a wait on every iteration?"""
    statements = set(map(id, body))
    for parent in index.ancestors(node):
        if isinstance(parent, ast.If):
            return any(isinstance(n, (ast.Break, ast.Return, ast.Raise)) or isinstance(n, ast.Assign)
                       and isinstance(n.value, ast.Constant) and n.value.value is False for n in parent.body)
        if id(parent) in statements:
            return False
    return False


def _body_calls(body: list[ast.stmt]) -> list[ast.Call]:
    """The calls in ``body`` outside its inner loops and definitions."""
    return [node for node in _body_nodes(body) if isinstance(node, ast.Call)]


def update_after(index, loop: ast.AST) -> bool:
    """Does the loop's own function run backward() after the loop, outside it (``for C in convs: loss = loss +
    f(C(x))`` then ``loss.backward()`` in an LBFGS closure)? Then the loop builds one step's loss: part of that
    step, not a loop of steps."""
    scope, end = index.scope_of(loop), loop.end_lineno or loop.lineno
    return any(isinstance(call.func, ast.Attribute) and call.func.attr == "backward" and call.lineno > end
               and index.scope_of(call) is scope for call in index.calls_by_name.get("backward", ()))


def input_gradient_only(body: list[ast.stmt]) -> bool:
    """``x = images.requires_grad_(); loss(model(x)).backward(); x.grad`` with no optimizer step: the backward pass
    of an adversarial attack (FGSM) or a saliency map, which asks for the gradient of an input -- not a training
    update, so the loop around it is not a loop of steps."""
    nodes = _body_nodes(body)
    methods = [node for node in nodes if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)]
    if {call.func.attr for call in methods if call.func.attr in UPDATES} != {"backward"}:
        return False
    marked = {dotted(call.func.value) for call in methods if call.func.attr == "requires_grad_"}
    marked |= {key for node in nodes if isinstance(node, ast.Assign) for key in _marked_targets(node)}
    read = {dotted(node.value) for node in nodes if isinstance(node, ast.Attribute) and node.attr == "grad"}
    return bool((marked & read) - {None})


def _marked_targets(node: ast.Assign) -> list:
    """``x = images.requires_grad_()`` / ``x.requires_grad = True``: the names whose gradient is asked for."""
    value = node.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "requires_grad_":
        return [dotted(t) for t in node.targets]
    if isinstance(value, ast.Constant) and value.value is True:
        return [dotted(t.value) for t in node.targets if isinstance(t, ast.Attribute) and t.attr == "requires_grad"]
    return []


def _body_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of ``body`` outside its inner loops and definitions."""
    found, stack = [], list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, _NOT_THIS_BODY):
            continue
        found.append(node)
        stack.extend(children(node))
    return found
