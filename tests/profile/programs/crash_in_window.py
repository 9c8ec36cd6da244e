"""Steps a few times, then fails inside the recording window (exit code 1 with a traceback)."""
import torch

model = torch.nn.Linear(8, 8)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    model(torch.randn(4, 8)).sum().backward()
    optimizer.step()
    if step == 4:
        raise RuntimeError("boom in step 4")
