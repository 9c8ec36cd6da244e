"""GA105: the same host->device copy (or model move) repeated on every loop iteration or every call.

Must match:   weights = torch.from_numpy(w)  ...  for x in loader: y = model(x) * weights.to(device)
              for epoch in range(n): model.to(device); train(model)
              def preprocess(self, x): return x - self.mean.to(self.device)   (called in a loop)
              def forward(self, x): return x + self.table.to(x.device)        (runs every step)
              for x in loader: model = model.to(device)   /   def step(model, x): model.cuda()  (called per batch)
              while True: rgb = np.ascontiguousarray(rgba[..., :3]); torch.from_numpy(rgb).cuda()  (rgba constant)
              for step in range(n): scale = torch.tensor([0.5, 2.0]).cuda()
              for step in range(n): lam = torch.tensor(0.01, device="cuda")   (a literal made on the GPU each time)
              for epoch in range(n): inputs = torch.from_numpy(x_train).float().to(device)   (converted on the way)
              model = Generator(cfg) (an imported class); for epoch in range(n): model.to(device).train()
Must not:     for x, y in loader: x = x.to(device)     (new data each iteration: the copy is the point)
              for step in range(n): c = torch.tensor(np.zeros(n)); c.cuda()   (a fill made in the loop: GA104)
              weights = weights.to(device) before the loop; x = x.to(device) where x changes per iteration
              a helper that copies an attribute once and is never called from a loop
              for x in loader: model = build().to(device)   (a new model);  buf[:] = frame; torch.from_numpy(buf)
              (a buffer filled in place, by env.render(out=buf), np.random: new data)
"""

from __future__ import annotations

import ast
import re
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.common import line_of, short, where
from advisor.lint.checks.invariant import accumulator_reset, is_literal, loop_invariant
from advisor.lint.checks.model_moves import (
    ensemble_walk,
    held_by_self,
    method_run_in_loop,
    same_model,
    same_model_passed_in_loop,
)
from advisor.lint.checks.passed_in_loop import same_data_passed_in_loop
from advisor.lint.checks.rebuilt_modules import rebuilt_transforms
from advisor.lint.checks.replayed_batches import replayed_batches
from advisor.lint.checks.wrapped_data import CONVERSIONS, wrapped_data
from advisor.lint.flow import (
    COMPUTE,
    CPU_DEVICE,
    CPU_TENSOR,
    CUDA_DEVICE,
    CUDA_MODEL,
    CUDA_TENSOR,
    DTYPE,
    MODEL,
    FunctionInfo,
)
from advisor.lint.flow.steps import waits_for_user
from advisor.lint.model import CheckDoc, CheckInfo, Hit
from advisor.lint.names import dotted, last_identifier

DOC = CheckDoc(
    what=('Finds the same CPU tensor copied to the GPU (or the same model moved) on every iteration of a '
          'loop or every call of a function that runs per step -- also host data the loop rebuilds from '
          'values that do not change in it (a constant array sliced, a literal list), and '
          '`model = model.to(device)` inside the loop, and a transform module built from the same arguments and '
          'moved on every iteration (torchaudio.transforms.MelSpectrogram(...).to(device) in a per-batch helper). '
          'A constant fill the loop makes on the CPU and copies '
          '(torch.zeros(n), torch.tensor(np.zeros(n))) is left to GA104: made on the GPU, it needs no copy.'),
    why=("The same bytes cross PCIe again and again, synchronously from pageable memory; a module's .to() "
         'also walks every parameter and buffer each time.'),
    bad="""\
import numpy as np
import torch

device = torch.device("cuda")
model = torch.nn.Linear(128, 10).to(device)
weights = torch.from_numpy(np.ones(10, dtype=np.float32))
for step in range(100):
    x = torch.randn(64, 128, device=device)
    y = model(x) * weights.to(device)  # the same copy every step
""",
    good="""\
import numpy as np
import torch

device = torch.device("cuda")
model = torch.nn.Linear(128, 10).to(device)
weights = torch.from_numpy(np.ones(10, dtype=np.float32)).to(device)  # once
for step in range(100):
    x = torch.randn(64, 128, device=device)
    y = model(x) * weights
""",
)

