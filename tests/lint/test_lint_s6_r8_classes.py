"""Classes found on the eighth corpus's dev half (issue 12, session 6), each with its must-not twin."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA108", "anomaly detection switched on in a model module's __init__: whoever builds it trains with it on", """
import torch
from torch import nn
class Head(nn.Module):
    def __init__(self):
        super().__init__()
        torch.autograd.set_detect_anomaly(True)
        self.fc = nn.Linear(8, 2)
    def forward(self, x):
        return self.fc(x)
""", [6]),
    ("GA108", "a profiler without a schedule around a call of the user's function that loops", """
import torch
def conv_loop(x, n):
    for _ in range(n):
        x = torch.nn.functional.relu(x)
    return x
x = torch.ones(8, device="cuda")
with torch.autograd.profiler.profile(use_cuda=True) as prof:
    res = conv_loop(x, 10)
with torch.autograd.profiler.profile(use_cuda=True) as prof:
    once = torch.nn.functional.relu(x)
""", [7]),
    ("GA101", "a library model's infer_image(raw_img) hands back host data, so the clock after it is right", """
import time
import cv2
import torch
model = DepthAnything(encoder="vits").to("cuda").eval()
raw_img = cv2.imread("a.jpg")
depth = model.infer_image(raw_img)
start = time.time()
depth = model.infer_image(raw_img)
print(time.time() - start)
""", []),
    ("GA107", "the same call is the library's inference API (its own no_grad), not a forward with autograd on", """
import cv2
import torch
model = DepthAnything(encoder="vits").to("cuda").eval()
for path in paths:
    depth = model.infer_image(cv2.imread(path))
""", []),
    ("GA102", "a logged per-step batch time in a training loop over a loader a helper makes: progress, not a benchmark", """
import time
import torch
model = Net().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data_loader = get_dataloader(dataset, is_train=True)
for i, batch in enumerate(data_loader):
    start_time = time.time()
    loss = model(batch["images"].to("cuda:0")).sum()
    loss.backward()
    optimizer.step()
    batch_time = time.time() - start_time
    if i % 100 == 0:
        print(batch_time)
""", []),
    ("GA102", "not: a copy-only data-time clock pair", """
import time
import torch
for i, batch in enumerate(batches):
    start_time = time.time()
    inputs = batch.to("cuda:0")
    data_time = time.time() - start_time
    print(data_time)
""", []),
    ("GA107", "an evaluation loop after model.eval() in a notebook whose training loop comes later in the file", """
import torch
model = Net().to("cuda:0")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for img, label in test_loader:
    model.eval()
    logps = model(img.to("cuda:0"))
for img, label in train_loader:
    model.train()
    loss = torch.nn.functional.cross_entropy(model(img.to("cuda:0")), label.to("cuda:0"))
    loss.backward()
    opt.step()
""", [6]),
    ("GA107", "a frozen backbone with a new classifier head assigned after the freeze still records", """
import torch
from torch import nn
from torchvision import models
model = models.densenet121(pretrained=True)
for param in model.parameters():
    param.requires_grad = False
head = nn.Sequential(nn.Linear(1024, 500), nn.ReLU(), nn.Linear(500, 2))
model.classifier = head
model = model.cuda().eval()
for img in test_images:
    out = model(img.cuda())
""", [11]),
    ("GA107", "not: the same backbone frozen with nothing new attached", """
import torch
from torchvision import models
model = models.densenet121(pretrained=True)
for param in model.parameters():
    param.requires_grad = False
model = model.cuda().eval()
for img in test_images:
    out = model(img.cuda())
""", []),
    ("GA102", "a measure() function run in a dry-run loop (`_ = measure(...)`) before the loop that keeps its times", """
import time
import torch
def measure(model, x):
    torch.cuda.synchronize()
    t0 = time.time()
    with torch.no_grad():
        model(x)
    torch.cuda.synchronize()
    return time.time() - t0
model = Net().cuda().eval()
x = torch.empty(1, 3, 224, 224, device="cuda")
for i in range(10):
    _ = measure(model, x)
times = [measure(model, x) for i in range(10)]
""", []),
    ("GA105", "a model moved inside a function called once per batch size of a sweep (for i, bs in enumerate(sizes))", """
import torch
def benchmark(model, x):
    model = model.cuda().eval()
    return model(x)
model = Net()
batch_sizes = [1, 2, 4]
for i, bs in enumerate(batch_sizes):
    x = torch.ones(bs, 3, 64, 64, device="cuda")
    benchmark(model, x)
""", []),
    ("GA103", "a batch loop that ends in a debug sys.exit() runs once; the same loop without it reads every batch", """
import sys
import torch
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in loader:
    loss = model(x.cuda()).sum()
    loss.backward()
    opt.step()
    print(loss.item())
    sys.exit()
for x in loader:
    loss = model(x.cuda()).sum()
    loss.backward()
    opt.step()
    print(loss.item())
""", [15]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_r8_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
