"""GA106: a DataLoader in a GPU program without pinned memory, or loading in the main process.

Must match:   DataLoader(train_set, batch_size=64, shuffle=True)        (in a file that uses CUDA)
              DataLoader(ds, batch_size=64, num_workers=0, pin_memory=True)
              DataLoader(ds, num_workers=args.num_workers, pin_memory=True)
                  with parser.add_argument("--num_workers", default=0, type=int) in the file
              DataLoader(TensorDataset(x_cuda, y_cuda), batch_size=64)   (data already on the GPU: pinning and
              workers do not apply, but it gathers each batch sample by sample: its own message and fix)
              for num_workers in range(1): DataLoader(ds, num_workers=num_workers, pin_memory=True)
              device = cfg['device']; DataLoader(ds, batch_size=b); ... x.to(device)   (a configured device)
              params = {'batch_size': 4, 'num_workers': 4}; DataLoader(ds, **params)   (a dict literal the
              file binds once and never changes: its keys are the options)
              DataLoader(ds, batch_size=64); pl.Trainer(gpus=[0, 1]).fit(model, loader)   (Lightning moves the
              batches itself; also Trainer(accelerator="gpu"), and a LightningModule's train_dataloader)
Must not:     DataLoader(ds, batch_size=64, num_workers=4, pin_memory=True)
              DataLoader(ds, num_workers=args.workers, ...) with --workers defaulting to 4, or not declared here
              DataLoader(ds, **loader_kwargs)   (cannot see the options: a parameter, a value built elsewhere)
              any DataLoader in a file that never puts a tensor or a model on CUDA (naming a CUDA device
              that nothing is moved to does not count); for num_workers in [2, 4, 8]: DataLoader(...);
              pl.Trainer(gpus=0) / Trainer(accelerator="cpu") with no other sign of CUDA; a loader read only by
              `for batch in loader:` loops that put nothing on the GPU (statistics of a dataset on the CPU)
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint.checks.common import short
from advisor.lint.checks.loader_arguments import loop_values, option_default, option_defaults, reaching_constant
from advisor.lint.flow import CPU_TENSOR, CUDA_DEVICE, CUDA_MODEL, CUDA_TENSOR
from advisor.lint.flow.conditions import cuda_condition
from advisor.lint.flow.kinds import LOADER
from advisor.lint.index import target_names
from advisor.lint.loaders import is_loader
from advisor.lint.model import CheckDoc, CheckInfo, Hit

DOC = CheckDoc(
    what=('Finds a DataLoader in a program that puts tensors or a model on CUDA (itself, or through a Lightning '
          'Trainer asked for GPUs) that loads in the main process '
          '(num_workers=0, the default, also when it comes from a command-line option whose default is 0) or '
          'without pin_memory=True; and a DataLoader over a dataset already on the GPU (TensorDataset of CUDA '
          'tensors), which gathers each batch sample by sample in the main process.'),
    why=('With num_workers=0 the training process itself loads and collates every batch while the GPU waits; '
         'without pinned memory every batch is copied from pageable memory, slower, and the copy cannot '
         'overlap with compute.'),
    bad="""\
import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(1000, 16), torch.randn(1000, 1))
loader = DataLoader(data, batch_size=64, shuffle=True)
model = torch.nn.Linear(16, 1).cuda()
""",
    good="""\
