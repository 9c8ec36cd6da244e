"""A small CPU training loop that logs loss.item() every step (a real program for the profile tests)."""
import torch

model = torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(40):
    inputs = torch.randn(256, 256)
    targets = torch.randint(0, 10, (256,))
    loss = torch.nn.functional.cross_entropy(model(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.3f}")