INFO = CheckInfo(
    id="GA105", name="copy-in-loop", title="Same host-to-device copy repeated in a loop",
    severity="medium", confidence="inferred",
    cost="The same bytes cross PCIe on every iteration (~16 GB/s from pageable memory, synchronously); a "
         "module's .to() also walks every parameter and buffer each call.",
    fix="Move it once, before the loop (weights = weights.to(device); model.to(device)), and reuse the GPU "
        "copy inside the loop; inside an nn.Module, register constant tensors with self.register_buffer(...) "
        "so model.to(device) moves them once.",
    references=("https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html",),
    doc=DOC,
)
_LOSS_NAME = re.compile(r"loss|criterion", re.IGNORECASE)
_PER_CALL_METHODS = frozenset({"forward", "__call__", "training_step", "validation_step", "predict_step"})
_MAX_DEPTH = 4


def measured_cost(machine) -> Optional[str]:
    if not machine.h2d_pageable_gbps:
        return None
    return (f"The same bytes cross PCIe on every iteration ({machine.h2d_pageable_gbps:.1f} GB/s from pageable "
            f"memory, {machine.where}, synchronously); a module's .to() also walks every parameter and buffer "
            "each call.")


def run(ctx) -> Iterator[Hit]:
    yield from _literals_made_on_gpu(ctx)
    yield from replayed_batches(ctx)
    yield from rebuilt_transforms(ctx, _why_repeated)
    for call in ctx.index.calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("to", "cuda")):
            continue
        if not _to_gpu(ctx, call):
            continue
        receiver = func.value
        before = ctx.kind(receiver)
        key = dotted(receiver) or wrapped_data(ctx, receiver)
        loops = ctx.index.enclosing_loops(call)
        if loops:
            loop = loops[0]
            if ctx.is_sweep(loop) or ctx.loop_iterations(loop) == 1 or ctx.runs_on_some_iterations(call, loop) \
                    or _device_varies(ctx, call, loop):
                continue  # (`for epoch in range(1):` copies once; `if step % 100 == 0:` now and then; .cuda(i))
            is_module = (_is_module(before) or (not before and _is_module(ctx.kind(call)))) \
                and not _LOSS_NAME.search(key or "")  # (loss_fn.to(device): no parameters to walk, a no-op)
            if is_module and key is not None and same_model(ctx, key, loop) and not _moved_off(ctx, key, loop, call):
                yield Hit(f"{short(call)} moves the model on every iteration of the loop at {where(ctx, loop)}",
                          node=call, severity="low", evidence={"loop_line": line_of(ctx, loop)})
            elif is_module and key is not None and ensemble_walk(ctx, key, loops):
                yield Hit(f"{short(call)} moves every model of `{short(loop.iter)}` again on every iteration of the "
                          f"loop at {where(ctx, loops[1])}", node=call, severity="low",
                          evidence={"loop_line": line_of(ctx, loops[1])})
            elif _fill_made_in_loop(ctx, receiver, loop, call):
                continue  # GA104 reports it where it is made: made on the GPU, nothing is copied at all
            elif _times_the_copy(ctx, loop):
                continue  # a copy benchmark: timers(...).start(); b = a.to("cuda"); .stop() -- the copy is the point
            elif _invariant_cpu_tensor(ctx, key, before, ctx.assigned_in(loop)) and _not_filled(ctx, key, loop) or \
                    key is not None and before & CPU_TENSOR and not before & CUDA_TENSOR \
                    and loop_invariant(ctx, key, loop, call):
                what = "host data" if dotted(receiver) is None else "CPU tensor"
                yield Hit(f"{short(call)} copies the same {what} `{key}` to the GPU on every iteration of the "
                          f"loop at {where(ctx, loop)}", node=call,
                          evidence={"loop_line": line_of(ctx, loop), "tensor": key},
                          fix=f"Make it and copy it once before the loop ({_variable(key)}_gpu = {short(call)}) "
                              "and use that inside.")
            continue
        info = ctx.function_at(ctx.index.scope_of(call))
        if info is None or key is None or _lambda_parameter(ctx, call, key):
            continue  # (lambda x: torch.from_numpy(x).cuda(): x is whatever each call hands it)
        if (key.startswith("self.") or held_by_self(ctx, info, key)) and info.name != "__init__" \
                and (_is_module(before) or (not before and _is_module(ctx.kind(call)))):
            loop = method_run_in_loop(ctx, info)
            if loop is not None:  # rollout(): self.actor.to("cpu") for the env, self.actor.to(self.device) after
                yield Hit(f"{short(call)} moves the model `{key}` on every call of {info.name}(), which runs on every "
                          f"iteration of the loop at {where(ctx, loop)}", node=call, severity="low",
                          evidence={"loop_line": line_of(ctx, loop)})
            continue
        if "." not in key and key in _locals(info):
            moving_model = _is_module(before) or (not before and _is_module(ctx.kind(call)))
            loop = same_model_passed_in_loop(ctx, info, key) if moving_model else None
            if loop is not None and not ctx.is_sweep(loop):  # (for bs in [1, 2, 4]: separate experiments)
                yield Hit(f"{short(call)} moves the model `{key}` on every call of {info.name}(), which runs in the "
                          f"loop at {where(ctx, loop)} with the same model", node=call, severity="low",
                          evidence={"loop_line": line_of(ctx, loop)})
            elif not moving_model and (loop := same_data_passed_in_loop(ctx, info, key, call)) is not None:
                yield Hit(f"{short(call)} copies the same data `{key}` to the GPU on every call of {info.name}(), "
                          f"which the loop at {where(ctx, loop)} hands the same data", node=call,
                          evidence={"loop_line": line_of(ctx, loop), "tensor": key})
            continue
        if not _invariant_cpu_tensor(ctx, key, before, ctx.assigned_in(info.node)) or _set_by_a_method(ctx, key) \
                or _module_state(info, key):
            continue
        repeated = _why_repeated(ctx, info, 0, set())
        if repeated:
            what = "host data" if dotted(receiver) is None else "CPU tensor"
            yield Hit(f"{short(call)} copies the same {what} `{key}` to the GPU on every call of "
                      f"{info.name}(), {repeated}", node=call, evidence={"tensor": key})


