"""GA106: a DataLoader in a GPU program without pinned memory, or loading in the main process.

Must match:   DataLoader(train_set, batch_size=64, shuffle=True)        (in a file that uses CUDA)
              DataLoader(ds, batch_size=64, num_workers=0, pin_memory=True)
Must not:     DataLoader(ds, batch_size=64, num_workers=4, pin_memory=True)
              DataLoader(ds, **loader_kwargs)   (cannot see the options)
              DataLoader(TensorDataset(x_cuda, y_cuda), ...)   (data already on the GPU: pinning fails)
              any DataLoader in a file that never touches CUDA
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from advisor.lint import torch_api as api
from advisor.lint.flow import CUDA_TENSOR
from advisor.lint.model import CheckDoc, CheckInfo, Hit

DOC = CheckDoc(
    what=('Finds a DataLoader in a program that uses CUDA that loads in the main process (num_workers=0, the '
          'default) or without pin_memory=True.'),
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
    if not ctx.uses_cuda:
        return
    for call in ctx.index.calls:
        if ctx.qual(call.func) not in api.LOADERS or any(k.arg is None for k in call.keywords):
            continue
        if any(isinstance(a, ast.Starred) for a in call.args):
            continue
        dataset = _argument(call, "dataset", 0)
        if dataset is not None and ctx.kind(dataset) & CUDA_TENSOR:
            continue
        problems = []
        workers = _argument(call, "num_workers", _NUM_WORKERS_POSITION)
        if workers is None or (isinstance(workers, ast.Constant) and workers.value == 0):
            problems.append("num_workers=0" + (" (the default)" if workers is None else ""))
        pin = _argument(call, "pin_memory", _PIN_MEMORY_POSITION)
        if pin is None or (isinstance(pin, ast.Constant) and not pin.value):
            problems.append("no pin_memory=True")
        if problems:
            yield Hit(f"DataLoader feeding a GPU with {' and '.join(problems)}", node=call,
                      evidence={"problems": problems})


def _argument(call: ast.Call, name: str, position: int) -> Optional[ast.AST]:
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    return call.args[position] if len(call.args) > position else None
