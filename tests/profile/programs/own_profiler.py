"""Runs a torch.profiler of its own around its training loop (and steps it): gpu-advisor's cannot also run."""
import torch

model = torch.nn.Linear(8, 8)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
    for step in range(30):
        model(torch.randn(4, 8)).sum().backward()
        optimizer.step()
        prof.step()
print("finished", step)
