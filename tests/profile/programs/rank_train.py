"""A small per-rank training loop for the torchrun profile test: each rank joins the job's gloo group (the
program's own init_process_group, as a DDP script does), trains its own model, and one rank can be made slower
(SLOW_RANK=r: it sleeps SLOW_MS per step) or fail (FAIL_RANK=r: it exits with code 1 at step 2)."""
import os
import sys
import time

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
slow = os.environ.get("SLOW_RANK") == str(rank)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(60):
    if os.environ.get("FAIL_RANK") == str(rank) and step == 2:
        sys.exit(1)
    inputs = torch.randn(32, 64)
    loss = model(inputs).square().mean()
    optimizer.zero_grad()
    loss.backward()
    if slow:
        time.sleep(float(os.environ.get("SLOW_MS", "60")) / 1000)
    else:
        time.sleep(0.01)
    optimizer.step()
dist.destroy_process_group()
