"""GA105: the same host->device copy (or model move) repeated on every loop iteration or every call.

Must match:   weights = torch.from_numpy(w)  ...  for x in loader: y = model(x) * weights.to(device)
              for epoch in range(n): model.to(device); train(model)
              def preprocess(self, x): return x - self.mean.to(self.device)   (called in a loop)
              def forward(self, x): return x + self.table.to(x.device)        (runs every step)
Must not:     for x, y in loader: x = x.to(device)     (new data each iteration: the copy is the point)
              weights = weights.to(device) before the loop; x = x.to(device) where x changes per iteration
              a helper that copies an attribute once and is never called from a loop
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.common import line_of, short, where
from advisor.lint.flow import CPU_DEVICE, CPU_TENSOR, CUDA_MODEL, CUDA_TENSOR, DTYPE, MODEL, FunctionInfo
from advisor.lint.model import CheckDoc, CheckInfo, Hit
from advisor.lint.names import dotted

DOC = CheckDoc(
    what=('Finds the same CPU tensor copied to the GPU (or the same model moved) on every iteration of a '
          'loop or every call of a function that runs per step.'),
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
_PER_CALL_METHODS = frozenset({"forward", "__call__", "training_step", "validation_step", "predict_step"})
_MAX_DEPTH = 4


def measured_cost(machine) -> Optional[str]:
    if not machine.h2d_pageable_gbps:
        return None
    return (f"The same bytes cross PCIe on every iteration ({machine.h2d_pageable_gbps:.1f} GB/s from pageable "
            f"memory, {machine.where}, synchronously); a module's .to() also walks every parameter and buffer "
            "each call.")


def run(ctx) -> Iterator[Hit]:
    for call in ctx.index.calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("to", "cuda")):
            continue
        if not _to_gpu(ctx, call):
            continue
        receiver = func.value
        before = ctx.kind(receiver)
        key = dotted(receiver) or _wrapped_data(ctx, receiver)
        loops = ctx.index.enclosing_loops(call)
        if loops:
            loop = loops[0]
            if ctx.is_sweep(loop):
                continue
            is_module = before & (MODEL | CUDA_MODEL) and not before & (CUDA_TENSOR | CPU_TENSOR)
            if is_module and key is not None and key not in ctx.assigned_in(loop):  # not a new model each time
                yield Hit(f"{short(call)} moves the model on every iteration of the loop at {where(ctx, loop)}",
                          node=call, severity="low", evidence={"loop_line": line_of(ctx, loop)})
            elif _invariant_cpu_tensor(ctx, key, before, ctx.assigned_in(loop)):
                what = "host data" if dotted(receiver) is None else "CPU tensor"
                yield Hit(f"{short(call)} copies the same {what} `{key}` to the GPU on every iteration of the "
                          f"loop at {where(ctx, loop)}", node=call,
                          evidence={"loop_line": line_of(ctx, loop), "tensor": key},
                          fix=f"Copy it once before the loop ({key.replace('.', '_')}_gpu = {short(call)}) and use "
                              "that inside.")
            continue
        info = ctx.function_at(ctx.index.scope_of(call))
        if info is None or key is None or "." not in key and key in _locals(info):
            continue
        if not _invariant_cpu_tensor(ctx, key, before, ctx.assigned_in(info.node)):
            continue
        repeated = _why_repeated(ctx, info, 0, set())
        if repeated:
            yield Hit(f"{short(call)} copies the same CPU tensor `{key}` to the GPU on every call of "
                      f"{info.name}(), {repeated}", node=call, evidence={"tensor": key})


def _wrapped_data(ctx, node: ast.AST) -> Optional[str]:
    """``torch.from_numpy(x_train)``: the host data a wrapping factory turns into a CPU tensor (``x_train``)."""
    if not isinstance(node, ast.Call) or len(node.args) != 1:
        return None
    qualified = ctx.qual(node.func) or ""
    if qualified in api.PASSTHROUGH_CALLS:  # Variable(x_train).cuda()
        return dotted(node.args[0]) or _wrapped_data(ctx, node.args[0])
    name = qualified.rsplit(".", 1)[-1]
    if name in api.WRAPPING_FACTORIES or name == "tensor" or name in api.LEGACY_CONSTRUCTORS:
        return dotted(node.args[0])
    return None


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
        if loops:
            return f"which runs in the loop at {where(ctx, loops[0])}"
        caller = ctx.function_of(site)
        if caller is not None:
            found = _why_repeated(ctx, caller, depth + 1, visiting | {info})
            if found:
                return found
    return None