import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(1000, 16), torch.randn(1000, 1))
loader = DataLoader(data, batch_size=64, shuffle=True, num_workers=4, pin_memory=True)
model = torch.nn.Linear(16, 1).cuda()
""",
)

INFO = CheckInfo(
    id="GA106", name="dataloader-feeding-gpu", title="DataLoader feeding a GPU without pinned memory or workers",
    severity="medium", confidence="heuristic",
    cost="Without pin_memory=True every batch is copied from pageable memory (~16 GB/s instead of ~54 GB/s on an "
         "H100 host) and .to(device, non_blocking=True) cannot overlap with compute; with num_workers=0 the "
         "training process itself loads and collates every batch while the GPU waits.",
    fix="DataLoader(..., num_workers=4, pin_memory=True, persistent_workers=True) (tune num_workers to the "
        "CPU cores), and copy batches with .to(device, non_blocking=True).",
    references=("https://pytorch.org/docs/stable/data.html#memory-pinning",
                "https://pytorch.org/tutorials/recipes/recipes/tuning_guide.html"
                "#enable-async-data-loading-and-augmentation"),
    doc=DOC,
)
_NUM_WORKERS_POSITION, _PIN_MEMORY_POSITION = 5, 7  # DataLoader(dataset, batch_size, shuffle, sampler, ...)


def measured_cost(machine) -> Optional[str]:
    if not (machine.h2d_pageable_gbps and machine.h2d_pinned_gbps):
        return None
    return (f"Without pin_memory=True every batch is copied from pageable memory ({machine.h2d_pageable_gbps:.1f} "
            f"GB/s instead of {machine.h2d_pinned_gbps:.1f} GB/s pinned, {machine.where}) and .to(device, "
            "non_blocking=True) cannot overlap with compute; with num_workers=0 the training process itself loads "
            "and collates every batch while the GPU waits.")


def run(ctx) -> Iterator[Hit]:
    if not (ctx.uses_cuda and _moves_to_cuda(ctx)) and not _lightning_on_gpus(ctx) and not _pins_memory(ctx):
        return
    defaults: Optional[dict[str, ast.AST]] = None
    for call in ctx.index.calls:
        if not is_loader(ctx.qual(call.func) or "", call) or any(isinstance(a, ast.Starred) for a in call.args) \
                or any(isinstance(a, ast.Constant) and a.value is Ellipsis for a in call.args):
            continue  # (DataLoader(...) in a course template: a placeholder for the student to fill in)
        if _peeked(ctx, call):
            continue  # a notebook cell looking at one batch (next(iter(DataLoader(...)))) or at an attribute
        keywords = _keywords(ctx, call)
        if keywords is None:
            continue  # **options the file does not spell out
        dataset = _argument(call, keywords, "dataset", 0)
        pinned = keywords.get("pin_memory")
        if dataset is not None and ctx.kind(dataset) & CUDA_TENSOR \
                and not (isinstance(pinned, ast.Constant) and pinned.value is True):  # (pinning CUDA items fails: the
            yield _gathers_on_the_gpu(call, dataset)  # author who pins knows they are on the CPU, whatever device= says)
            continue
        if _feeds_the_cpu(ctx, call):
            continue
        if defaults is None:
            defaults = option_defaults(ctx)
        problems = []
        workers = _argument(call, keywords, "num_workers", _NUM_WORKERS_POSITION)
        if workers is None or (isinstance(workers, ast.Constant) and workers.value == 0):
            problems.append("num_workers=0" + (" (the default)" if workers is None else ""))
        elif ctx.int_value(workers) == 0 or reaching_constant(ctx, workers, call) == 0:
            problems.append(f"num_workers={short(workers)}, which is 0")
        elif option_default(ctx, workers, defaults) == 0:
            problems.append(f"num_workers={short(workers)}, whose default is 0")
        elif loop_values(ctx, workers) == {0}:
            problems.append(f"num_workers={short(workers)}, which the loop around it only ever sets to 0")
        pin = _argument(call, keywords, "pin_memory", _PIN_MEMORY_POSITION)
        if pin is None or (isinstance(pin, ast.Constant) and not pin.value):
            problems.append("no pin_memory=True")
        elif option_default(ctx, pin, defaults) is False:
            problems.append(f"pin_memory={short(pin)}, whose default is False")
        if problems:
            yield Hit(f"DataLoader feeding a GPU with {' and '.join(problems)}", node=call,
                      evidence={"problems": problems})


def _peeked(ctx, call: ast.Call) -> bool:
    """``DataLoader(ds).collate_fn`` (an attribute of a loader never iterated), or ``gen = iter(DataLoader(...));
    x, y = next(gen)`` outside any loop: one batch looked at, no data fed to a training or inference loop."""
    parent = ctx.index.parents.get(call)
    if isinstance(parent, ast.Attribute):
        return True
    if not (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "iter"):
        return False
    holder = ctx.index.parents.get(parent)
    if not (isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name)):
        return isinstance(holder, ast.Call) and isinstance(holder.func, ast.Name) and holder.func.id == "next" \
            and not ctx.index.enclosing_loops(holder)  # next(iter(DataLoader(ds)))
    name = holder.targets[0].id
    reads = [n for n in ctx.index.names_by_id.get(name, ()) if isinstance(n.ctx, ast.Load)]
    return bool(reads) and all(isinstance(use := ctx.index.parents.get(n), ast.Call) and isinstance(use.func, ast.Name)
                               and use.func.id == "next" and not ctx.index.enclosing_loops(use) for n in reads)


def _pins_memory(ctx) -> bool:
    """``DataLoader(..., pin_memory=True)``: pinned memory only serves copies to a GPU -- a data module whose
    loaders feed one, though the training that moves the batches is in another file."""
    return any(is_loader(ctx.qual(call.func) or "", call) and any(
        k.arg == "pin_memory" and isinstance(k.value, ast.Constant) and k.value.value is True for k in call.keywords)
        for call in ctx.index.calls)


def _gathers_on_the_gpu(call: ast.Call, dataset: ast.AST) -> Hit:
    """``DataLoader(TensorDataset(x_cuda, y_cuda), batch_size=64)``: pinning and worker processes do not apply to
    CUDA tensors (pin_memory=True fails on them, a forked worker cannot use CUDA), but the loader still builds every
    batch in the main process one sample at a time -- an indexing kernel per sample and a stack per batch."""
    return Hit(f"DataLoader over a dataset already on the GPU ({short(dataset)}): it builds every batch one sample "
               "at a time in the main process (a small indexing kernel per sample, then torch.stack); pin_memory "
               "and worker processes do not apply to CUDA tensors", node=call,
               fix="Slice whole batches instead: idx = torch.randperm(n, device=x.device); for i in range(0, n, "
                   "bs): xb, yb = x[idx[i:i + bs]], y[idx[i:i + bs]] (or keep the dataset on the CPU and use "
                   "pin_memory=True with workers)",
               evidence={"problems": ["dataset already on the GPU"]})


def _feeds_the_cpu(ctx, call: ast.Call) -> bool:
    """``loader = DataLoader(...)`` read only by ``for batch in loader:`` loops (``len(loader)`` aside), or in a
    function, that put nothing on the GPU: the batches feed CPU work, whatever else the program does on CUDA (a test
    of the model on the CPU next to one on CUDA, dataset statistics)."""
    parent = ctx.index.parents.get(call)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return False
    name = parent.targets[0].id
    loops = []
    home = ctx.index.scope_of(call)
    for use in ctx.index.names_by_id.get(name, ()):
        if not isinstance(use.ctx, ast.Load) or not isinstance(home, ast.Module) \
                and ctx.index.scope_of(use) is not home:
            continue  # (a function's loader is its local: the same name in another function is another loader)
        holder = next((a for a in ctx.index.ancestors(use) if isinstance(a, (ast.For, ast.AsyncFor, ast.stmt))), None)
        scope = ctx.index.scope_of(use)
        if isinstance(holder, (ast.For, ast.AsyncFor)) and any(n is use for n in ast.walk(holder.iter)):
            loops.append(holder)
        elif _drawn_from(ctx, use) and not isinstance(scope, ast.Module):
            loops.append(scope)  # batch = next(iter(loader)) in a function: what the function does with it
        elif not _len_of(ctx, use):
            return False  # train(model, loader), returned, read at the top level: where its batches go is not seen
    return bool(loops) and not any(_may_reach_the_gpu(ctx, node) for loop in loops for node in ast.walk(loop)
                                   if isinstance(node, ast.Call)) and not any(_moved_after(ctx, loop) for loop in loops)


def _moved_after(ctx, loop: ast.AST) -> bool:
    """``for sample in loader: img = sample["img"]`` and then ``img = img.to(device)`` after the loop: a batch the
    loop drew still goes to the GPU."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    drawn = ctx.assigned_in(loop) | target_names(loop.target)
    end = loop.end_lineno or loop.lineno
    return any(isinstance(call.func, ast.Attribute) and call.func.attr in ("to", "cuda") and call.lineno > end
               and isinstance(call.func.value, ast.Name) and call.func.value.id in drawn
               and ctx.kind(call) & CUDA_TENSOR and not _bound_between(ctx, call.func.value.id, end, call.lineno)
               for call in ctx.calls_in(ctx.index.scope_of(loop)))


