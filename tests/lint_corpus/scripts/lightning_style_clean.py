"""A LightningModule: the framework runs the loop, moves batches and turns off grad for validation."""
import lightning as L
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader


class LitClassifier(L.LightningModule):
    def __init__(self, hidden=256, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(784, hidden), nn.ReLU(), nn.Linear(hidden, 10))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, on_step=True, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        acc = (logits.argmax(1) == y).float().mean()
        self.log_dict({"val_loss": F.cross_entropy(logits, y), "val_acc": acc})

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


def main(train_set, val_set):
    train_loader = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=8, pin_memory=True)
    val_loader = DataLoader(val_set, batch_size=256, num_workers=8, pin_memory=True)
    trainer = L.Trainer(accelerator="gpu", devices=1, max_epochs=5, precision="bf16-mixed")
    trainer.fit(LitClassifier(), train_loader, val_loader)
