"""GA107: a model run on the GPU for inference with autograd still recording.

One finding per loop (per function outside loops) and model, at the forward call -- and one more for each further
line that calls the model itself (TTA: model(x), model(x.flip(2)) ...: each line records its own graph).
Must match:   model.eval(); for x in loader: preds.append(model(x.to(device)))
              for x in batches: out = model(x.cuda())      (a forward in a loop, no backward anywhere in it)
              for _ in range(1000): model.forward(inp) / net.act(state)     (benchmarks, policy evaluation)
              net = torch.jit.load(path).cuda() / torch.jit.trace(model, x); for ...: net(x)  (TorchScript)
              class Server: __init__: self.model = Net().to("cuda").eval(); predict: return self.model(x)
              a frozen vocoder fed a generator's samples (its input carries a graph: it records too)
              model(input_ids=ids.to(device), attention_mask=mask.to(device)) after model.eval()  (keywords)
              def evaluate(model, x): model.eval(); return model(x)   in a file whose work is on CUDA
              nxt = target_net(s2).max(1)[0].detach()  in a training loop  (the graph is never used)
              q_next = self.target_q1(s2) in a training step that runs backward: a target network (weights copied
              in, no optimizer over them) records a graph the backward pass walks for nothing
              def extract(model, loader): f = model; return [f(b.cuda()).detach() for b in loader]  (an alias)
              feats = [m(x)[2] for m in seniors]; [cka(z, f.detach()) for f in feats]  in a training loop whose
              batch is marked x.requires_grad = False (a batch, not parameters: no model is frozen by it)
              def benchmark(h): model = Layer(h).cuda(); start = time.time(); _ = model(x); ...  (a speed test)
              conv = nn.Conv2d(...).cuda().half(); for _ in range(150): out = conv(x)  (a layer with weights records
              a graph like any model: the corpora's labellers counted single-layer benchmarks since r44)
              torch.utils.benchmark.Timer(stmt="model(x)", globals={"model": model, "x": x}) of a CUDA model
              with no no_grad around the timer (the statement runs in the caller's grad mode)
Must not:     the same under `with torch.no_grad():` / `with torch.inference_mode():`, or in a function
              decorated with @torch.no_grad(), or one only ever called under no_grad; a loop (or a function it
              calls) that runs backward / an optimizer step; one forward written in an epoch loop after the
              loop of its training pass (a preview sample: one graph per epoch); a frozen model (requires_grad_(False),
              or `for p in model.parameters(): p.requires_grad = False`) fed data without a graph; a single
              parameter-free nn layer (softmax = nn.Softmax(dim=1), nn.Upsample); one forward at a script's top
              level timed by a clock started before the model was made (it times a cold start, model loading
              included: the recording is noise there), or an untimed one whose outputs are dropped or rebound
              before any read (a warm-up). One untimed forward after model.eval() at the top level whose
              outputs are read (a smoke test, a demo) is reported: they keep the graph's activations alive.
              Also quiet: a project's own no_grad wrapper (@smart_inference_mode()); inside an nn.Module's
              forward (or a Lightning evaluation hook), where the caller picks the grad mode; a model method handed only text
              (model.translate(sentences): a library's text API runs its own forward under no_grad).
"""
from __future__ import annotations

import ast
import re
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks import grad_state
from advisor.lint.checks.common import short, where
from advisor.lint.checks.forwards import model_of, trains
from advisor.lint.checks.grad_off import grad_mode_of_caller, grad_off, grad_switched_off_lines, method_grad_off
from advisor.lint.checks.helper_forwards import evaluated_elsewhere_handed_back, helper_forward_hits
from advisor.lint.checks.not_models import (
    LOSS_OR_METRIC,
    feature_transform,
    parameter_free,
    self_inferring_detector,
    single_layer,
)
from advisor.lint.checks.target_nets import TargetNetworks
from advisor.lint.checks.timer_statements import statement_calls
from advisor.lint.checks.training_steps import (
    backward_after,
    results_stepped_back,
    sample_after_training,
    trains_around,
)
from advisor.lint.flow import CUDA_MODEL, EVAL
from advisor.lint.index import FUNCTION_TYPES
from advisor.lint.model import CheckDoc, CheckInfo, Hit
from advisor.lint.names import last_identifier, self_attribute

