"""Classes found on the spent corpora's remaining misses and false alarms (issue 12, session 7), each with its
must-not twin."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA106", "DataLoader options kept in a dict literal the file writes once are read through **params", """
import torch
params = {'batch_size': 4, 'shuffle': False, 'num_workers': 4}
loader = torch.utils.data.DataLoader(dataset, **params)
kwargs = dict(batch_size=8, num_workers=4)
other = torch.utils.data.DataLoader(dataset, **kwargs)
good = {'batch_size': 4, 'num_workers': 4, 'pin_memory': True}
fine = torch.utils.data.DataLoader(dataset, **good)
changed = {'batch_size': 4, 'num_workers': 4}
changed['pin_memory'] = True
also_fine = torch.utils.data.DataLoader(dataset, **changed)
def make(ds, **loader_kwargs):
    return torch.utils.data.DataLoader(ds, **loader_kwargs)
model = Net().cuda()
""", [3, 5]),
    ("GA104", "factories made on the CPU only to be joined by torch.cat and copied: reported at each factory", """
import torch
def bench(n, d, features):
    t_zero = torch.randn(1, d)
    t_pos = torch.randn(n - 1, d)
    t = torch.cat([t_zero, t_pos], dim=0).cuda()
    x = torch.cat((torch.ones((1, 8)).view(-1), torch.ones((1, 8)).view(-1))).view(2, -1).cuda()
    data = torch.cat([torch.zeros(1, d), features]).cuda()
    lit = torch.cat([torch.tensor([1.0]), torch.tensor([2.0])]).cuda()
    kept = torch.randn(1, d)
    both = torch.cat([kept, torch.randn(1, d)]).cuda()
    return t, x, data, lit, both, kept.sum()
""", [3, 4, 6]),
    ("GA103", "per-batch reads through tensorboard's image writer, a layer's weight, and a list indexed by each element", """
import torch
import torchvision
CLASSES = ["cat", "dog"]
NAMES = {0: "cat", 1: "dog"}
model = Net().cuda()
for data, targets in loader:
    data = data.cuda()
    scores = model(data)
    scores.sum().backward()
    _, predictions = scores.max(1)
    labels = [CLASSES[label] for label in predictions]
    keyed = [NAMES[label] for label in predictions]
    writer.add_image("batch", torchvision.utils.make_grid(data))
    writer.add_histogram("fc1", model.fc1.weight)
    writer.add_histogram("lr", lr_list)
""", [11, 13, 14]),
    ("GA103", "comparing a CUDA tensor with None is a Python identity test (a bool), not a read", """
import torch
x = torch.randn(8, 8, device="cuda", requires_grad=True)
for i in range(100):
    if x.grad != None:
        x.grad.data.zero_()
    loss = (x ** 2).sum()
    loss.backward()
    if loss != 0:
        print("nonzero")
""", [8]),
    ("GA107", "one preview forward per epoch after the epoch's training loop is quiet; a validation loop is not", """
import torch
generator = Generator().cuda()
test_z = torch.randn(16, 100, device="cuda")
for ep in range(100):
    for images, _ in loader:
        loss = generator(images.cuda()).mean()
        loss.backward()
        opt.step()
    preview = generator(test_z)
    save(preview)
    for images, _ in val_loader:
        val = generator(images.cuda())
""", [12]),
    ("GA101", "an evaluation pass reading its loss every batch, then joining predictions: the clock is right", """
import time
import torch
model = Net().cuda()
crit = torch.nn.CrossEntropyLoss()
model(torch.zeros(1, 3, device="cuda"))
t0 = time.time()
preds, total = [], 0.0
for x, y in loader:
    out = model(x.cuda())
    total += crit(out, y.cuda()).item()
    preds.append(out.argmax(1))
all_preds = torch.cat(preds)
print(time.time() - t0)
t1 = time.time()
for x, y in loader:
    out = model(x.cuda())
    if len(preds) > 3:
        total += crit(out, y.cuda()).item()
    preds.append(out.argmax(1))
all_preds = torch.cat(preds)
print(time.time() - t1)
t2 = time.time()
for x, y in loader:
    total += model(x.cuda()).sum().item()
final = model(torch.randn(64, 3, device="cuda")).sum()
print(time.time() - t2)
""", [21, 26]),
    ("GA101", "boolean-mask indexing of a CUDA tensor reads the mask's count back: the loop is caught up", """
import time
import torch
a = torch.rand(1000, device="cuda")
b = torch.rand(1000, device="cuda")
idx = torch.arange(10, device="cuda")
a + b
start = time.time()
for i in range(100):
    mask = a > b
    a[mask] = b[mask]
