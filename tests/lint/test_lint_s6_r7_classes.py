"""Classes found on the seventh corpus's dev half (issue 12, session 6), each with its must-not twin."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

_LATENCY_FUNCTION = """
import time
import torch
model = Net().cuda().eval()
def inf():
    x = torch.empty(1, 3, 224, 224, device="cuda")
    start_t = time.time()
    with torch.no_grad():
        output = model(x).sum().to("cpu")
    end_t = time.time()
    return end_t - start_t
inf()
elapsed = []
for i in range(10):
    elapsed.append(inf())
"""

CASES = [
    ("GA104", "inputs drawn on the CPU, then moved together in one tuple assignment", """
import torch
model = Net().cuda()
with torch.no_grad():
    for i in range(1000):
        rgb = torch.randn(1, 3, 512, 512)
        lr = torch.randn(1, 31, 16, 16)
        rgb, lr = rgb.cuda(), lr.cuda()
        out = model(lr, rgb)
""", [5, 6]),
    ("GA104", "not: a number from a config, or a shape tuple, handed to torch.tensor", """
import torch
device = torch.device("cuda")
alpha = torch.tensor(config.get("alpha", 0.2)).to(device)
size = torch.tensor(env.action_space.shape).to(device)
""", []),
    ("GA102", "a while loop that keeps its times only once its counter is past 0 drops the cold run", """
import time
import torch
model = Net().cuda().eval()
times = []
i = 0
x = torch.empty(1, 3, 64, 64, device="cuda")
with torch.no_grad():
    while i < 100:
        start = time.time()
        out = model(x)
        torch.cuda.synchronize()
        if i != 0:
            times.append(time.time() - start)
        i += 1
""", []),
    ("GA103", "a random tensor drawn on the GPU and copied back on every iteration (a fill is a kernel)", """
import torch
rows = []
for i in range(127):
    inp = torch.randint(low=4, high=227, size=(512,), device="cuda")
    rows.append(inp.cpu())
""", [5]),
    ("GA110", "the same loop is a loop of tiny kernels; a large draw is not", """
import torch
rows = []
for i in range(127):
    inp = torch.randint(low=4, high=227, size=(512,), device="cuda")
    rows.append(inp.cpu())
for i in range(127):
    big = torch.randint(0, 10, (4096, 4096), device="cuda")
""", [4]),
    ("GA107", "a whole model unpickled with torch.load(...).cuda() and called in a timing loop", """
import time
import torch
model = torch.load("ckpt.pth").cuda()
x = torch.ones(8, 3, 224, 224, device="cuda")
while True:
    t1 = time.time()
    _ = model(x)
    torch.cuda.synchronize()
    print(1 / (time.time() - t1))
""", [7]),
    ("GA107", "not: a tensor loaded the same way and indexed, never called", """
import torch
weights = torch.load("w.pt").cuda()
for i in range(10):
    row = weights[i] * 2
""", []),
    ("GA101", "a clock pair subtracted the wrong way round (start - end), a model moved and switched in one chain", """
import time
import torch
model = build_model(num_classes=3)
model.to(torch.device("cuda")).eval()
for image in frames:
    start_time = time.time()
    with torch.no_grad():
        outputs = model(image.to("cuda"))
    end_time = time.time()
    print(start_time - end_time)
""", [9]),
    ("GA104", "weights made on the CPU and cast to a CUDA type picked by a flag (dtype = torch.cuda.FloatTensor)", """
import torch
use_gpu = torch.cuda.is_available()
if use_gpu:
    dtype = torch.cuda.FloatTensor
else:
    dtype = torch.FloatTensor
W = (torch.randn(64, 10) * 0.01).type(dtype)
b = torch.zeros(10).type(dtype)
""", [7, 8]),
    ("GA103", "not: a plain index returned beside CUDA tensors and compared in the training loop's helper", """
