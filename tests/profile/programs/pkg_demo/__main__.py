"""Run as `-m pkg_demo`: a few optimizer steps."""
import torch

model = torch.nn.Linear(16, 16)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(30):
    model(torch.randn(8, 16)).sum().backward()
    optimizer.step()
