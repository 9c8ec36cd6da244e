"""Regression fine-tuning on tabular data, with debugging leftovers from chasing a NaN."""
import os

os.environ["CUDA_LAUNCH_BLOCKING"] = "1"

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.autograd.set_detect_anomaly(True)

features = np.random.randn(10000, 32)
targets = np.random.randn(10000, 1)
dataset = TensorDataset(torch.from_numpy(features), torch.from_numpy(targets))
loader = DataLoader(dataset, batch_size=256, shuffle=True, num_workers=4, pin_memory=True)

device = "cuda:0"
model = nn.Sequential(nn.Linear(32, 128), nn.Tanh(), nn.Linear(128, 1)).to(device).double()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()

with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
    for epoch in range(20):
        epoch_loss = torch.zeros((), device=device, dtype=torch.float64)
        for xb, yb in loader:
            xb = xb.to(device, non_blocking=True)
            yb = yb.to(device, non_blocking=True)
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.detach()
        print(f"epoch {epoch}: {epoch_loss.item() / len(loader):.5f}")
print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=10))
