"""(d) A healthy training loop: bf16 autocast, pinned memory, DataLoader workers, non_blocking copies and no
per-step synchronisation (the loss is read once, after the loop).

Expected from `gpu-advisor profile`: no warning; "healthy: GPU busy" when a GPU is present.
"""
import sys

import torch
from torch.utils.data import DataLoader, Dataset

device = "cuda" if torch.cuda.is_available() else "cpu"
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 300
features, width, batch = (256, 8192, 16384) if device == "cuda" else (32, 128, 64)


class ReadyBatches(Dataset):
    """Batches prepared ahead (as a real pipeline would), cheap to hand out."""

    def __init__(self):
        self.inputs = torch.randn(8, batch, features)
        self.targets = torch.randint(0, 10, (8, batch))

    def __len__(self):
        return steps

    def __getitem__(self, index):
        return self.inputs[index % 8].clone(), self.targets[index % 8].clone()


def main():
    layers = [torch.nn.Linear(features, width), torch.nn.GELU()]
    layers += [layer for _ in range(3) for layer in (torch.nn.Linear(width, width), torch.nn.GELU())]
    model = torch.nn.Sequential(*layers, torch.nn.Linear(width, 10)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=device == "cuda")
    loader = DataLoader(ReadyBatches(), batch_size=None, shuffle=False, num_workers=4, pin_memory=device == "cuda",
                        persistent_workers=True, prefetch_factor=4)
    total = torch.zeros((), device=device)
    for inputs, targets in loader:
        inputs, targets = inputs.to(device, non_blocking=True), targets.to(device, non_blocking=True)
        with torch.autocast(device_type=device, dtype=torch.bfloat16):
            loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        total += loss.detach()
    print(f"mean loss {float(total) / steps:.4f}")


if __name__ == "__main__":
    main()
