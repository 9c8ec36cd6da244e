"""GA105: the same host->device copy (or model move) repeated on every loop iteration.

Must match:   weights = torch.from_numpy(w)  ...  for x in loader: y = model(x) * weights.to(device)
              for epoch in range(n): model.to(device); train(model)
Must not:     for x, y in loader: x = x.to(device)     (new data each iteration: the copy is the point)
              weights = weights.to(device) before the loop; x = x.to(device) where x changes per iteration
"""

from __future__ import annotations

import ast
from typing import Iterator

from advisor.lint.checks.common import short, where
from advisor.lint.kinds import CPU_TENSOR, CUDA_MODEL, CUDA_TENSOR, FRESH, MODEL
from advisor.lint.model import CheckInfo, Hit
from advisor.lint.names import dotted

INFO = CheckInfo(
    id="GA105", name="copy-in-loop", title="Same host-to-device copy repeated in a loop",
    severity="medium", confidence="inferred",
    cost="The same bytes cross PCIe on every iteration (~16 GB/s from pageable memory, synchronously); a "
         "module's .to() also walks every parameter and buffer each call.",
    fix="Move it once, before the loop (weights = weights.to(device); model.to(device)), and reuse the GPU "
        "copy inside the loop.",
    references=("https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html",),
)


def run(ctx) -> Iterator[Hit]:
    assigned_in: dict[ast.AST, set[str]] = {}
    for call in ctx.index.calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("to", "cuda")):
            continue
        if not ctx.kind(call) & (CUDA_TENSOR | CUDA_MODEL):
            continue
        loops = ctx.index.enclosing_loops(call)
        if not loops or ctx.loops.is_sweep(loops[0]):
            continue
        loop = loops[0]
        receiver = func.value
        before = ctx.kind(receiver)
        key = dotted(receiver)
        if before & (MODEL | CUDA_MODEL) and not before & (CUDA_TENSOR | CPU_TENSOR):
            yield Hit(f"{short(call)} moves the model on every iteration of the loop at {where(loop)}",
                      node=call, severity="low", evidence={"loop_line": loop.lineno})
            continue
        if key is None or not before & CPU_TENSOR or before & (CUDA_TENSOR | FRESH):
            continue
        names = assigned_in.get(loop) or assigned_in.setdefault(loop, _assigned(loop))
        if key in names or key.split(".")[0] in names:
            continue
        yield Hit(f"{short(call)} copies the same CPU tensor `{key}` to the GPU on every iteration of the loop "
                  f"at {where(loop)}", node=call, evidence={"loop_line": loop.lineno, "tensor": key},
                  fix=f"Copy it once before the loop ({key}_gpu = {short(call)}) and use {key}_gpu inside.")


def _assigned(loop: ast.AST) -> set[str]:
    """Names (and dotted names) written anywhere in the loop, its target included."""
    names: set[str] = set()
    for node in ast.walk(loop):
        if isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            key = dotted(node)
            if key is not None:
                names.add(key)
    return names