def _bound_between(ctx, name: str, after: int, before: int) -> bool:
    """(another loop's ``for batch in moved: batch.to(device)``: that batch is another loader's)"""
    return any(isinstance(node.ctx, ast.Store) and after < node.lineno < before
               for node in ctx.index.names_by_id.get(name, ()))


def _may_reach_the_gpu(ctx, call: ast.Call) -> bool:
    """CUDA work, a call into the user's code (it may move the batch), or a move to a device not known to be the
    CPU's (``x.to(device)`` with ``device`` chosen elsewhere)."""
    if ctx.kind(call) & (CUDA_TENSOR | CUDA_MODEL) or ctx.callees(call):
        return True
    moves = isinstance(call.func, ast.Attribute) and call.func.attr in ("to", "cuda")
    return moves and not ctx.kind(call) & CPU_TENSOR


def _drawn_from(ctx, use: ast.Name) -> bool:
    parent = ctx.index.parents.get(use)
    return isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "iter"


def _len_of(ctx, use: ast.Name) -> bool:
    parent = ctx.index.parents.get(use)
    return isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len"


def _argument(call: ast.Call, keywords: dict[str, ast.AST], name: str, position: int) -> Optional[ast.AST]:
    if name in keywords:
        return keywords[name]
    return call.args[position] if len(call.args) > position else None


