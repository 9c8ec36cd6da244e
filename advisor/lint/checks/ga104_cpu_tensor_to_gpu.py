"""GA104: a tensor made on the CPU only to be copied to the GPU.

Must match:   x = torch.randn(64, 128).to("cuda");  w = torch.zeros(10).cuda()
              noise = torch.randn(n); noise = noise.to(device)    (device a CUDA device)
              c = torch.tensor(np.zeros(n)); c_gpu = c.cuda()   (numpy filled it with a constant: torch.zeros)
              z = torch.from_numpy(np.random.normal(0, 1, (b, d))).float().to(device)   (a NumPy draw: torch.normal)
              z = torch.zeros(n); z_gpu = z.cuda(); ... z += 1 later on the CPU   (the same zeros, made twice)
              Variable(torch.rand(256, 256).type(torch.FloatTensor)).cuda()   (pre-0.4 wrappers and casts)
              torch.randn(n, n).type(torch.float).cuda();  a = torch.zeros(n, n) + 2.0; a = a.cuda()
              x = torch.ones(3, 3); y = torch.ones_like(x, device=d); x = x.cuda()   (only its shape was read)
              x = torch.rand(2, 3); y = torch.ones_like(x, device=d); n = x.shape[0]; x = x.to(d)   (the same)
              t = torch.cat([torch.randn(1, d), t_pos]).cuda() with t_pos = torch.randn(n, d)   (every piece of
              the joined tensor is a factory: reported at each factory)
Must not:     torch.randn(64, 128, device="cuda");  batch.to(device) for batches from a DataLoader
              torch.from_numpy(a).to(device)  (the data exists already: the copy is the point)
              torch.tensor(np.random.random(n)).cuda()   (numpy's random numbers are the data)
              a = torch.randn(n); ref = a @ a; a_gpu = a.cuda()   (the CPU copy is used too)
              z = torch.zeros(n); z[0] = 1; z_gpu = z.cuda()   (filled in before the copy)
              torch.Tensor(0.0).to(device)   (raises TypeError: nothing is made)
              torch.tensor([0.2, 0.8]).to(device)   (literal data starts on the host: device= copies it too)
              torch.cat([torch.zeros(1, d), features]).cuda()   (one piece is data: the join is of data)
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.checks.attribute_fills import attribute_fill
from advisor.lint.checks.common import short, where
from advisor.lint.checks.factory_calls import (
    CASTS,
    cuda_constructor_alias,
    factory_assignment,
    factory_call,
    filled_between,
    made_at,
    name_loads,
    next_store_line,
    reads_shape_only,
    returned_factory,
    used_between,
)
from advisor.lint.checks.fill_fixes import cast_around, device_text, made_on_the_device
from advisor.lint.checks.handed_fills import fills_handed_in
from advisor.lint.checks.numpy_fills import made_by_numpy, numpy_fill
from advisor.lint.flow import CPU_DEVICE, CPU_TENSOR, CUDA_DEVICE, CUDA_TENSOR, FRESH
from advisor.lint.flow.literals import holds_literal_data
from advisor.lint.model import CheckDoc, CheckInfo, Hit

DOC = CheckDoc(
    what=('Finds a tensor created by a factory on the CPU (torch.randn, torch.zeros, ..., or a constant fill or '
          'random draw made by numpy: torch.tensor(np.zeros(n)), torch.from_numpy(np.random.normal(0, 1, (b, d)))) '
          'only to be copied to the GPU right away. A constant fill '
          '(zeros, ones, full, empty), also with a Python number added or multiplied in, counts even when '
          'the CPU tensor is used again after the copy (or its shape read before it: torch.ones_like(x)): the '
          'GPU can make the same values itself. Casts before the copy (.float(), .type(torch.float)) are '
          'looked through; .type_as(x) and .to(x) of a tensor x the function is handed copy to x\'s device.'),
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
_TORCH_FILLS = api.TORCH_FILLS
_PLAIN_NUMPY_FILLS = api.NUMPY_FILLS | {n for n, drawn_by in api.NUMPY_RANDOM_FILLS.items() if drawn_by}
_PLACING_WRAPPERS = frozenset({"torch.tensor", "torch.as_tensor", "torch.asarray"})  # (device= copies what they wrap)


def measured_cost(machine) -> Optional[str]:
    if not machine.h2d_pageable_gbps:
        return None
    return ("The tensor is built by the CPU (slow for random numbers), written to pageable memory, then copied "
            f"over PCIe ({machine.h2d_pageable_gbps:.1f} GB/s from pageable memory, {machine.where}) "
            "synchronously -- all avoidable; inside a loop it is paid every iteration.")


def run(ctx) -> Iterator[Hit]:
    yield from _copied_in_place(ctx)
    yield from _legacy_cuda_copies(ctx)
    yield from _numpy_fills_placed(ctx)
    yield from _distribution_draws_moved(ctx)
    uses: dict[ast.AST, dict[str, list[int]]] = {}
    for call in ctx.index.calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("to", "cuda", "type", "type_as")):
            continue
        receiver = func.value
        before = ctx.kind(receiver)
        if not (ctx.kind(call) & CUDA_TENSOR or _to_a_tensors_device(ctx, call)) or not before & CPU_TENSOR \
                or before & CUDA_TENSOR and not _filled_on_one_path(ctx, receiver, before, call):
            continue
        pieces = _joined_factories(ctx, receiver, call)
        if pieces:
            yield from _joined_hits(ctx, call, pieces)
            continue
        factory = factory_call(ctx, receiver)
        if _literal(ctx, factory):
            continue
        if isinstance(receiver, ast.Name):
            loops = ctx.index.enclosing_loops(call)
            if loops and receiver.id not in ctx.assigned_in(loops[0]):
                continue  # made before the loop, copied in it: GA105 reports the repeated copy
            if _a_parameter(ctx, receiver, call):  # def fit(X, device): X.to(device): the function's job (the fill
                yield from fills_handed_in(ctx, call, receiver.id, factory_call, _literal)
                continue  # made just to be handed to it, to_var(torch.ones(n)), is reported at the call)
            scope = ctx.index.scope_of(call)
            factory = factory_assignment(ctx, scope, receiver.id, call.lineno)
            if _literal(ctx, factory):
                continue
            if factory is not None and filled_between(ctx, scope, receiver.id, factory, call):
                continue  # z = torch.zeros(n); z[i][i] = 1; z = z.to(d): filled in on the CPU, then moved
            untouched_fill = _is_constant_fill(ctx, factory) and not used_between(ctx, scope, receiver.id, factory, call)
            if not (before & FRESH or numpy_fill(ctx, factory) or untouched_fill):
                continue  # (a fill whose shape only was read, torch.ones_like(x), is still untouched)
            loads = (uses[scope] if scope in uses else uses.setdefault(scope, name_loads(scope)))[receiver.id]
            if factory is not None:  # the loads this binding reaches: up to the name's next assignment
                end = next_store_line(ctx, scope, receiver.id, factory.lineno)
                loads = [line for line in loads if factory.lineno <= line < end]
            if not _assigned_back(ctx, call, receiver.id) and len(loads) > 1 and not untouched_fill \
                    and not _only_copied(ctx, scope, receiver.id, loads):
                continue  # the CPU tensor is used elsewhere too: the copy may be needed (unless it is a
                # constant fill not touched before the copy: a zero vector made on the GPU is the same one)
        elif factory is None and isinstance(receiver, ast.Attribute):  # self.label = torch.zeros(n); ...cuda()
            factory = attribute_fill(ctx, receiver, call, lambda value: factory_call(ctx, value))
            if factory is None or not (_is_constant_fill(ctx, factory) or ctx.kind(factory) & FRESH):
                continue
        elif factory is None or not (before & FRESH or numpy_fill(ctx, factory) or _is_constant_fill(ctx, factory)):
            continue
        if isinstance(receiver, ast.Name) and _device_varies_by_call(ctx, call) \
                and not _bound_in(ctx, receiver.id, ctx.index.scope_of(call)):
            continue  # X made once, then train(torch.device("cpu")) and train(torch.device("cuda")): both use it
        if factory is None and isinstance(receiver, ast.Name):  # q, m = make_batch(n); q = q.to(device): where
            factory = returned_factory(ctx, ctx.index.scope_of(call), receiver.id)  # make_batch makes it
        device = device_text(func, call)
        if func.attr == "to" and call.args and _a_handed_tensor(ctx, call.args[0], call):
            device = f"{device}.device"  # .to(X_real): X_real's device
        fix = None
        fill = numpy_fill(ctx, factory) if factory is not None else None
        plain = fill is None or isinstance(fill, ast.Call) and ctx.qual(fill.func) in _PLAIN_NUMPY_FILLS
        # a two-statement `x = torch.rand(n)` / `x = x.cuda()` is reported where the tensor is made (a NumPy draw
        # bound to a name before torch wraps it: where NumPy makes it)
        made = fill if isinstance(fill, ast.Call) and factory is not None and fill.lineno < factory.lineno else factory
        if made is None and isinstance(receiver, ast.Name):  # made by a combination or a chain of statements
            made = made_at(ctx, ctx.index.scope_of(call), receiver.id, call)
        if factory is not None and plain:  # (a combination of fills: no one-call rewrite)
            fix = _create_on_the_gpu(ctx, factory, fill, device) + (
                f" ({where(ctx, made)})" if made.lineno != call.lineno else "")
        yield Hit(f"{short(call)} copies a tensor just made on the CPU to the GPU; create it with "
                  f"device={device} instead", node=made if made is not None else call, fix=fix,
                  evidence={"created": short(factory) if factory is not None else short(receiver)})


def _filled_on_one_path(ctx, receiver: ast.AST, before: int, call: ast.Call) -> bool:
    """``z = torch.randn_like(x) if t > 1 else torch.zeros(x.shape)``; ``z = z.to(x.device)``: a name CUDA on one path
    and a fill this function just made on the CPU on another -- that path copies the fill."""
    return isinstance(receiver, ast.Name) and bool(before & FRESH) \
        and factory_assignment(ctx, ctx.index.scope_of(call), receiver.id, call.lineno) is not None


def _only_copied(ctx, scope: ast.AST, name: str, lines: list[int]) -> bool:
    """Every read of the tensor is a copy to a GPU (``model0(x.to("cuda:0")); model1(x.to("cuda:1"))``) or of its
    shape only (``print(x.shape)``): it is still made on the CPU only to be copied."""
    reads = [node for node in ctx.index.names_by_id.get(name, ()) if isinstance(node.ctx, ast.Load)
             and node.lineno in lines and ctx.index.scope_of(node) is scope]
    for node in reads:
        if reads_shape_only(ctx, node):
            continue  # (print(x.shape) before the copy reads no values)
        move = ctx.index.parents.get(ctx.index.parents.get(node))
        if not (isinstance(move, ast.Call) and isinstance(move.func, ast.Attribute) and move.func.value is node
                and move.func.attr in ("to", "cuda") and ctx.kind(move) & CUDA_TENSOR):
            return False
    return bool(reads)


def _copied_in_place(ctx) -> Iterator[Hit]:
    """``noises.data.copy_(torch.randn(b, nz, 1, 1))`` into a CUDA tensor: the fill is made on the CPU only to be
    copied over; ``noises.normal_()`` (or the factory with device=) draws it on the GPU."""
    for call in ctx.index.calls_by_name.get("copy_", ()):
        if not (isinstance(call.func, ast.Attribute) and len(call.args) == 1 and isinstance(call.args[0], ast.Call)):
            continue
        factory = factory_call(ctx, call.args[0])
        if factory is None or factory is not call.args[0] or _literal(ctx, factory) \
                or not ctx.kind(call.func.value) & CUDA_TENSOR or ctx.kind(call.func.value) & CPU_TENSOR:
            continue
        yield Hit(f"{short(factory)} is made on the CPU only to be copied into the GPU tensor "
                  f"{short(call.func.value)}; draw it there instead", node=factory,
                  fix=f"Fill it in place on the GPU ({short(call.func.value)}.normal_() / .uniform_() / .zero_()), or "
                      "create the tensor with device= set", evidence={"created": short(factory)})


def _numpy_fills_placed(ctx) -> Iterator[Hit]:
    """``torch.tensor(np.random.normal(0, 1, (b, d)), device=self.device)``: NumPy draws (or fills) on the CPU and the
    wrapper copies it straight to the GPU -- torch.normal(0, 1, (b, d), device=...) makes it there."""
    for call in ctx.index.calls:
        device = next((k.value for k in call.keywords if k.arg == "device"), None)
        if device is None or not call.args or (ctx.qual(call.func) or "") not in _PLACING_WRAPPERS \
                or not ctx.kind(call) & CUDA_TENSOR or ctx.kind(call) & CPU_TENSOR:
            continue
        fill = numpy_fill(ctx, call)
        if not isinstance(fill, ast.Call):
            continue
        fix = None
        if ctx.qual(fill.func) in _PLAIN_NUMPY_FILLS:  # (a combination of fills, np.triu(np.ones(...)): no one-call rewrite)
            fix = _create_on_the_gpu(ctx, call, fill, short(device, 40))
        yield Hit(f"{short(fill)} is made by NumPy on the CPU only to be copied to the GPU by {short(call, 50)}",
                  node=fill, fix=fix, evidence={"created": short(fill)})


def _create_on_the_gpu(ctx, factory: ast.Call, fill: Optional[ast.AST], device: str) -> str:
    """The fix for a tensor made on the CPU and copied: ``factory`` (a torch factory, or the wrapper of the NumPy
    ``fill``) rewritten to make it on ``device``, a NumPy draw as the torch draw of the same distribution."""
    drawn_by = api.NUMPY_RANDOM_FILLS.get(ctx.qual(fill.func) or "") if isinstance(fill, ast.Call) else None
    parent = ctx.index.parents.get(factory)
    rewritten = made_on_the_device(factory, fill, device, parent, drawn_by, cast_around(ctx.index.parents, parent))
    return f"Create it on the GPU: {short(rewritten, 90)}"


def _distribution_draws_moved(ctx) -> Iterator[Hit]:
    """``td.Normal(loc=0, scale=1).sample(x.size()).to(device)``: a distribution of Python numbers draws on the CPU,
    then the draw is copied -- torch.normal(0, 1, size, device=...) (torch.randn for the standard one) draws there."""
    for call in ctx.index.calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in ("to", "cuda") and isinstance(func.value, ast.Call)):
            continue
        draw = func.value
        if not (isinstance(draw.func, ast.Attribute) and draw.func.attr in ("sample", "rsample")) \
                or not ctx.kind(draw) & FRESH or not ctx.kind(call) & CUDA_TENSOR:
            continue
        shape = short(draw.args[0], 40) if draw.args else "shape"
        yield Hit(f"{short(draw, 60)} draws on the CPU only to be copied to the GPU by .{func.attr}()", node=draw,
                  fix=f"Draw it on the GPU: torch.normal(loc, scale, {shape}, device={device_text(func, call)}) "
                      "(torch.randn for a standard normal)", evidence={"created": short(draw)})


def _legacy_cuda_copies(ctx) -> Iterator[Hit]:
    """``torch.cuda.FloatTensor(np.zeros((b, 3)))``: NumPy fills the host memory with a constant and the legacy CUDA
    constructor copies it over -- torch.zeros(b, 3, device="cuda") makes it there."""
    for call in ctx.index.calls:
        if len(call.args) != 1 or call.keywords or ctx.qual(call.func) not in api.LEGACY_CUDA_CONSTRUCTORS \
                and not cuda_constructor_alias(ctx, call.func):
            continue
        data = call.args[0]
        if made_by_numpy(ctx, data):
            yield Hit(f"{short(call)} copies a NumPy fill made on the CPU to the GPU; create it there "
                      "(torch.zeros / torch.ones / torch.full / torch.randn with device=\"cuda\")", node=call,
                      evidence={"created": short(data)})


def _to_a_tensors_device(ctx, call: ast.Call) -> bool:
    """``torch.zeros(b, h).to(src.device)`` (or ``.type_as(src)``) in a file that uses CUDA: made on the CPU, copied
    to wherever the input lives -- the GPU in a GPU program; ``device=src.device`` is right on either."""
    if not (ctx.uses_cuda and isinstance(call.func, ast.Attribute) and len(call.args) == 1):
        return False
    if call.func.attr == "type_as":  # torch.randn((n, 3)).type_as(masses): to masses' device (and dtype)
        return isinstance(call.args[0], ast.Name) and not ctx.kind(call.args[0]) & CPU_TENSOR
    if call.func.attr == "to" and _a_handed_tensor(ctx, call.args[0], call):  # .to(X_real): to X_real's device
        return True
    return call.func.attr == "to" and isinstance(call.args[0], ast.Attribute) and call.args[0].attr == "device" \
        and not ctx.kind(call.args[0]) & CPU_DEVICE  # (y.device of a tensor made here on the CPU: no copy at all)


def _joined_factories(ctx, receiver: ast.AST, copy: ast.Call) -> list[ast.Call]:
    """``torch.cat((torch.ones(1, 512).view(-1), t_pos)).view(2, -1).cuda()``: the factories a join is made of, when
    every piece is one (directly, or a name bound to one in this scope and read only by the join); else []."""
    while isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute) \
            and receiver.func.attr in api.VIEW_METHODS | CASTS | {"reshape", "flatten"}:
        receiver = receiver.func.value
    if not (isinstance(receiver, ast.Call) and ctx.qual(receiver.func) in api.JOINS and receiver.args
            and isinstance(receiver.args[0], (ast.List, ast.Tuple)) and receiver.args[0].elts):
        return []
    scope = ctx.index.scope_of(copy)
    loops = ctx.index.enclosing_loops(copy)
    found = []
    for piece in receiver.args[0].elts:
        while isinstance(piece, ast.Call) and isinstance(piece.func, ast.Attribute) \
                and piece.func.attr in api.VIEW_METHODS | {"reshape", "flatten"}:
            piece = piece.func.value
        if isinstance(piece, ast.Name):
            if loops and piece.id not in ctx.assigned_in(loops[0]) or len(name_loads(scope)[piece.id]) != 1:
                return []  # made before the loop (GA105's copy), or read elsewhere too: the CPU tensor is data
            piece = factory_assignment(ctx, scope, piece.id, copy.lineno)
        else:
            piece = factory_call(ctx, piece)
        if piece is None or _literal(ctx, piece) or not (ctx.kind(piece) & FRESH or _is_constant_fill(ctx, piece)):
            return []
        found.append(piece)
    return found


def _joined_hits(ctx, copy: ast.Call, pieces: list[ast.Call]) -> Iterator[Hit]:
    device = device_text(copy.func, copy)  # type: ignore[arg-type]
    reported: set[int] = set()
    for piece in pieces:
        if piece.lineno in reported:
            continue
        reported.add(piece.lineno)
        yield Hit(f"{short(piece)} is made on the CPU only to be joined with {len(pieces) - 1} other new "
                  f"tensor{'s' if len(pieces) > 2 else ''} and copied to the GPU ({short(copy)}, {where(ctx, copy)}); "
                  f"create each with device={device} and join them there", node=piece,
                  evidence={"created": short(piece), "copied": short(copy)})


def _a_parameter(ctx, name: ast.Name, call: ast.Call) -> bool:
    """Is ``name`` a parameter of the function the copy is in, not rebound there before the copy?"""
    info = ctx.function_of(call)
    if info is None or name.id not in info.positional:
        return False
    scope = ctx.index.scope_of(call)
    return not any(ctx.index.scope_of(v) is scope and v.lineno < call.lineno
                   for v in ctx.index.assigned_values.get(name.id, ()))


def _device_varies_by_call(ctx, call: ast.Call) -> bool:
    """``X.to(device)`` with ``device`` a parameter of the function, which the program calls with a CPU device and
    with a CUDA one: a CPU tensor made outside it is the data of the CPU run as well (a CPU-vs-GPU comparison)."""
    device = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "device"), None)
    info = ctx.function_of(call)
    if not isinstance(device, ast.Name) or info is None or device.id not in info.positional:
        return False
    position = info.positional.index(device.id)
    seen = 0
    for site in ctx.call_sites(info):
        passed = site.args[position] if position < len(site.args) else \
            next((k.value for k in site.keywords if k.arg == device.id), None)
        seen |= ctx.kind(passed) & (CPU_DEVICE | CUDA_DEVICE) if passed is not None else 0
    return seen == CPU_DEVICE | CUDA_DEVICE


def _bound_in(ctx, name: str, scope: ast.AST) -> bool:
    return any(not isinstance(node.ctx, ast.Load) and ctx.index.scope_of(node) is scope
               for node in ctx.index.names_by_id.get(name, ()))


def _literal(ctx, factory: Optional[ast.Call]) -> bool:
    """Data the program wrote (a literal) -- or nothing at all: ``torch.Tensor().to(device)``, an empty tensor that
    a loop then grows with torch.cat, has no element to copy."""
    if factory is not None and not factory.args and not factory.keywords \
            and (ctx.qual(factory.func) or "")[6:] in api.LEGACY_CONSTRUCTORS:
        return True
    return factory is not None and holds_literal_data((ctx.qual(factory.func) or "")[6:], factory) \
        and numpy_fill(ctx, factory) is None


def _is_constant_fill(ctx, factory: Optional[ast.Call]) -> bool:
    """Values fixed by the shape alone (zeros, ones, full, empty): a copy on the GPU needs none of the CPU's."""
    if factory is None:
        return False
    fill = numpy_fill(ctx, factory)
    if isinstance(fill, ast.Call) and ctx.qual(fill.func) in api.NUMPY_RANDOM_FILLS:
        return False  # (a random draw is a fill the GPU could make, but its values are not fixed by the shape)
    return fill is not None or (ctx.qual(factory.func) or "")[6:] in _TORCH_FILLS