def _lambda_parameter(ctx, call: ast.Call, key: str) -> bool:
    root = key.split(".", 1)[0]
    return any(isinstance(parent, ast.Lambda) and root in {a.arg for a in parent.args.args}
               for parent in ctx.index.ancestors(call))


_LITERAL_FACTORIES = frozenset({"torch.tensor", "torch.as_tensor"})


def _literals_made_on_gpu(ctx) -> Iterator[Hit]:
    """``for step in range(n): lam = torch.tensor(0.01, device="cuda")``: the factory copies its host literal to
    the GPU on every iteration, as ``torch.tensor(0.01).cuda()`` would."""
    for call in ctx.index.calls:
        device = next((k.value for k in call.keywords if k.arg == "device"), None)
        if ctx.qual(call.func) not in _LITERAL_FACTORIES or not call.args \
                or device is None or not (ctx.kind(call) & CUDA_TENSOR or _device_of_data(ctx, device)):
            continue
        loops = ctx.index.enclosing_loops(call)
        if not is_literal(call.args[0]) and not _fixed_number(ctx, call.args[0], loops):
            continue
        data = ast.unparse(call.args[0])
        info = ctx.function_of(call) if not loops else None
        repeated = _why_repeated(ctx, info, 0, set()) if info is not None else None
        if repeated and ctx.index.statement_of(call) in info.node.body:  # type: ignore[union-attr]
            yield Hit(f"{short(call)} copies the same host data `{data}` to the GPU on every call of {info.name}(), "
                      f"{repeated}", node=call, evidence={"tensor": data},  # type: ignore[union-attr]
                      fix="Make it once, outside the function (or use the Python number as is: most ops take it).")
            continue
        if not loops or ctx.is_sweep(loops[0]) or ctx.loop_iterations(loops[0]) == 1 \
                or ctx.runs_on_some_iterations(call, loops[0]) or accumulator_reset(ctx, call, loops[0]):
            continue
        yield Hit(f"{short(call)} copies the same host data `{data}` to the GPU on every iteration of the loop at "
                  f"{where(ctx, loops[0])}", node=call, evidence={"loop_line": line_of(ctx, loops[0]), "tensor": data},
                  fix="Make it once, before the loop, and use that inside (a Python number also works as is in "
                      "most ops: `x * 0.01` needs no tensor).")


