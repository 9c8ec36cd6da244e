"""(b) fixed: the same training loop with its inputs built once on the GPU and the loss read every 50 steps.

For `gpu-advisor compare` before/after: profile this and sync_every_step.py, then compare the two reports.
"""
import random
import sys

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
features, width, batch = (64, 8192, 512) if device == "cuda" else (64, 256, 256)
model = torch.nn.Sequential(torch.nn.Linear(features, width), torch.nn.ReLU(), torch.nn.Linear(width, width),
                            torch.nn.ReLU(), torch.nn.Linear(width, width), torch.nn.ReLU(),
                            torch.nn.Linear(width, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
rows = [[random.random() for _ in range(features)] for _ in range(batch)]
labels = [random.randrange(10) for _ in range(batch)]
inputs = torch.tensor(rows, device=device)
targets = torch.tensor(labels, device=device)
for step in range(steps):
    loss = torch.nn.functional.cross_entropy(model(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 50 == 0:
        print(f"step {step} loss {loss.item():.4f}")