import numpy as np
import torch
def feed(X, idx, bs):
    end = idx + bs
    if end > len(X):
        end = bs
    x = torch.from_numpy(np.asarray(X[idx:end], dtype=np.float32)).cuda()
    return x, end
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
index = 0
for t in range(1000):
    x, index = feed(data, index, 100)
    loss = model(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", []),
    ("GA101", "a dataset's __getitem__ timing only its copies to the GPU (a pageable copy returns when done)", """
import time
import numpy as np
import torch
from torch.autograd import Variable
class Samples(torch.utils.data.Dataset):
    def __getitem__(self, idx):
        start = time.time()
        image = Variable(torch.from_numpy(np.load(self.files[idx])).cuda())
        end = time.time()
        print(end - start)
        return image
""", []),
    ("GA109", "set_default_tensor_type with the type's name as a string, in a module that moves data to CUDA", """
import torch
torch.set_default_tensor_type('torch.DoubleTensor')
x = torch.ones(3).cuda()
""", [2]),
    ("GA102", "a copy back into a host buffer (h.copy_(d)) after CUDA was set up is no first computation", """
import time
import torch
d = torch.rand(1 << 20).to("cuda")
h = torch.empty(1 << 20, pin_memory=True)
torch.cuda.synchronize()
start = time.perf_counter()
h.copy_(d, non_blocking=True)
torch.cuda.synchronize()
print(time.perf_counter() - start)
""", []),
    ("GA102", "a custom CUDA extension's op (ext.matmul(a, b)) is the first computation in its timed region", """
import torch
from torch.utils.cpp_extension import load_inline
ext = load_inline(name="mm", cpp_sources=cpp, cuda_sources=cu, functions=["matmul"])
a = torch.randn(1000, 2000).to("cuda")
b = torch.randn(2000, 3000).to("cuda")
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
start.record()
for i in range(10):
    c = ext.matmul(a, b)
end.record()
torch.cuda.synchronize()
print(start.elapsed_time(end))
""", [9]),
    ("GA103", "not: a walk over a CUDA tensor's rows that writes them out every N steps", """
import torch
space = torch.ones(100, 3, 2, device="cuda")
for i in range(10000):
    space = space * 0.99
    if i % 100 == 0:
        for body in space:
            print(" ".join(str(x.item()) for x in body[:, 0]))
""", []),
    ("GA105", "the same label array reshaped and copied to the GPU every epoch", """
import torch
model = Net().cuda()
for epoch in range(100):
    inputs = torch.from_numpy(X_train).cuda().float()
    labels = torch.from_numpy(y_train.reshape(-1, 1)).cuda().float()
    loss = ((model(inputs) - labels) ** 2).mean()
""", [4, 5]),
    ("GA106", "a PyTorch Geometric DataLoader feeding a CUDA model", """
import torch
import torch_geometric
model = Net().cuda()
loader = torch_geometric.data.DataLoader(dataset=graphs, batch_size=2)
for batch in loader:
    out = model(batch.to("cuda"))
""", [4]),
    ("GA108", "anomaly detection in an entry point whose work is an imported optimizer (a noise helper is no training)", """
import torch
from optimizers import DMD
def noise(n):
    return torch.normal(0, 0.5, size=(2, n))
def main():
    torch.autograd.set_detect_anomaly(True)
    DMD(noise).run()
""", [6]),
    ("GA102", "a latency function called once on its own before the loop that keeps its times: a warm-up", _LATENCY_FUNCTION, []),
    ("GA103", "the read that waits for the GPU just before the closing clock is the latency test's sync", _LATENCY_FUNCTION, []),
    ("GA103", "but a per-batch read inside a loop an epoch clock surrounds is still a stall", """
import time
import torch
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
start = time.time()
for x, y in batches:
    loss = model(x.cuda()).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    kept = loss.detach().to("cpu")
print(time.time() - start)
""", [11]),
    ("GA109", "a float64 NumPy array scaled and split by scikit-learn, moved to the GPU before .float()", """
import numpy as np
import torch
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
X = np.zeros([100, 2])
X = StandardScaler().fit(X).transform(X)
X_train, X_test = train_test_split(X, test_size=0.25)
X_train_t = torch.from_numpy(X_train).cuda().float()
X_ok = torch.from_numpy(X_test).float().cuda()
""", [8]),
    ("GA103", "a model made as net_class(args).apply(weights_init).to(device) and handed to the test loop", """
import torch
def test(loader, model_net, device):
    model_net.eval()
    with torch.no_grad():
        for frames in loader:
            pred = model_net(frames.to(device))
            kept = pred.detach().cpu().numpy()
def main(args):
    device = torch.device("cuda:0")
    model_net = args.net_object(args).apply(weights_init).to(device)
    test(loader, model_net, device)
""", [7]),
    ("GA105", "a copy benchmark (the copy between a timer's start and stop is the measurement); a copy in a step is not", """
import torch
from timer import timers
a = torch.zeros(512, 512, device="cpu")
for i in range(1, 32):
    timers(f"bs-{i}").start()
    b = a.to("cuda")
    timers(f"bs-{i}").stop()
w = torch.ones(512, 512)
for i in range(100):
    y = w.to("cuda") @ b
""", [10]),
    ("GA103", "a comprehension reading each CUDA prediction of a list with .item(); one read of the stack is fine", """
import torch
model = Net().cuda().eval()
preds = []
with torch.no_grad():
    for x in batches:
        preds += model(x.cuda()).argmax(1)
labels = [p.item() for p in preds]
labels = torch.stack(preds).tolist()
""", [7]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_r7_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