def _keywords(ctx, call: ast.Call) -> Optional[dict[str, ast.AST]]:
    """The call's keyword arguments by name, ``**params`` spelled out when ``params`` is a dict literal with string
    keys that the file binds once and never changes (``params[k] = v``, ``params.update(...)``); None when some
    option cannot be seen."""
    found: dict[str, ast.AST] = {}
    for keyword in call.keywords:
        if keyword.arg is not None:
            found[keyword.arg] = keyword.value
            continue
        spelled = _dict_literal(ctx, keyword.value)
        if spelled is None:
            return None
        found.update(spelled)
    return found


def _dict_literal(ctx, value: ast.AST) -> Optional[dict[str, ast.AST]]:
    if not isinstance(value, ast.Name) or value.id in ctx.index.parameters:
        return None
    values = ctx.index.assigned_values.get(value.id, [])
    if len(values) != 1:
        return None
    literal = values[0]
    if isinstance(literal, ast.IfExp) and cuda_condition(literal.test, ctx.qual) is not None:
        literal = literal.body if cuda_condition(literal.test, ctx.qual) else literal.orelse  # (the options on a GPU)
    if isinstance(literal, ast.Call) and isinstance(literal.func, ast.Name) and literal.func.id == "dict" \
            and not literal.args and all(k.arg is not None for k in literal.keywords):
        spelled = {k.arg: k.value for k in literal.keywords}  # dict(batch_size=4, num_workers=2)
    elif isinstance(literal, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                               for k in literal.keys):
        spelled = {k.value: v for k, v in zip(literal.keys, literal.values, strict=True)}
    else:
        return None  # a ``**other`` inside, computed keys, or not a dict the file writes
    for use in ctx.index.names_by_id.get(value.id, ()):
        parent = ctx.index.parents.get(use)
        if isinstance(parent, ast.Subscript) and isinstance(parent.ctx, (ast.Store, ast.Del)) \
                or isinstance(parent, ast.Attribute) and parent.attr in ("update", "setdefault", "pop", "__setitem__"):
            return None  # changed after it was written
    return spelled


