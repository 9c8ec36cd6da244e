import os

import pytorch_lightning as pl
import torch
from torch.nn import functional as F
from torch.utils.data import DataLoader
from torchvision import transforms
from torchvision.datasets import MNIST


class MNISTModel(pl.LightningModule):
    def __init__(self):
        super(MNISTModel, self).__init__()
        self.l1 = torch.nn.Linear(28 * 28, 10)

    def forward(self, x):
        return torch.relu(self.l1(x.view(x.size(0), -1)))

    def training_step(self, batch, batch_nb):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        tensorboard_logs = {"train_loss": loss}
        return {"loss": loss, "log": tensorboard_logs}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=0.02)


if __name__ == "__main__":
    train_loader = DataLoader(
        MNIST(os.getcwd(), train=True, download=True, transform=transforms.ToTensor()),
        batch_size=64,
    )

    mnist_model = MNISTModel()
    trainer = pl.Trainer(
        gpus=[0, 1],
        accelerator="ddp",
        progress_bar_refresh_rate=20,
        sync_batchnorm=True,
        precision=16,
    )
    trainer.fit(mnist_model, train_loader)
