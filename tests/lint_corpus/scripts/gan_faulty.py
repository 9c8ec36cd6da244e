"""DCGAN-style training loop on a GPU."""
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

nz = 100
device = "cuda"


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(nz, 256), nn.ReLU(True), nn.Linear(256, 784), nn.Tanh())

    def forward(self, z):
        return self.main(z).view(-1, 1, 28, 28)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1))

    def forward(self, x):
        return self.main(x).squeeze(1)


def make_loader():
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5,), (0.5,))])
    ds = datasets.MNIST("data", train=True, download=True, transform=tf)
    return DataLoader(ds, batch_size=128, shuffle=True, num_workers=8, pin_memory=True, drop_last=True)


def train(epochs=5):
    netG, netD = Generator().to(device), Discriminator().to(device)
    optG = optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optD = optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    criterion = nn.BCEWithLogitsLoss()
    fixed_noise = torch.randn(64, nz, device=device)
    loader = make_loader()
    for epoch in range(epochs):
        for step, (real, _) in enumerate(loader):
            real = real.to(device, non_blocking=True)
            b = real.size(0)
            ones = torch.ones(b).to(device)
            zeros = torch.zeros(b, device=device)
            noise = torch.randn(b, nz).to(device)
            fake = netG(noise)

            optD.zero_grad()
            lossD = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
            lossD.backward()
            optD.step()

            optG.zero_grad()
            lossG = criterion(netD(fake), ones)
            lossG.backward()
            optG.step()
            print(f"[{epoch}/{epochs}][{step}] loss_D {lossD:.4f} loss_G {lossG:.4f}")
        with torch.no_grad():
            samples = netG(fixed_noise).cpu()
        torch.save(samples, f"samples_{epoch}.pt")


if __name__ == "__main__":
    train()
