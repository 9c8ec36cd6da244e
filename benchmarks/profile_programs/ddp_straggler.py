"""(f) Data-parallel training (DistributedDataParallel) where one rank can be a straggler.

Run under torchrun: NCCL and one GPU per rank when CUDA is available, gloo on the CPU otherwise. Gradients are
all-reduced every step, so every rank's step takes as long as the slowest rank's: the others wait for it inside
the all-reduce. ``SLOW_RANK=r`` makes rank r do extra host work before each step's forward, as a slow data
pipeline or rank-0-only logging would: ``SLOW_MS`` of it (default 20), a sleep (``SLOW_KIND=sleep``, default) or
a CPU-bound transform on the host (``SLOW_KIND=cpu``). Without SLOW_RANK every rank does the same work.

    python3 -m torch.distributed.run --nproc-per-node 2 benchmarks/profile_programs/ddp_straggler.py [STEPS]

Expected from `gpu-advisor profile` under torchrun: the ranks' step times agree; with SLOW_RANK=1 rank 1 waits
least in the all-reduce, the others about SLOW_MS more per step, and rank 1 is named as the straggler.
"""
import os
import sys
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 200
CUDA = torch.cuda.is_available()
# On an H100 (TF32 matmuls): 6 layers of 4096 at a batch of 4096 are ~2.5 TFLOP a step, ~10-15 ms, and 100M
# parameters (400 MB of fp32 gradients) to all-reduce. On a CPU a step is a few ms.
WIDTH = int(os.environ.get("WIDTH", 4096 if CUDA else 256))
LAYERS = int(os.environ.get("LAYERS", 6 if CUDA else 3))
BATCH = int(os.environ.get("BATCH", 4096 if CUDA else 64))


def extra_host_work(kind: str, seconds: float) -> None:
    """What a straggling rank does on the host before its step: sleep (I/O, a lock) or burn CPU (a transform)."""
    if kind == "sleep":
        time.sleep(seconds)
        return
    block = torch.randn(64, 64)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        block = torch.tanh(block @ block.T / 64)


def main() -> None:
    dist.init_process_group("nccl" if CUDA else "gloo")
    rank = dist.get_rank()
    if CUDA:
        device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0)))
        torch.cuda.set_device(device)
        torch.backends.cuda.matmul.allow_tf32 = True
    else:
        device = torch.device("cpu")
    slow = os.environ.get("SLOW_RANK") == str(rank)
    slow_s = float(os.environ.get("SLOW_MS", "20")) / 1000
    slow_kind = os.environ.get("SLOW_KIND", "sleep")
    torch.manual_seed(0)
    layers = []
    for _ in range(LAYERS):
        layers += [torch.nn.Linear(WIDTH, WIDTH), torch.nn.GELU()]
    model = DistributedDataParallel(torch.nn.Sequential(*layers, torch.nn.Linear(WIDTH, 10)).to(device),
                                    device_ids=[device.index] if CUDA else None)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    generator = torch.Generator(device=device).manual_seed(rank)
    inputs = torch.randn(BATCH, WIDTH, device=device, generator=generator)
    targets = torch.randint(0, 10, (BATCH,), device=device, generator=generator)
    for _ in range(STEPS):
        if slow:
            extra_host_work(slow_kind, slow_s)
        loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    if rank == 0:
        print(f"rank 0 final loss {loss.item():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