DOC = CheckDoc(
    what=('Finds a model run on the GPU for inference with autograd still on: after model.eval(), or in a '
          'loop that runs the forward pass and never calls backward (prediction, evaluation, feature '
          'extraction, a speed test), or once between the clocks of a speed test or in a benchmark Timer\'s '
          'statement string (the clock measures the '
          'recording too), TorchScript models (torch.jit.load/trace/script) included -- with no '
          'torch.no_grad() or torch.inference_mode() around it. A frozen model (every parameter with '
          'requires_grad=False) records nothing and is not reported, unless its input carries a graph (the '
          'output of a model that records).'),
    why=('model.eval() does not turn autograd off. Every op still records the graph and keeps its '
         'activations alive until the output is freed: more GPU memory (smaller batches fit) and extra CPU '
         'time per op.'),
    bad="""\
import torch

model = torch.nn.Linear(128, 10).cuda()
batches = [torch.randn(64, 128) for _ in range(10)]
predictions = []
for x in batches:
    predictions.append(model(x.cuda()).argmax(1))
""",
    good="""\
import torch

model = torch.nn.Linear(128, 10).cuda()
batches = [torch.randn(64, 128) for _ in range(10)]
predictions = []
with torch.inference_mode():
    for x in batches:
        predictions.append(model(x.cuda()).argmax(1))
""",
)

INFO = CheckInfo(
    id="GA107", name="inference-without-no-grad", title="Inference with autograd still on",
    severity="medium", confidence="heuristic",
    cost="model.eval() does not turn autograd off: every op still records the graph and keeps its activations "
         "alive until the output is freed -- more GPU memory (smaller batches fit) and extra CPU time per op.",
    fix="Run inference under `with torch.inference_mode():` (or torch.no_grad()), or decorate the function with "
        "@torch.inference_mode().",
    references=("https://pytorch.org/docs/stable/generated/torch.inference_mode.html",),
    doc=DOC,
)


