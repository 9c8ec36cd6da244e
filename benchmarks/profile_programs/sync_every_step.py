"""(b) A training loop that builds its inputs on the host with torch.tensor(...).cuda() and prints
loss.item() every step: a pageable copy and a host synchronisation per step.

Expected from `gpu-advisor profile`: host sync every step at the `loss.item()` line; pageable copies at the
`.cuda()` line.
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
for step in range(steps):
    inputs = torch.tensor(rows).to(device)
    targets = torch.tensor(labels).to(device)
    loss = torch.nn.functional.cross_entropy(model(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
