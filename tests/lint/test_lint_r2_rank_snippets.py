"""GA103 on the second real-world corpus (issue 12, held-out miss 214, wandb#8666): the training loop quoted in
an issue, without its imports, reads every metric with ``.item()`` under ``if RANK == 0:`` on every step.

- A test of the process rank (``RANK == 0``, ``args.local_rank == 0``, ``dist.get_rank() == 0``) has the same
  answer on every iteration, like a device test: the main process runs the branch on every step, so it is no
  "only some iterations" guard (``if rank == 0 and step % 100 == 0:`` still is).
- A model the snippet uses but never makes, imports or receives (``model`` / ``net`` bound nowhere in the
  file) is the quoted program's model, on the accelerator like a snippet's unbound ``device``. A model the
  file makes on the CPU, or a parameter of a function nobody calls with a CUDA model, is not.
- A file with neither ``torch`` nor ``cuda`` in it is still read when it runs autograd (``loss.backward()``).
- Since session 5 (the project's labelling convention): a snippet with no sign of CUDA at all -- no ``cuda``, no
  ``device``, no ``.to(...)``, no GPU-only API -- is CPU code, and its free ``model`` is no CUDA model there: the
  quoted loop of 214 fires only once it moves its batch (``data.to(device)``) or names the GPU somewhere.
"""

from __future__ import annotations

import pytest
from lint_helpers import lines_of

FIRES = [
    ("the quoted loop, its batch moved to the device: rank 0 reads every metric every step", """
model.train()
for data in train_loader:
    loss, metrics = model(data.to(device))
    loss.backward()
    if RANK == 0:
        metrics = {k: v.item() for k, v in metrics.items()}
""", [6]),
    ("a CUDA model, the loss printed by the main process on every step", """
import torch
import torch.distributed as dist
model = torch.nn.Linear(8, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in batches:
    loss = model(x.cuda()).mean()
    loss.backward()
    opt.step()
    if dist.get_rank() == 0:
        print(loss.item())
""", [10]),
    ("args.local_rank == 0 in a snippet's loop over a free net on the GPU", """
for x, y in loader:
    out = net(x.cuda(non_blocking=True))
    loss = criterion(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if args.local_rank == 0:
        print(f"loss {loss:.4f}")
""", [8]),
]

QUIET = [
    ("the quoted loop with no sign of CUDA anywhere: CPU code by convention", """
model.train()
for data in train_loader:
    loss, metrics = model(data)
    loss.backward()
    if RANK == 0:
        metrics = {k: v.item() for k, v in metrics.items()}
""", []),
    ("args.local_rank == 0 in a snippet's loop over a free net, nothing on a device", """
for x, y in loader:
    out = net(x)
    loss = criterion(out, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if args.local_rank == 0:
        print(f"loss {loss:.4f}")
""", []),
    ("the main process logs every 100 steps only", """
model.train()
for step, data in enumerate(train_loader):
    loss = model(data)
    loss.backward()
    if RANK == 0 and step % 100 == 0:
        print(loss.item())
""", []),
    ("a model the file makes on the CPU", """
import torch
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in batches:
    loss = model(x).mean()
    loss.backward()
    opt.step()
    print(loss.item())
""", []),
    ("a model handed to a function nobody in the file calls, no device anywhere", """
import torch
def train(model, loader, opt):
    for x in loader:
        loss = model(x).mean()
        loss.backward()
        opt.step()
        print(loss.item())
""", []),
    ("a first-iteration check is still a guard", """
model.train()
for step, data in enumerate(train_loader):
    loss = model(data)
    loss.backward()
    if step == 0:
        print(loss.item())
""", []),
]


@pytest.mark.parametrize("title,code,lines", FIRES + QUIET, ids=[c[0] for c in FIRES + QUIET])
def test_rank_tests_and_snippet_models(title, code, lines):
    assert [line for line, _ in lines_of(code, select=["GA103"])] == lines