def run(ctx) -> Iterator[Hit]:
    reported: set[tuple[ast.AST, str]] = set()  # one finding per loop (per function outside loops; each top-level
    # call on its own: each records its graph) and model
    global_off = grad_switched_off_lines(ctx)
    frozen: Optional[frozenset[str]] = None
    carrying: dict[ast.AST, frozenset[str]] = {}  # per function: the names that may hold a graph
    training: dict[ast.AST, bool] = {}  # per function, and per outermost loop
    timed: Optional[dict[ast.AST, int]] = None  # call -> the line its clock starts at
    module_names: Optional[dict[str, list[ast.Name]]] = None
    reads: dict[ast.AST, dict] = {}
    targets: Optional[TargetNetworks] = None

    def reads_in(scope: ast.AST) -> dict:  # per function, built when a forward's output is assigned there
        if scope not in reads:
            reads[scope] = grad_state.scope_reads(scope)
        return reads[scope]
    for call in ctx.index.calls:
        model = model_of(ctx, call)
        if model is None:
            continue
        scope = ctx.index.scope_of(call)
        loops = ctx.index.enclosing_loops(call)
        key = (loops[0] if loops else scope if not isinstance(scope, ast.Module) else call, short(model),
               call.lineno if _direct_forward(call, model) else None)  # (each line that runs the model: its own
        # fix; model.extract_preds(...) and other methods of a model that ran on that iteration are not forwards)
        if key in reported or any(line < call.lineno for line in global_off) or grad_off(ctx, call, 0) \
                or method_grad_off(ctx, call):
            continue
        if grad_mode_of_caller(ctx, call, evaluated=bool(ctx.kind(model) & EVAL)) \
                or not ctx.kind(model) & EVAL and _own_submodule(ctx, model):
            continue  # a module's forward (a Lightning eval hook), a module's own layers (not a frozen teacher it
            # holds in eval mode): the grad mode its caller chose
        if single_layer(ctx, model) or LOSS_OR_METRIC.search(last_identifier(model)) \
                or feature_transform(ctx, model) or self_inferring_detector(ctx, model):
            continue  # nn.Softmax(...) timed on its own: nothing to record; a loss: not a model's inference
        if frozen is None:
            frozen = grad_state.frozen_models(ctx)
        if (grad_state.is_frozen(model, frozen) or parameter_free(ctx, model)) \
                and not _fed_a_graph(ctx, call, scope, frozen, carrying):
            continue  # no parameter requires grad and neither does the input: nothing is recorded
        if loops and sample_after_training(ctx, call, loops[0]) and not ctx.kind(model) & EVAL:
            continue  # a preview sample after the epoch's training pass (after model.eval(): a validation pass)
        if grad_state.output_detached(ctx.index, call, reads_in):
            if not loops and (_previews_training(ctx, call) or not ctx.kind(model) & EVAL and _runs_once(ctx, call)):
                continue  # def show_generated_img(): netG(z).to("cpu").detach() -- a preview helper that the training
                # loop calls now and then (every 5 epochs), or samples drawn once after training (a model left in
                # training mode: not an evaluation): one small graph, dropped at once
            if _trained_in_loop(ctx, model, call, loops[-1] if loops else None, reads_in) \
                    and not (ctx.kind(model) & EVAL and not backward_after(ctx, call, scope)
                             or loops and ctx.iterates_loader(loops[0]) and not ctx.loop_runs_update(loops[0])):
                continue  # netD(netG(z).detach()) in a GAN's D step: netG trains in the same loop (its G step);
                # after model.eval(), or in a pass over a loader with no backward (a validation pass in the epoch
                # loop that trains the model), the graph is still recorded for nothing
            reported.update(_reporting(key))  # a teacher's logits, a DQN target: the graph is recorded and thrown away
            yield Hit(f"{short(call)} records an autograd graph that is never used: its output is detached "
                      "(run it under torch.no_grad())", node=call)
            continue
        if (targets := targets or TargetNetworks(ctx.index)).is_target(model) and backward_after(ctx, call, scope) \
                and not _fed_a_graph(ctx, call, scope, frozen, carrying):  # (an attack's target classifier fed a
            # generator's output: the backward pass needs the graph through it)
            reported.update(_reporting(key))  # SAC's target critics, a double DQN's target_net(next_states).gather(...) in the loss
            yield Hit(f"{short(call)} runs the target network {short(model)} with autograd on: its weights are "
                      "copied in and never trained, yet its graph is recorded and the backward pass walks it "
                      "(run it under torch.no_grad())", node=call)
            continue
        if ctx.kind(model) & EVAL and evaluated_elsewhere_handed_back(ctx, call, model):
            continue  # an agent's select_action(): another method's self.model.eval(), and the distribution handed
            # back (with the action) may feed a policy-gradient loss elsewhere
        if ctx.kind(model) & EVAL:
            once = not loops and isinstance(scope, ast.Module) and not ctx.unit.is_notebook
            clock = None
            if once:
                timed = _timed_calls(ctx) if timed is None else timed
                clock = timed.get(call)
                if clock is not None and not _speed_test(ctx, model, clock):
                    continue  # a clock around the model's loading too times a cold start: the recording is noise
                module_names = _module_names(ctx) if module_names is None else module_names
                if clock is None and not _outputs_read(ctx, call, module_names):
                    continue  # a warm-up whose outputs are dropped: nothing keeps its graph alive
            if backward_after(ctx, call, scope):
                continue
            if _caller_steps_back(ctx, call):
                if not loops and _direct_forward(call, model):  # a helper the training loop and the evaluation
                    yield from helper_forward_hits(ctx, call, model, training, reported)  # loops share: the
                continue  # latter's calling lines (the model is put in eval mode for them)
            reported.update(_reporting(key))
            measured = "; the clock around it measures the recording too" if clock is not None else ""
            yield Hit(f"{short(call)} runs a model in eval mode with autograd on (no torch.no_grad() or "
                      f"torch.inference_mode() around it){measured}", node=call)
            continue
        if not loops:
            timed = _timed_calls(ctx) if timed is None else timed
            if _speed_test(ctx, model, timed.get(call)) and not backward_after(ctx, call, scope) \
                    and not _FITS.search(last_identifier(call.func)):  # (model.fit(data): a training run)
                reported.update(_reporting(key))  # start = time.time(); _ = model(x); ...: the recording is in the number
                yield Hit(f"{short(call)} is timed with autograd on and no backward pass: the clock measures the "
                          "graph recording too (no torch.no_grad() or torch.inference_mode() around it)", node=call)
                continue
            if _direct_forward(call, model) and not backward_after(ctx, call, scope):
                yield from helper_forward_hits(ctx, call, model, training, reported)
            continue
        if trains_around(ctx, call, scope, loops, training) or sample_after_training(ctx, call, loops[0]) \
                or results_stepped_back(ctx, call) or _in_a_models_forward(ctx, call):
            continue  # (forward_pass_samples(X, y): its loop sums the forwards of a loss its caller steps back)
        reported.update(_reporting(key))
        yield Hit(f"{short(call)} runs the model on every iteration of the loop at {where(ctx, loops[0])} with "
                  "autograd on and no backward pass (no torch.no_grad() or torch.inference_mode() around it)",
                  node=call)
    yield from _timer_statements(ctx)


