"""A loop of tiny elementwise ops with no optimizer: profiled through a wall-clock window."""
import time

import torch

b = torch.zeros(16)
a = torch.ones(16)
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    for _ in range(1000):
        b += a