def _fixed_number(ctx, value: ast.AST, loops: list) -> bool:
    """``dt = 1.0 / num_steps`` before the loop, ``torch.tensor(dt, device=device)`` in it: a Python number the loop
    does not change, turned into a CUDA tensor on every iteration as a literal would be."""
    return bool(loops) and isinstance(value, ast.Name) and ctx.is_number(value) \
        and loop_invariant(ctx, value.id, loops[0], value)


def _device_of_data(ctx, device: ast.AST) -> bool:
    """``device=x_t.device`` in a file that shows CUDA: wherever the data lives -- the GPU when the program runs
    there (the session-9 device rule), so the literal crosses to it each time."""
    return isinstance(device, ast.Attribute) and device.attr == "device" and ctx.shows_cuda


_TIMER_CALLS = re.compile(r"(^|\.)(time|perf_counter|monotonic|process_time|record|start|stop|tic|toc)$")


def _times_the_copy(ctx, loop: ast.AST) -> bool:
    """A loop that only copies and reads a clock or a timer (time.time(), event.record(), timer.start()/stop()):
    it measures the transfer, which must happen every time."""
    events = ctx.iteration_events(loop)
    if any(event.bits & COMPUTE for event in events):
        return False
    return any(isinstance(node, ast.Call) and _TIMER_CALLS.search(ast.unparse(node.func)) for node in ast.walk(loop))


def _fill_made_in_loop(ctx, receiver: ast.AST, loop: ast.AST, call: ast.Call) -> bool:
    """``for ...: cost = torch.tensor(np.zeros(n)); cost_gpu = cost.cuda()``: a constant fill the loop makes
    on the CPU each iteration, then copies. The fix is to make it on the GPU (GA104, reported where it is
    made), after which no copy is left to hoist."""
    if not isinstance(receiver, ast.Name):
        return False
    made = None
    end = loop.end_lineno or loop.lineno
    for value in ctx.index.assigned_values.get(receiver.id, ()):  # (not a walk of the loop per copy: big files)
        node = ctx.index.parents.get(value)
        if isinstance(node, ast.Assign) and loop.lineno <= node.lineno < call.lineno and node.lineno <= end \
                and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and any(parent is loop for parent in ctx.index.ancestors(node)):
            made = node.value if made is None or node.lineno > made.lineno else made
    while isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute) and made.func.attr in CONVERSIONS:
        made = made.func.value  # torch.zeros(n).float()
    if not isinstance(made, ast.Call):
        return False
    name = ctx.qual(made.func) or ""
    if name.startswith("torch.") and name[6:] in api.TORCH_FILLS:
        return True
    return name.startswith("torch.") and name[6:] in api.FILL_WRAPPERS and len(made.args) == 1 \
        and isinstance(made.args[0], ast.Call) and ctx.qual(made.args[0].func) in api.NUMPY_FILLS


def _not_filled(ctx, key: str, loop: ast.AST) -> bool:
    """A buffer the loop fills in place (``buf[:] = frame``, ``env.render(out=buf)``) holds new data each time."""
    return "." in key or not key.isidentifier() or loop_invariant(ctx, key, loop, loop)


def _variable(key: str) -> str:
    return key.replace(".", "_") if key.replace(".", "_").isidentifier() else "data"


def _device_varies(ctx, call: ast.Call, loop: ast.AST) -> bool:
    """``for i in range(torch.cuda.device_count()): x = torch.tensor([1.0]).cuda(i)`` (or ``.to(f"cuda:{i}")``): a
    copy to another GPU on each iteration, not the same copy again. (``.to(x.device)`` of a batch: the same GPU.)"""
    assigned = ctx.assigned_in(loop)
    arguments = [a for a in list(call.args) + [k.value for k in call.keywords if k.arg == "device"]
                 if not isinstance(a, ast.Attribute)]
    return any(isinstance(n, ast.Name) and n.id in assigned for argument in arguments for n in ast.walk(argument))


def _is_module(kind: int) -> bool:
    """A module, and no tensor on any path: of the receiver, or -- when nothing is known of the receiver (a model
    an imported class made) -- of what the move returns (the pass reads `model.to(device)` as a module's move)."""
    return bool(kind & (MODEL | CUDA_MODEL)) and not kind & (CUDA_TENSOR | CPU_TENSOR)