elapsed = time.time() - start
start = time.time()
for i in range(100):
    a[idx] = b[idx] * 2
elapsed = time.time() - start
""", [15]),
    ("GA106", "a loader whose loops put nothing on the GPU feeds the CPU; one whose batch moves, or is handed on, does not", """
import torch
stats = torch.zeros(80, dtype=torch.float64).cuda()
loader = torch.utils.data.DataLoader(dataset, batch_size=50, num_workers=8)
total = torch.zeros(1)
for batch in loader:
    pitch = batch["pitch"].to(device="cpu", dtype=torch.float64)
    total += pitch.mean()
print(len(loader))
moved = torch.utils.data.DataLoader(dataset, batch_size=50, num_workers=8)
for batch in moved:
    x = batch.to(device)
handed = torch.utils.data.DataLoader(dataset, batch_size=50, num_workers=8)
def train(data):
    return data.cuda()
for batch in handed:
    train(batch)
""", [9, 12]),
    ("GA104", "torch.Tensor(space.shape) wraps a shape tuple's numbers (data); torch.Tensor(t.shape) of a tensor is sizes", """
import torch
x = torch.randn(4, 5, device="cuda")
target_entropy = -torch.prod(torch.Tensor(env.action_space.shape).to("cuda")).item()
buffer = torch.Tensor(x.cpu().shape).to("cuda")
""", [4]),
    ("GA106", "a loader drawn once in a function that tests the model on the CPU; the same name on CUDA elsewhere", """
import torch
def test_cpu():
    model = Net()
    data_loader = torch.utils.data.DataLoader(dataset, batch_size=2)
    batch = next(iter(data_loader))
    assert model(batch).shape
def test_cuda():
    model = Net().to("cuda")
    data_loader = torch.utils.data.DataLoader(dataset, batch_size=2)
    batch = next(iter(data_loader)).to("cuda")
    assert model(batch).shape
def make_loaders():
    train_loader = torch.utils.data.DataLoader(dataset, batch_size=2)
    return train_loader, None
""", [9, 13]),
    ("GA102", "a lap time per batch of a loader (end reset each iteration) is not a cold-start measurement", """
import time
import torch
model = torch.nn.Sequential(Transform())
for age in [1, 2]:
    loader = torch.utils.data.DataLoader(ds, batch_size=256, num_workers=16, pin_memory=True)
    end = time.time()
    model.cuda()
    for i, (images, target) in enumerate(loader):
        output = model(images.cuda())
        save_image(output, "x.jpg")
        print(time.time() - end)
        end = time.time()
start = time.time()
out = model(torch.ones(3).cuda())
torch.cuda.synchronize()
print(time.time() - start)
""", []),
    ("GA110", "a reshaped linspace keeps its 100 elements: hand-written regression on it is launch-bound", """
import torch
x = torch.linspace(0, 1, 100, device="cuda").reshape(-1, 1)
y = 3.0 * x + 2.0
w = torch.randn(1, requires_grad=True, device="cuda")
b = torch.randn(1, requires_grad=True, device="cuda")
for epoch in range(100):
    loss = ((x * w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
        w.grad.zero_()
        b.grad.zero_()
big = torch.linspace(0, 1, 10_000_000, device="cuda").reshape(-1, 1)
for epoch in range(100):
    big = big * 0.5 + 1.0
""", [7]),
    ("GA102", "torch.load(path).to(device).eval() runs nothing: the timed loop still holds the first computation", """
import time
import torch
device = "cuda:1"
model = torch.load("detector.pth").to(device)
model.eval()
start = time.time()
for idx in range(10):
    image = load_image(idx).unsqueeze(0).to(device)
    output = model(image)
torch.cuda.synchronize()
end = time.time()
print((end - start) / 10)
""", [8]),
    ("GA107", "a test pass before a training loop that makes its own inputs records for nothing; a warm-up or "
     "a pass whose outputs the later loop trains on does not", """
import torch
unet = UNet().to("cuda")
crit = torch.nn.MSELoss()
target = torch.zeros(1, 2, device="cuda")
test_inp = [torch.randn(1, 1, 8, 8, device="cuda") for _ in range(100)]
error = 0
for inp in test_inp:
    out = unet(inp)
    error += crit(out, target)
for _ in range(10):
    unet(test_inp[0])
kept = []
for inp in test_inp:
    kept.append(unet(inp))
opt = torch.optim.SGD(unet.parameters(), lr=0.01)
for _ in range(100):
    opt.zero_grad()
    inp = torch.randn(1, 1, 8, 8, device="cuda")
    out = unet(inp)
    loss = crit(out, target) + sum(k.sum() for k in kept)
    loss.backward()
    opt.step()
""", [8]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s7_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
