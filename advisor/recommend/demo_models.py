"""Built-in demo models, so `gpu-advisor batch-size --model mlp` works with nothing of the user's.

Imported only when a demo model is asked for (model_source imports it inside a function), so this is the one
module under recommend/ that imports torch at the top: its classes subclass nn.Module.
"""

from __future__ import annotations

import torch
from torch import nn


class DemoMLP(nn.Module):
    """A plain MLP: 1024 features -> 3 x 2048 hidden (GELU) -> 1000 classes, ~12.6 M parameters."""

    def __init__(self, features: int = 1024, hidden: int = 2048, depth: int = 3, classes: int = 1000) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = features
        for _ in range(depth):
            layers += [nn.Linear(width, hidden), nn.GELU()]
            width = hidden
        layers.append(nn.Linear(width, classes))
        self.net = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class DemoCNN(nn.Module):
    """A small CNN (4 conv blocks with BatchNorm, 32..256 channels) for 3 x 64 x 64 images, ~1.2 M parameters."""

    def __init__(self, channels: int = 3, classes: int = 100) -> None:
        super().__init__()
        blocks: list[nn.Module] = []
        width = channels
        for out in (32, 64, 128, 256):
            blocks += [nn.Conv2d(width, out, 3, padding=1, bias=False), nn.BatchNorm2d(out), nn.ReLU(inplace=True),
                       nn.MaxPool2d(2)]
            width = out
        self.features = nn.Sequential(*blocks)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width, classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class DemoTransformer(nn.Module):
    """A small GPT-like encoder: 32k-token vocabulary, 6 layers, d_model 512, 8 heads, 512 tokens, ~44 M
    parameters; input is token ids (int64)."""

    def __init__(self, vocab: int = 32_000, d_model: int = 512, heads: int = 8, layers: int = 6,
                 context: int = 512) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.position = nn.Parameter(torch.zeros(1, context, d_model))
        layer = nn.TransformerEncoderLayer(d_model, heads, 4 * d_model, dropout=0.1, activation="gelu",
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens) + self.position[:, : tokens.shape[1]]
        return self.lm_head(self.norm(self.encoder(x)))


#: name -> (factory, default input shape without the batch dimension, input dtype)
DEMOS = {
    "mlp": (DemoMLP, (1024,), "float32"),
    "cnn": (DemoCNN, (3, 64, 64), "float32"),
    "transformer": (DemoTransformer, (512,), "int64"),
}