def _assigned_back(ctx, call: ast.Call, name: str) -> bool:
    """``x = x.cuda()``, also in a tuple: ``rgb, lr = rgb.cuda(), lr.cuda()``."""
    parent = ctx.index.parents.get(call)
    if isinstance(parent, ast.Tuple) and isinstance(ctx.index.parents.get(parent), ast.Assign):
        statement = ctx.index.parents[parent]
        position = parent.elts.index(call)
        return any(isinstance(t, ast.Tuple) and len(t.elts) == len(parent.elts) and isinstance(t.elts[position], ast.Name)
                   and t.elts[position].id == name for t in statement.targets)  # type: ignore[attr-defined]
    return isinstance(parent, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in parent.targets)


def _a_handed_tensor(ctx, node: ast.AST, call: ast.Call) -> bool:
    """``torch.rand(n).to(X_real)`` with ``X_real`` a parameter of the function named like data, not a device or a
    dtype: ``.to(tensor)`` moves to that tensor's device (and dtype) -- the GPU, for a batch in a GPU program."""
    if not isinstance(node, ast.Name) or api.names_a_device(node.id) or ctx.kind(node) & (CPU_TENSOR | CPU_DEVICE):
        return False
    info = ctx.function_of(call)
    return info is not None and node.id in info.positional + info.keyword_only and not ctx.kind(node) & ~CUDA_TENSOR
