"""(c) Training fed by a DataLoader with a heavy per-sample CPU transform and num_workers=0.

Expected from `gpu-advisor profile`: data-loading bound, at the `for inputs, targets in loader:` line.
"""
import sys

import torch
from torch.utils.data import DataLoader, Dataset

device = "cuda" if torch.cuda.is_available() else "cpu"
epochs = int(sys.argv[1]) if len(sys.argv) > 1 else 20


class NoisyImages(Dataset):
    def __len__(self):
        return 512

    def __getitem__(self, index):
        generator = torch.Generator().manual_seed(index)
        image = torch.randn(3, 256, 256, generator=generator)
        for _ in range(3):  # an expensive augmentation, done on the CPU for every sample
            image = torch.fft.ifft2(torch.fft.fft2(image) * 0.99).real
        return image, index % 10


model = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(8),
                            torch.nn.Flatten(), torch.nn.Linear(16 * 64, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
loader = DataLoader(NoisyImages(), batch_size=32, shuffle=True, num_workers=0)
for epoch in range(epochs):
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
