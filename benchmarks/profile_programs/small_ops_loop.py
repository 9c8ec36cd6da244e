"""(a) A Python loop of tiny elementwise ops: every op is one kernel launch of ~1 us of GPU work.

Expected from `gpu-advisor profile`: launch-bound (GPU mostly idle), at the `b += a` line.
"""
import sys
import time

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 15.0
a = torch.rand(256, device=device)
b = torch.zeros(256, device=device)
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    for _ in range(1000):
        b += a
print(float(b.sum()))