def _timer_statements(ctx) -> Iterator[Hit]:
    """Timer(stmt="model(x)", globals={"model": model, "x": x}) of a CUDA model with autograd on: the timer runs
    the forward many times in the grad mode around it, and the number includes the recording."""
    frozen: Optional[frozenset[str]] = None
    for timer, model in statement_calls(ctx):
        if not ctx.kind(model) & CUDA_MODEL or not api.MODEL_NAME_HINT.search(last_identifier(model)) \
                or grad_off(ctx, timer, 0) or single_layer(ctx, model) or feature_transform(ctx, model):
            continue
        frozen = grad_state.frozen_models(ctx) if frozen is None else frozen
        if grad_state.is_frozen(model, frozen):
            continue
        yield Hit(f"{short(timer)} times {short(model)}'s forward with autograd on: the number includes the graph "
                  "recording (no torch.no_grad() or torch.inference_mode() around the timer)", node=timer)


def _reporting(key: tuple) -> tuple[tuple, tuple]:
    """A finding's key, and the key that keeps the model's other methods on that iteration quiet after it."""
    return key, key[:2] + (None,)


def _direct_forward(call: ast.Call, model: ast.AST) -> bool:
    """``model(x)`` / ``model.forward(x)``: the model's own forward, not another of its methods."""
    func = call.func.value if isinstance(call.func, ast.Attribute) and call.func.attr == "forward" else call.func
    return short(func) == short(model)


_FITS = re.compile(r"^(fit|train)", re.IGNORECASE)


def _previews_training(ctx, call: ast.Call) -> bool:
    """Is the function holding ``call`` called only now and then (``if epoch % 5 == 0:``) from loops that train?"""
    info = ctx.function_of(call)
    sites = ctx.call_sites(info) if info is not None else []
    for site in sites:
        loops = ctx.index.enclosing_loops(site)
        if not loops or not ctx.runs_on_some_iterations(site, loops[0]) or not any(
                ctx.loop_runs_update(loop) for loop in ctx.index.loops if loop is loops[-1]
                or loops[-1].lineno < loop.lineno <= (loops[-1].end_lineno or 0)):  # (an epoch loop's batch loop)
            return False
    return bool(sites)


def _runs_once(ctx, call: ast.Call, depth: int = 0) -> bool:
    """Is ``call`` outside every loop, at module level or in a function called only outside loops (the samples a
    script draws once after training, ``generator(z).detach().cpu()``)?"""
    if ctx.index.enclosing_loops(call):
        return False
    info = ctx.function_of(call)
    if info is None:
        return True
    sites = ctx.call_sites(info)
    return bool(sites) and depth < 3 and all(_runs_once(ctx, site, depth + 1) for site in sites)


def _caller_steps_back(ctx, call: ast.Call, depth: int = 0) -> bool:
    """``def forward_pass(self, data): return self.criterion(self.model(x), y)`` called by a training step that runs
    backward on what it returns (``loss = self.forward_pass(data); self.backward_pass(loss)``): a training forward,
    whatever mode another method (validate's model.eval()) leaves the model in -- also through helpers in between
    (a frozen VGG's features in a perceptual loss that the step's loss helper sums)."""
    info = ctx.function_of(call)
    for site in ctx.call_sites(info) if info is not None else []:
        scope = ctx.index.scope_of(site)
        if backward_after(ctx, site, scope) or any("backward" in last_identifier(other.func)
                                                    and other.lineno >= site.lineno for other in ctx.calls_in(scope)) \
                or depth < 2 and _caller_steps_back(ctx, site, depth + 1):
            return True
    return False


def _trained_in_loop(ctx, model: ast.AST, call: ast.Call, loop: Optional[ast.AST], reads_in) -> bool:
    """Another forward of the same model in the loop keeps its graph (``output = netD(netG(noise))`` before
    ``lossG.backward()``), or the loop hands the model a training step (``critic.training_step(batch)``): the model
    trains here, its detached forward is part of a training step. Outside a loop (an agent's methods, run by a loop
    elsewhere): anywhere in the file."""
    text = short(model)
    here = loop if loop is not None else ctx.index.scope_of(call)  # (the function: a DQN's learn() trains its net)
    in_step = [c for c in ast.walk(here) if c.__class__ is ast.Call]
    return any(other is not call and (found := model_of(ctx, other)) is not None and short(found) == text
               and not grad_state.output_detached(ctx.index, other, reads_in) for other in in_step) \
        or any(isinstance(other.func, ast.Attribute) and trains(other.func.attr) and short(other.func.value) == text
               for other in (in_step if loop is not None else ctx.index.calls))
    # (file-wide, only a training step counts: a DQN's act() runs its target net undetached, and that net still
    # only makes targets in learn())