def _to_gpu(ctx, call: ast.Call) -> bool:
    """Moved to CUDA, or -- in a program that uses CUDA -- to a device we cannot name (`x.device`)."""
    if ctx.kind(call) & (CUDA_TENSOR | CUDA_MODEL):
        return True
    if call.func.attr != "to" or not ctx.uses_cuda:
        return False
    device = next((k.value for k in call.keywords if k.arg == "device"), call.args[0] if call.args else None)
    return device is not None and not ctx.kind(device) & (CPU_DEVICE | DTYPE) and not isinstance(device, ast.Constant)


def _invariant_cpu_tensor(ctx, key: Optional[str], kind: int, assigned: set[str]) -> bool:
    if key is None or not kind & CPU_TENSOR or kind & CUDA_TENSOR:
        return False
    return key not in assigned and key.split(".")[0] not in assigned


def _set_by_a_method(ctx, key: str) -> bool:
    """``self.last_observation = observation`` in the loop's method: the attribute holds new data each call."""
    if not key.startswith("self."):
        return False
    attr = key.split(".", 1)[1]
    for node in ctx.index.assigns:  # (a cheap test of the attribute's name first: the file may hold thousands)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(isinstance(t, ast.Attribute) and t.attr == attr and dotted(t) == key for t in targets) \
                and getattr(ctx.index.scope_of(node), "name", "__init__") != "__init__":
            return True
    return False


def _moved_off(ctx, key: str, loop: ast.AST, call: ast.Call) -> bool:
    """``net.cpu(); torch.save(net.state_dict(), path); net.to(device)``: the loop took the model off the GPU
    itself (to save it on the host) before this move, which puts it back -- not a move of a model already there."""
    return any(isinstance(other.func, ast.Attribute) and dotted(other.func.value) == key and other.lineno < call.lineno
               and (other.func.attr == "cpu" or other.func.attr == "to" and other.args
                    and ctx.kind(other.args[0]) & (CPU_DEVICE | CUDA_DEVICE) == CPU_DEVICE)
               for other in ast.walk(loop) if isinstance(other, ast.Call))


def _module_state(info: FunctionInfo, key: str) -> bool:
    """``self.weights = nn.Parameter(...)`` / ``self.register_buffer("mask", ...)`` in the method's own class:
    model.to(device) moves it with the module, so ``self.weights.to(x.device)`` in forward finds it there already
    and copies nothing."""
    if not key.startswith("self.") or key.count(".") != 1 or info.class_info is None:
        return False
    attr = key.split(".", 1)[1]
    for node in ast.walk(info.class_info.node):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and last_identifier(node.value.func) == "Parameter" and any(dotted(t) == key for t in node.targets):
            return True
        if isinstance(node, ast.Call) and last_identifier(node.func) == "register_buffer" and node.args \
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == attr:
            return True
    return False


def _locals(info: FunctionInfo) -> set[str]:
    return set(info.positional + info.keyword_only + [info.vararg or "", info.kwarg or ""])


def _why_repeated(ctx, info: FunctionInfo, depth: int, visiting: set) -> Optional[str]:
    """'which runs in the loop at line 40' / 'which runs on every forward pass', or None."""
    if info.name in _PER_CALL_METHODS and info.class_info is not None:
        return "which runs on every step"
    if depth > _MAX_DEPTH or info in visiting:
        return None
    for site in ctx.call_sites(info):
        loops = ctx.enclosing_loops(site)
        if loops and ctx.runs_on_some_iterations(site, loops[0]):
            continue  # (save_images(...) under `if batches_done % 100 == 0:`: now and then, not per step)
        if loops and not ctx.is_sweep(loops[0]) and not waits_for_user(ctx.index, loops[0].body):
            return f"which runs in the loop at {where(ctx, loops[0])}"  # (not a loop over settings -- separate
            # experiments -- nor one that waits for a person's input on every turn)
        caller = ctx.function_of(site)
        if caller is not None:
            found = _why_repeated(ctx, caller, depth + 1, visiting | {info})
            if found:
                return found
    return None
