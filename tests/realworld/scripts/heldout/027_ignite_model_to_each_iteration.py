import torch
from torchvision.models.resnet import resnet101

device = "cuda"
model = resnet101(pretrained=False).to(device)

# %%timeit
for _ in range(1000):
    model.to(device)
    s = torch.sum(torch.rand(1000))

# %%timeit
for _ in range(1000):
    s = torch.sum(torch.rand(1000))