def _moves_to_cuda(ctx) -> bool:
    """Does anything put a tensor or a model on CUDA? A script that only names a CUDA device (``DEVICE =
    torch.device("cuda" if ... else "cpu")``) and previews a batch has no GPU for its loaders to feed."""
    return any(ctx.kind(call) & (CUDA_TENSOR | CUDA_MODEL) or _hands_loader_and_device(ctx, call)
               for call in ctx.index.calls)


def _hands_loader_and_device(ctx, call: ast.Call) -> bool:
    """``train(precision, device, random_loader, args)`` / ``evaluate(model, val_dl, device)``: a function of
    another module handed a loader and a device that may be CUDA -- it moves the batches there."""
    if not isinstance(call.func, ast.Name) or ctx.resolve(call.func.id, ctx.scope_of(call)):
        return False  # (the file's own functions show their moves, and methods are judged by what they run)
    handed = list(call.args) + [k.value for k in call.keywords]
    return any(ctx.kind(a) & LOADER for a in handed) and any(ctx.kind(a) & CUDA_DEVICE for a in handed)


_LIGHTNING = ("pytorch_lightning.", "lightning.", "lightning.pytorch.")
_GPU_ACCELERATORS = frozenset({"gpu", "cuda"})


def _lightning_on_gpus(ctx) -> bool:
    """``pl.Trainer(gpus=[0, 1])`` / ``Trainer(accelerator="gpu", devices=2)``: Lightning moves each batch to
    the GPUs itself, so the file never calls .cuda() -- its loaders still feed a GPU training run."""
    for call in ctx.index.calls_by_name.get("Trainer", ()):
        name = ctx.qual(call.func) or ""
        if not name.startswith(_LIGHTNING):
            continue
        keywords = {k.arg: k.value for k in call.keywords}
        gpus = keywords.get("gpus")
        if gpus is not None and _asks_for_devices(ctx, gpus):
            return True
        accelerator = keywords.get("accelerator")
        if isinstance(accelerator, ast.Constant) and str(accelerator.value).lower() in _GPU_ACCELERATORS:
            devices = keywords.get("devices")
            if devices is None or _asks_for_devices(ctx, devices):
                return True
        elif isinstance(accelerator, ast.Name) and _may_name_a_gpu(ctx, accelerator.id):
            devices = keywords.get("devices")  # accelerator = cfg.get("accelerator", "gpu" if cuda else "cpu")
            if devices is None or not isinstance(devices, ast.Constant) or _asks_for_devices(ctx, devices):
                return True  # (devices from a setting: Lightning's default, "auto", takes the GPUs there are)
    return False


def _may_name_a_gpu(ctx, name: str) -> bool:
    """A name bound to an expression that spells "gpu" or "cuda" (a default, a branch of a conditional)."""
    return any(isinstance(n, ast.Constant) and str(n.value).lower() in _GPU_ACCELERATORS
               for value in ctx.index.assigned_values.get(name, ()) for n in ast.walk(value))


def _asks_for_devices(ctx, value: ast.AST) -> bool:
    """gpus=1, gpus=[0, 1], gpus="0,1", gpus=-1 (all): some device; gpus=0 / None / [] / args.gpus: none known."""
    if isinstance(value, (ast.List, ast.Tuple)):
        return bool(value.elts)
    if isinstance(value, ast.Constant):
        if isinstance(value.value, str):
            return value.value.strip() not in ("", "0", "None")
        return type(value.value) is int and value.value != 0
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
        return True  # gpus=-1: every GPU
    number = ctx.int_value(value)
    return number is not None and number != 0
