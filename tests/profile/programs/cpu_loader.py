"""A CPU training loop fed by a DataLoader whose per-sample transform is expensive (num_workers=0)."""
import torch
from torch.utils.data import DataLoader, Dataset

torch.set_num_threads(1)


class Slow(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, index):
        image = torch.randn(3, 64, 64)
        for _ in range(6):
            image = torch.fft.ifft2(torch.fft.fft2(image)).real
        return image.flatten()[:32], index % 4


model = torch.nn.Linear(32, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(Slow(), batch_size=8, num_workers=0)
for epoch in range(3):
    for inputs, targets in loader:
        loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
