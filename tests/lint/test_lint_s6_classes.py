"""Session 6 classes (issue 12): found on the spent fifth corpus, fixed as classes, each with its must-not twin."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

_HEAD = """
import torch
model = torch.nn.LSTM(8, 8).cuda()
opt = torch.optim.Adam(model.parameters())
crit = torch.nn.MSELoss()
"""

_NESTED_CLOCKS = """
import time
import torch
from binseg.io import save_hdf
model = Net().cuda().eval()
total = time.time()
times = []
for names, images in loader:
    images = images.cuda()
    with torch.no_grad():
        start = time.perf_counter()
        probs = model(images).sigmoid()
        times.append(time.perf_counter() - start)
        save_hdf(probs, names)
print(time.time() - total, sum(times))
"""

_ATTACKED_INPUTS = """
import torch
from util import load_checkpoint, load_images
from fgsm import FGSM
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
trainloader, testloader = load_images(device)
model, _, _, _ = load_checkpoint(device, "ckpt.pt")
model.eval()
fgsm = FGSM(device)
kept = []
for inputs, labels in testloader:
    inputs = inputs.to(device)
    inputs = fgsm.generate(model, inputs, labels)
    kept.append(inputs.detach().cpu())
    out = model(inputs)
"""

CASES = [
    ("GA107", "a validation pass after the training pass of the same epoch, no eval(), no no_grad", _HEAD + """
for epoch in range(10):
    for x, y in train:
        opt.zero_grad()
        loss = crit(model(x.cuda())[0], y.cuda())
        loss.backward()
        opt.step()
    total = 0.0
    for x, y in valid:
        out = model(x.cuda())[0]
        total += crit(out, y.cuda())
    samples = model(probe.cuda())[0]
    print(total, samples)
""", [14]),  # (the one preview forward after the epoch's passes: quiet since session 7, as r9 921's labeller set it)
    ("GA107", "not: a per-time-step loop of a training step, outputs collected then backward in a later loop", _HEAD + """
for x, y in train:
    h = None
    for t in range(x.size(0)):
        out, h = model(x[t].cuda(), h)
    crit(out, y.cuda()).backward()
    opt.step()
for epoch in range(5):
    outs = []
    for x in chunks:
        outs.append(model(x.cuda())[0])
    for o in outs:
        o.sum().backward()
    opt.step()
""", []),
    ("GA101", "a whole training run the file does not show (fit handed a DataLoader) is no unsynced step; predict is", """
import time
import torch
from torch.utils.data import DataLoader
loader = DataLoader(ds, batch_size=8)
model = Net().cuda()
t0 = time.time()
model.fit(loader)
print(time.time() - t0)
t1 = time.time()
train_model(model, loader=loader)
print(time.time() - t1)
t2 = time.time()
model.predict(loader)
print(time.time() - t2)
""", [14]),
    ("GA103", "an imported metric and a loss class handed in, applied to CUDA tensors, read every batch", """
import torch
from utils.util import *
def evaluate(model, loader):
    with torch.no_grad():
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            top1, _ = accuracy(model(x), y, topk=(1, 5))
            print(top1.item())
def train(loader, model, criterion, optimizer):
    total = 0.0
    for x, y in loader:
        loss = criterion()(model(x.cuda()), y.cuda())
        total += loss.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
""", [8, 13]),
    ("GA103", "not: an unknown helper that is no metric, a metric never read on the host", """
import torch
from utils.util import *
def evaluate(model, loader):
    with torch.no_grad():
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            n = count_items(model(x), y)
            print(n)
            acc = accuracy(model(x), y)
""", []),
    ("GA103", "an ensemble kept in a list: its forward in an inner loop, the batch read back every batch", """
import torch
from torch.utils.data import DataLoader
from torchvision.models import densenet121
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
loader = DataLoader(dataset, batch_size=100, num_workers=4, pin_memory=True)
models = []
models.append(densenet121(num_classes=8).to(device))
with torch.no_grad():
    for x, y in loader:
        x = x.to(device)
        result = None
        for model in models:
            out = model(x).softmax(1)
            result = out if result is None else result + out
        kept = result.cpu()
""", [15]),
    ("GA107", "a model unpacked from a checkpoint loader handed the device, put in eval(), its input attacked", _ATTACKED_INPUTS, [14]),
    ("GA103", "the attacked input read back every batch (an unknown call bound back to its input keeps its device)", _ATTACKED_INPUTS, [13]),
    ("GA101", "a run of optimizer steps over batches sliced by hand, timed without a synchronize; not over a loader", """
import time
import torch
from torch.utils.data import DataLoader
model = torch.nn.Linear(100, 10).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(10000, 100, device="cuda")
y = torch.randint(0, 10, (10000,), device="cuda")
def train():
    for i in range(0, len(X), 64):
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(X[i:i + 64]), y[i:i + 64]).backward()
        opt.step()