def _fed_a_graph(ctx, call: ast.Call, scope: ast.AST, frozen: frozenset[str], cache: dict) -> bool:
    """A frozen model still records when its input carries a graph: the output of a model that records (a
    generator's samples fed back into a frozen vocoder), or a tensor made with requires_grad=True."""
    def records(other: ast.Call) -> bool:
        model = model_of(ctx, other) if other is not call else None
        return model is not None and not grad_state.is_frozen(model, frozen)
    names = cache.get(scope)
    if names is None:
        names = cache[scope] = grad_state.graph_carrying_names(ctx.index, scope, records)
    return any(grad_state.carries_graph(argument, names, records)
               for argument in list(call.args) + [keyword.value for keyword in call.keywords])


def _timed_calls(ctx) -> dict[ast.AST, int]:
    """The calls inside a clock pair, with the line where the clock starts."""
    found: dict[ast.AST, int] = {}
    for region in ctx.timed_regions():
        start = getattr(region.open, "lineno", None) or region.line or getattr(region.close, "lineno", 0)  # (timeit(fn))
        for event in region.events:
            found.setdefault(event.node, start)
    return found


def _speed_test(ctx, model: ast.AST, clock_start: Optional[int]) -> bool:
    """A clock started after the model was made times its forward pass: the graph recording is in the number
    (a clock started before, around the model's loading too, times a cold start, where it is noise)."""
    if clock_start is None:
        return False
    scope = ctx.index.scope_of(model)
    made = [value.lineno for value in ctx.index.assigned_values.get(model.id, [])
            if ctx.index.scope_of(value) is scope] if isinstance(model, ast.Name) else []  # (this function's model)
    return all(line < clock_start for line in made)


def _outputs_read(ctx, call: ast.Call, uses: dict[str, list[ast.Name]]) -> bool:
    """Is a top-level forward's result read later (printed, saved, used), not dropped or rebound first?"""
    statement = ctx.index.parents.get(call)
    if isinstance(statement, ast.Expr):
        return False
    if not isinstance(statement, ast.Assign):
        return True
    names = []
    for target in statement.targets:
        elements = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        if not all(isinstance(element, ast.Name) for element in elements):
            return True  # stored into a container or an attribute: kept
        names += [element.id for element in elements]
    for name in names:
        later = [node for node in uses.get(name, ()) if node.lineno > statement.end_lineno]
        if later and isinstance(min(later, key=_use_order).ctx, ast.Load):
            return True
    return False


def _use_order(node: ast.Name) -> tuple:
    return node.lineno, isinstance(node.ctx, ast.Store), node.col_offset  # out = f(out): the read comes first


def _module_names(ctx) -> dict[str, list[ast.Name]]:
    """Every name the module's top-level statements read or write (functions aside), by identifier."""
    found: dict[str, list[ast.Name]] = {}
    stack = [node for node in ctx.tree.body if not isinstance(node, (*FUNCTION_TYPES, ast.ClassDef))]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            found.setdefault(node.id, []).append(node)
        elif not isinstance(node, (*FUNCTION_TYPES, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return found


def _in_a_models_forward(ctx, call: ast.Call) -> bool:
    """``for layer in self.encoder: h = layer(h)`` in a model's own forward (a class's ``forward`` method, whatever
    base class of another file it derives from): one forward pass walking its layers, not a loop of inferences --
    whether it records a graph for nothing is its callers' matter."""
    holder = ctx.function_of(call)
    return holder is not None and holder.name == "forward" and holder.class_info is not None


def _own_submodule(ctx, model: ast.AST) -> bool:
    """``self.attention(features, h)`` in a method of an nn.Module (a caption decoder's ``generate_caption``, a
    transducer's ``decode``): the module running its own layers -- one computation of the model, whose grad mode its
    callers choose; a forward of it they run is reported there."""
    holder = ctx.function_of(model)
    return self_attribute(model) and holder is not None and holder.class_info is not None \
        and holder.class_info.is_model
