"""Every check on code that must match (at exact lines) and code that must not (clean, idiomatic code)."""

from __future__ import annotations

import pytest
from lint_helpers import lines_of

HEAD = "import os\nimport time\nimport timeit\nimport numpy as np\nimport torch\nfrom torch import nn\n" \
       "from torch.utils.data import DataLoader, TensorDataset\n"
H = HEAD.count("\n")  # snippets below start on line H + 1

CASES = [
    # ---- GA101 timing without synchronization -----------------------------------------------------
    ("GA101", "unsynced perf_counter", """
a = torch.randn(1024, 1024, device="cuda")
t0 = time.perf_counter()
b = a @ a
print(time.perf_counter() - t0)
""", [4]),
    ("GA101", "end - start pair", """
model = nn.Linear(8, 8).cuda()
x = torch.randn(4, 8, device="cuda")
start = time.time()
y = model(x)
end = time.time()
print(end - start)
""", [5]),
    ("GA101", "datetime.now", """
from datetime import datetime
x = torch.ones(10, device="cuda")
begin = datetime.now()
y = torch.relu(x)
print((datetime.now() - begin).total_seconds())
""", [5]),
    ("GA101", "helper with a function handed in", """
def bench(fn, x):
    start = time.time()
    fn(x)
    return time.time() - start
bench(torch.relu, torch.ones(3, device="cuda"))
""", [4]),
    ("GA101", "timeit lambda", """
x = torch.ones(10, device="cuda")
print(timeit.timeit(lambda: x * 2, number=100))
""", [2]),
    ("GA101", "timeit string naming CUDA values", """
a = torch.randn(64, 64, device="cuda")
print(timeit.timeit("a @ a", globals=globals(), number=100))
""", [2]),
    ("GA101", "device from a try_gpu() helper", """
def try_gpu(i=0):
    if torch.cuda.device_count() > i:
        return torch.device(f"cuda:{i}")
    return torch.device("cpu")
x = torch.randn(256, 256, device=try_gpu())
t = time.perf_counter()
y = x @ x
dt = time.perf_counter() - t
""", [8]),
    ("GA101", "synchronized timing is quiet", """
a = torch.randn(1024, 1024, device="cuda")
t0 = time.perf_counter()
b = a @ a
torch.cuda.synchronize()
print(time.perf_counter() - t0)
""", []),
    ("GA101", ".item() before the closing read waits too", """
model = nn.Linear(8, 1).cuda()
t0 = time.time()
loss = model(torch.randn(4, 8, device="cuda")).sum()
print(loss.item())
elapsed = time.time() - t0
""", []),
    ("GA101", "a list of results read back with .cpu() waits too", """
model = nn.Linear(8, 2).cuda()
x = torch.randn(4, 8, device="cuda")
model(x)
t0 = time.time()
outs = []
for _ in range(10):
    outs.append(model(x))
result = torch.stack(outs).cpu()
print(time.time() - t0)
""", []),
    ("GA101", "CUDA events", """
x = torch.randn(512, 512, device="cuda")
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
start.record()
y = x @ x
end.record()
end.synchronize()
print(start.elapsed_time(end))
""", []),
    ("GA101", "CPU work only", """
a = torch.randn(256, 256)
t0 = time.perf_counter()
b = a @ a
print(time.perf_counter() - t0)
""", []),
    ("GA101", "a clock difference that only throttles logging", """
x = torch.ones(10, device="cuda")
last = time.time()
for i in range(100):
    x = x * 2
    if time.time() - last > 30:
        last = time.time()
""", []),
    ("GA101", "progress timing around a training loop", """
model = nn.Linear(8, 1).cuda()
loader = DataLoader(ds, batch_size=8, num_workers=2, pin_memory=True)
start = time.time()
for i, xb in enumerate(loader):
    loss = model(xb.cuda()).sum()
    loss.backward()
    if i % 100 == 0:
        print(f"step {i}: {time.time() - start:.1f}s")
""", []),
    ("GA101", "synchronizing helper", """
def step(x):
    y = x @ x
    torch.cuda.synchronize()
    return y
x = torch.ones(8, 8, device="cuda")
t0 = time.perf_counter()
step(x)
print(time.perf_counter() - t0)
""", []),
    # ---- GA102 timing the first call --------------------------------------------------------------
    ("GA102", "first matmul timed", """
x = torch.randn(4096, 4096, device="cuda")
t0 = time.perf_counter()
y = x @ x
torch.cuda.synchronize()
print(time.perf_counter() - t0)
""", [2]),
    ("GA102", "first call inside main()", """
def main():
    w = torch.randn(64, 64, device="cuda")
    start = time.time()
    out = torch.tanh(w)
    torch.cuda.synchronize()
    print(time.time() - start)
if __name__ == "__main__":
    main()
""", [3]),
    ("GA102", "warmed up", """
x = torch.randn(4096, 4096, device="cuda")
for _ in range(3):
    x @ x
torch.cuda.synchronize()
t0 = time.perf_counter()
y = x @ x
torch.cuda.synchronize()
print(time.perf_counter() - t0)
""", []),
    ("GA102", "timeit repeats by design", """
x = torch.randn(64, 64, device="cuda")
print(timeit.timeit(lambda: (x @ x, torch.cuda.synchronize()), number=10))
""", []),
    ("GA102", "timing a training run", """
model = nn.Linear(8, 1).cuda()
loader = DataLoader(ds, batch_size=8, num_workers=2, pin_memory=True)
start = time.time()
for xb, yb in loader:
    loss = model(xb.cuda()).sum()
    loss.backward()
print(loss.item(), time.time() - start)
""", []),
    # ---- GA103 host sync in a loop ----------------------------------------------------------------
    ("GA103", ".item() per batch", """
model = nn.Linear(8, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total = 0.0
for xb, yb in loader:
    loss = (model(xb.cuda()) - yb.cuda()).pow(2).mean()
    loss.backward()
    opt.step()
    total += loss.item()
""", [8]),
    ("GA103", "print / float / condition / f-string of a CUDA tensor", """
x = torch.ones(100, device="cuda")
best = 1e9
for step in range(1000):
    loss = (x * step).sum()
    print(loss)
    value = float(loss)
    if loss < best:
        best = value
    msg = f"{loss:.3f}"
""", [5, 6, 7, 9]),
    ("GA103", ".cpu() and .tolist() per step", """
net = nn.Linear(4, 2).to("cuda")
preds = []
for i in range(10):
    out = net(torch.randn(3, 4, device="cuda"))
    preds.append(out.argmax(1).cpu())
    labels = out.argmax(1).tolist()
""", [5, 6]),
    ("GA103", "a helper that returns loss.item()", """
model = nn.Linear(8, 1).cuda()
def train_step(xb):
    loss = model(xb).sum()
    loss.backward()
    return loss.item()
for i in range(100):
    train_step(torch.randn(4, 8, device="cuda"))
""", [7]),
    ("GA103", "%-formatting and str.format of CUDA tensors", """
x = torch.ones(3).cuda()
for i in range(10):
    y = x * i
    print("loss %.4f" % y.sum())
    print("loss {:.4f}".format(y.mean()))
    print("step %d" % i)
""", [4, 5]),
    ("GA103", "a method of the user's own class, called with a CUDA tensor", """
class Meter:
    def __init__(self):
        self.total = 0.0
    def add(self, *values):
        self.total += sum(float(v) for v in values)
model = nn.Linear(8, 1).cuda()
meter = Meter()
for xb in loader:
    loss = model(xb.cuda()).sum()
    meter.add(loss)
    meter.add(1.0, 2.0)
""", [10]),
    ("GA103", "a list of CUDA tensors is not a host read", """
model = nn.Linear(8, 2).cuda()
outputs = []
for xb in loader:
    outputs.append(model(xb.cuda()))
    if outputs and len(outputs) > 10 and outputs != []:
        pass
preds = torch.cat(outputs).cpu()
""", []),
    ("GA103", "while loop condition on a CUDA tensor", """
err = torch.ones((), device="cuda")
while err > 1e-6:
    err = err * 0.5
""", [2]),
    ("GA103", "accumulate on the GPU, read once", """
model = nn.Linear(8, 1).cuda()
running = torch.zeros((), device="cuda")
for xb in loader:
    loss = model(xb.cuda()).sum()
    running += loss.detach()
print(running.item())
""", []),
    ("GA103", "logging every N steps", """
model = nn.Linear(8, 1).cuda()
for step, xb in enumerate(loader):
    loss = model(xb.cuda()).sum()
    loss.backward()
    if step % 100 == 0:
        print(loss.item())
    if args.verbose:
        print(f"{loss}")
""", []),
    ("GA103", "once per epoch", """
model = nn.Linear(8, 1).cuda()
for epoch in range(10):
    for xb in loader:
        loss = model(xb.cuda()).sum()
        loss.backward()
    print(epoch, loss.item())
""", []),
    ("GA103", "CPU tensors and parameter sweeps", """
w = torch.zeros(3)
for i in range(100):
    w = w + 1
    print(w.sum().item())
for n in [256, 1024, 4096]:
    a = torch.randn(n, n, device="cuda")
    print(n, (a @ a).sum().item())
""", []),
    # ---- GA104 CPU-created tensors copied to the GPU ----------------------------------------------
    ("GA104", "factory then .cuda() / .to(device)", """
device = torch.device("cuda")
a = torch.randn(64, 128).cuda()
b = torch.zeros(10, dtype=torch.long).to(device)
c = torch.arange(10).float().to("cuda:0")
""", [2, 3, 4]),
    ("GA104", "legacy constructors", """
buf = torch.FloatTensor(64, 3).cuda()
""", [1]),
    ("GA104", "made, then moved into the same name", """
device = "cuda"
noise = torch.randn(16, 100)
noise = noise.to(device)
""", [3]),
    ("GA104", "created on the device", """
device = "cuda"
a = torch.randn(64, 128, device=device)
b = torch.zeros_like(a)
""", []),
    ("GA104", "existing data: numpy, loader batches, pinned", """
device = "cuda"
x = torch.from_numpy(np.load("x.npy")).to(device)
for xb, yb in loader:
    xb = xb.to(device, non_blocking=True)
h = torch.empty(1024).pin_memory().to(device, non_blocking=True)
""", []),
    ("GA104", "the CPU tensor is used as well", """
a = torch.randn(512, 512)
reference = a @ a
a_gpu = a.cuda()
""", []),
    ("GA104", "device unknown", """
def f(device):
    return torch.randn(3).to(device)
""", []),
    # ---- GA105 repeated copies in loops -----------------------------------------------------------
    ("GA105", "loop-invariant tensor copied per iteration", """
device = "cuda"
model = nn.Linear(8, 8).to(device)
weights = torch.from_numpy(np.load("w.npy"))
for xb in loader:
    out = model(xb.to(device)) * weights.to(device)
""", [5]),
    ("GA105", "model moved every epoch", """
model = nn.Linear(8, 8)
for epoch in range(10):
    model.to("cuda")
""", [3]),
    ("GA105", "forward copies an attribute every call", """
class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = torch.from_numpy(np.load("table.npy"))
    def forward(self, x):
        return x + self.table.to(x.device)
model = Embed().cuda()
""", [6]),
    ("GA105", "new data per iteration, or moved once", """
device = "cuda"
weights = torch.from_numpy(np.load("w.npy")).to(device)
for xb, yb in loader:
    xb, yb = xb.to(device), yb.to(device)
    out = xb * weights
state = torch.from_numpy(np.load("s.npy"))
for t in range(10):
    state = state.to(device) * 2
""", []),
    # ---- GA106 DataLoader ------------------------------------------------------------------------
    ("GA106", "defaults, and workers without pinning", """
model = nn.Linear(8, 8).cuda()
a = DataLoader(ds, batch_size=64, shuffle=True)
b = DataLoader(ds, batch_size=64, num_workers=0, pin_memory=True)
c = torch.utils.data.DataLoader(ds, 64, True, None, None, 4, None, False)
""", [2, 3, 4]),
    ("GA106", "configured loaders, hidden options, GPU-resident data, CPU programs", """
device = torch.device("cuda")
a = DataLoader(ds, batch_size=64, num_workers=4, pin_memory=True)
b = DataLoader(ds, **loader_kwargs)
xs = torch.randn(1000, 8, device=device)
c = DataLoader(TensorDataset(xs, xs), batch_size=64)
""", []),
    ("GA106", "no CUDA in the file", """
loader = DataLoader(ds, batch_size=64)
""", []),
    # ---- GA107 inference without no_grad ----------------------------------------------------------
    ("GA107", "eval() then a forward pass", """
model = nn.Linear(8, 2).cuda()
model.eval()
for xb in loader:
    preds = model(xb.cuda()).argmax(1)
""", [4]),
    ("GA107", "a model served from a class", """
class Server:
    def __init__(self):
        self.model = nn.Linear(8, 2).to("cuda").eval()
    def predict(self, x):
        return self.model(x)
""", [5]),
    ("GA107", "no_grad, inference_mode, decorators and grad-off callers", """
model = nn.Linear(8, 2).cuda().eval()
x = torch.randn(3, 8, device="cuda")
with torch.no_grad():
    a = model(x)
with torch.inference_mode():
    b = model(x)
@torch.no_grad()
def predict(x):
    return model(x)
def helper(x):
    return model(x)
with torch.no_grad():
    c = helper(x)
""", []),
    ("GA107", "gradients wanted, or a model in train mode", """
model = nn.Linear(8, 2).cuda()
model.eval()
x = torch.randn(3, 8, device="cuda", requires_grad=True)
loss = model(x).sum()
loss.backward()
model.train()
out = model(x)
""", []),
    # ---- GA108 debug switches --------------------------------------------------------------------
    ("GA108", "environment and autograd switches", """
os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
os.environ.setdefault("PYTORCH_NO_CUDA_MEMORY_CACHING", "1")
torch.autograd.set_detect_anomaly(True)
with torch.autograd.detect_anomaly():
    pass
torch.cuda.set_sync_debug_mode("warn")
torch.cuda.memory._record_memory_history()
""", [1, 2, 3, 4, 6, 7]),
    ("GA108", "profiler over a loop", """
with torch.profiler.profile() as prof:
    for step in range(100):
        train_step()
""", [1]),
    ("GA108", "switched off, tied to a flag, or scheduled", """
os.environ["CUDA_LAUNCH_BLOCKING"] = "0"
torch.autograd.set_detect_anomaly(False)
torch.autograd.set_detect_anomaly(args.debug)
sched = torch.profiler.schedule(wait=1, warmup=1, active=3)
with torch.profiler.profile(schedule=sched) as prof:
    for step in range(100):
        train_step()
        prof.step()
torch.cuda.memory._record_memory_history(max_entries=1000)
run()
torch.cuda.memory._record_memory_history(enabled=None)
""", []),
    # ---- GA109 float64 on the GPU -----------------------------------------------------------------
    ("GA109", "numpy float64 moved, double(), dtype=float64, default dtype", """
device = "cuda"
a = torch.from_numpy(np.random.rand(8, 8)).to(device)
b = torch.ones(8, device=device).double()
c = torch.zeros(8, dtype=torch.float64, device=device)
model = nn.Linear(8, 8).cuda().double()
torch.set_default_dtype(torch.float64)
""", [2, 3, 4, 5, 6]),
    ("GA109", "float32 on the GPU, float64 on the CPU", """
device = "cuda"
a = torch.from_numpy(np.random.rand(8, 8).astype(np.float32)).to(device)
b = torch.from_numpy(np.random.rand(8, 8)).float().to(device)
c = torch.ones(8, device=device).cpu().double()
d = torch.zeros(8, dtype=torch.float64)
e = torch.tensor(np.zeros(3, dtype=np.float32), device=device)
""", []),
]


@pytest.mark.parametrize("check_id,title,code,lines", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_check(check_id, title, code, lines):
    found = lines_of(HEAD + code.lstrip("\n"), select=[check_id])
    assert [line - H for line, _ in found] == lines, found


def test_every_check_has_matching_and_clean_examples():
    by_id: dict[str, list[list[int]]] = {}
    for check_id, _, _, lines in CASES:
        by_id.setdefault(check_id, []).append(lines)
    assert set(by_id) == {f"GA10{n}" for n in range(1, 10)}
    for check_id, examples in by_id.items():
        assert any(examples) and any(not e for e in examples), check_id