start = time.time()
train()
end = time.time()
print(end - start)
loader = DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True)
t0 = time.time()
for xb, yb in loader:
    opt.zero_grad()
    torch.nn.functional.cross_entropy(model(xb.cuda()), yb.cuda()).backward()
    opt.step()
print(time.time() - t0)
""", [15]),
    ("GA102", "a per-batch clock inside a total clock: the cold start reported once, in the per-batch one", _NESTED_CLOCKS, [11]),
    ("GA101", "the total ends after the batches were written out (a writer handed CUDA tensors waits for them)",
     _NESTED_CLOCKS, [12]),
    ("GA102", "a per-call time that drops the first call by the index handed in; one that keeps it is reported", """
import time
import torch
def infer(image, model, times, i):
    start = time.time()
    with torch.no_grad():
        out = model(image.cuda())
    torch.cuda.synchronize()
    if i != 0:
        times.append(time.time() - start)
    return out
def infer_all(image, model, times, i):
    start = time.time()
    with torch.no_grad():
        out = model(image.cuda())
    torch.cuda.synchronize()
    times.append(time.time() - start)
    return out
""", [14]),
    ("GA109", "converted to float64 on one line and moved on the next: reported at the conversion", """
import torch
device = torch.device("cuda")
for x, y in loader:
    x, y = x.double(), y.long()
    x, y = x.to(device), y.to(device)
    z = w.double()
    z = z.float()
    z = z.to(device)
""", [4]),
    ("GA105", "a model moved inside the MPS fallback branch: never runs on a CUDA machine", """
import torch
device = "cuda" if torch.cuda.is_available() else "mps"
model = Encoder().to(device)
with torch.no_grad():
    for batch in batches:
        try:
            out = model(batch.to(device))
        except RuntimeError:
            if device == "mps":
                model = model.cpu()
                out = model(batch)
                model = model.to(device)
""", []),
    ("GA103", "t.numpy() of a CUDA tensor raises (a bug, not a slow read); t.cpu().numpy() reads", """
import torch
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    out = model(x.cuda())
    loss = torch.nn.functional.cross_entropy(out, y.cuda())
    opt.zero_grad()
    loss.backward()
    opt.step()
    preds = out.argmax(1).numpy()
    kept = out.argmax(1).cpu().numpy()
""", [11]),
    ("GA109", "an array cast with .astype(np.float64) (a NumPy method: the value is an array) moved as it is", """
import numpy as np
import torch
data = load()
betas = torch.tensor(data["betas"][None, :].astype(np.float64)).cuda()
""", [4]),
    ("GA104", "a NumPy constant fill held in a name (np.eye, np.zeros) copied as it is, reported where NumPy makes "
     "it; one filled in first is data", """
import numpy as np
import torch
R = np.eye(3)
t = np.zeros((1, 3))
K = np.eye(3)
K[0, 0] = focal
R_cu = torch.tensor(R[None, :, :]).cuda()
t_cu = torch.tensor(t[None, :, :]).cuda()
K_cu = torch.tensor(K[None, :, :]).cuda()
onehot = torch.zeros(10, 10)
for i in range(10):
    onehot[i, i] = 1
onehot = onehot.to("cuda")
""", [3, 4]),
    ("GA102", "per-step times summed over a training run over a DataLoader: the cold step is noise in the total", """
import time
import torch
from torch.utils.data import DataLoader
loader = DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True)
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
training_time = 0
for epoch in range(5):
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        torch.cuda.synchronize()
        start = time.time()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        training_time += time.time() - start
""", []),
    ("GA102", "torch.rand on the default CUDA tensor type picked with a conditional expression is the first CUDA work", """
import time
import torch as pt
pt.set_default_tensor_type(pt.cuda.FloatTensor if pt.cuda.is_available() else pt.FloatTensor)
tic = time.perf_counter()
x = pt.rand(200, 1000)
z = x * x
pt.cuda.synchronize()
print(time.perf_counter() - tic)
""", [5]),
    ("GA104", "data made once and run on the CPU and on the GPU (a comparison) is needed on the CPU; per-call data is not", """
import torch
X = torch.randn(1000, 100)
def train(model, device):
    X_dev = X.to(device)
    W = torch.randn(100, 10).to(device)
    return model(X_dev) @ W
train(Net(), torch.device("cpu"))
train(Net().cuda(), torch.device("cuda"))
""", [5]),
    ("GA102", "an imported job object's run() timed between two synchronize() calls, nothing warm before", """
import time
import torch
from engines.common import Inference
from utils import parse_option
torch.cuda.synchronize()
t_start = time.time()
config = parse_option("other")
predict = Inference(config)
predict.run()
torch.cuda.synchronize()
print(time.time() - t_start)
""", [9]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_session6_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
