"""Data-parallel training on gloo for the torchrun profile tests: one model wrapped in DistributedDataParallel,
so its gradients are all-reduced every step and every rank's step lasts as long as the slowest rank's.

Each rank's own work per step is mostly an 80 ms sleep (a stand-in for compute that does not fight the other
rank for a CPU core: the test machine has two, shared with the profiler, gloo's threads and other jobs; a
rank starved of CPU for a window is a real straggler for that window, and a long step keeps those few ms
under the straggler rule's 10%). SLOW_RANK=r makes rank r sleep SLOW_MS more before each step (default 60),
as a slow data pipeline would: the other rank waits for it in the all-reduce."""
import os
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

dist.init_process_group("gloo")
rank = dist.get_rank()
extra_s = float(os.environ.get("SLOW_MS", "60")) / 1000 if os.environ.get("SLOW_RANK") == str(rank) else 0.0
model = DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 4)))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
inputs = torch.randn(32, 64)
for step in range(60):
    time.sleep(0.080 + extra_s)
    loss = model(inputs).square().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
dist.destroy_process_group()
