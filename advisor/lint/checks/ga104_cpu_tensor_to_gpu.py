"""GA104: a tensor made on the CPU only to be copied to the GPU.

Must match:   x = torch.randn(64, 128).to("cuda");  w = torch.zeros(10).cuda()
              noise = torch.randn(n); noise = noise.to(device)    (device a CUDA device)
Must not:     torch.randn(64, 128, device="cuda");  batch.to(device) for batches from a DataLoader
              torch.from_numpy(a).to(device)  (the data exists already: the copy is the point)
              a = torch.randn(n); ref = a @ a; a_gpu = a.cuda()   (the CPU copy is used too)
"""

from __future__ import annotations

import ast
from collections import Counter
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.common import short, where
from advisor.lint.flow import CPU_TENSOR, CUDA_TENSOR, FRESH
from advisor.lint.index import FUNCTION_TYPES
from advisor.lint.model import CheckDoc, CheckInfo, Hit

DOC = CheckDoc(
    what=('Finds a tensor created by a factory on the CPU (torch.randn, torch.zeros, ...) only to be copied '
          'to the GPU right away.'),
    why=('The CPU fills the tensor (slowly, for random numbers), writes it to pageable memory, and then it '
         'is copied over PCIe -- all work that creating the tensor on the GPU avoids.'),
    bad="""\
import torch

noise = torch.randn(64, 128).to("cuda")
""",
    good="""\
import torch

noise = torch.randn(64, 128, device="cuda")
""",
)

INFO = CheckInfo(
    id="GA104", name="cpu-tensor-to-gpu", title="Tensor created on the CPU, then copied to the GPU",
    severity="low", confidence="inferred",
    cost="The tensor is built by the CPU (slow for random numbers), written to pageable memory, then copied "
         "over PCIe (~16 GB/s pageable on an H100 host) synchronously -- all avoidable; inside a loop it is "
         "paid every iteration.",
    fix='Create it where it is used: torch.randn(..., device="cuda") (device= works for every factory: zeros, '
        "ones, full, arange, tensor, ...).",
    references=("https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html"
                "#create-tensors-directly-on-the-target-device",),
    doc=DOC,
)
_CASTS = frozenset({"float", "half", "double", "bfloat16", "contiguous"})


def measured_cost(machine) -> Optional[str]:
    if not machine.h2d_pageable_gbps:
        return None
    return ("The tensor is built by the CPU (slow for random numbers), written to pageable memory, then copied "
            f"over PCIe ({machine.h2d_pageable_gbps:.1f} GB/s from pageable memory, {machine.where}) "
            "synchronously -- all avoidable; inside a loop it is paid every iteration.")


def run(ctx) -> Iterator[Hit]:
    uses: dict[ast.AST, Counter] = {}
    for call in ctx.index.calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("to", "cuda", "type")):
            continue
        receiver = func.value
        before = ctx.kind(receiver)
        if not ctx.kind(call) & CUDA_TENSOR or not before & FRESH or not before & CPU_TENSOR \
                or before & CUDA_TENSOR:
            continue
        factory = _factory_call(ctx, receiver)
        if isinstance(receiver, ast.Name):
            loops = ctx.index.enclosing_loops(call)
            if loops and receiver.id not in ctx.assigned_in(loops[0]):
                continue  # made before the loop, copied in it: GA105 reports the repeated copy
            scope = ctx.index.scope_of(call)
            counts = uses.get(scope) or uses.setdefault(scope, _name_loads(scope))
            if not _assigned_back(ctx, call, receiver.id) and counts[receiver.id] > 1:
                continue  # the CPU tensor is used elsewhere too: the copy may be needed
            factory = _factory_assignment(ctx, scope, receiver.id, call.lineno)
        elif factory is None:
            continue
        device = _device_text(func, call)
        fix = None
        if factory is not None:
            rewritten = ast.Call(func=factory.func, args=factory.args,
                                 keywords=[k for k in factory.keywords if k.arg != "device"]
                                 + [ast.keyword(arg="device", value=ast.Name(id=device))])
            fix = f"Create it on the GPU: {short(rewritten, 90)}" + (
                f" ({where(ctx, factory)})" if factory.lineno != call.lineno else "")
        # a two-statement `x = torch.rand(n)` / `x = x.cuda()` is reported where the tensor is made
        yield Hit(f"{short(call)} copies a tensor just made on the CPU to the GPU; create it with "
                  f"device={device} instead", node=factory if factory is not None else call, fix=fix,
                  evidence={"created": short(factory) if factory is not None else short(receiver)})


def _factory_call(ctx, node: ast.AST) -> Optional[ast.Call]:
    while isinstance(node, ast.Call):
        name = ctx.qual(node.func) or ""
        if name.count(".") == 1 and name.startswith("torch.") and name[6:] in api.FACTORIES:
            return node
        if isinstance(node.func, ast.Attribute) and node.func.attr in _CASTS:
            node = node.func.value
            continue
        if name in api.PASSTHROUGH_CALLS and node.args:  # Variable(torch.randn(n)).cuda()
            node = node.args[0]
            continue
        return None
    return None


def _factory_assignment(ctx, scope: ast.AST, name: str, before_line: int) -> Optional[ast.Call]:
    found = None
    for node in ctx.index.assigns:
        if isinstance(node, ast.Assign) and node.lineno < before_line and ctx.index.scope_of(node) is scope \
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            factory = _factory_call(ctx, node.value)
            found = factory if factory is not None else found
    return found


def _assigned_back(ctx, call: ast.Call, name: str) -> bool:
    parent = ctx.index.parents.get(call)
    return isinstance(parent, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in parent.targets)


def _name_loads(scope: ast.AST) -> Counter:
    counts: Counter = Counter()
    stack = list(scope.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            counts[node.id] += 1
        elif not isinstance(node, FUNCTION_TYPES):
            stack.extend(ast.iter_child_nodes(node))
    return counts


def _device_text(func: ast.Attribute, call: ast.Call) -> str:
    if func.attr == "type":  # .type(torch.cuda.FloatTensor)
        return '"cuda"'
    if func.attr == "cuda":  # .cuda(i) means device i
        index = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "device"), None)
        return short(index, 30) if index is not None else '"cuda"'
    device = next((k.value for k in call.keywords if k.arg == "device"), call.args[0] if call.args else None)
    return short(device, 30) if device is not None else '"cuda"'
