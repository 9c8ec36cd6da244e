"""Linear regression on the CPU: no GPU anywhere, so none of the GPU advice applies."""
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

X = torch.from_numpy(np.random.rand(5000, 8))
w_true = torch.randn(8, 1, dtype=torch.float64)
y = X @ w_true + 0.01 * torch.randn(5000, 1, dtype=torch.float64)
loader = DataLoader(TensorDataset(X, y), batch_size=100, shuffle=True)

w = torch.zeros(8, 1, dtype=torch.float64, requires_grad=True)
start = time.perf_counter()
for epoch in range(50):
    for xb, yb in loader:
        loss = ((xb @ w - yb) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
            w.grad.zero_()
        if loss.item() < 1e-6:
            break
    print(epoch, float(loss))
print(f"fit in {time.perf_counter() - start:.2f}s; error {torch.norm(w - w_true).item():.4f}")
