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
    ("GA101", "calls through aliases", """
mm = torch.mm
a = torch.randn(512, 512, device="cuda")
for _ in range(3):
    mm(a, a)
torch.cuda.synchronize()
t0 = time.perf_counter()
c = mm(a, a)
print(time.perf_counter() - t0)
net = nn.Linear(8, 8).cuda()
f = net
start = time.time()
y = f(torch.ones(2, 8, device="cuda"))
print(time.time() - start)
""", [8, 13]),
    ("GA101", "an attribute alias of a torch function", """
class Bench:
    def __init__(self):
        self.op = torch.mm
        self.a = torch.randn(256, 256, device="cuda")
    def run(self):
        self.op(self.a, self.a)
        torch.cuda.synchronize()
        t0 = time.time()
        self.op(self.a, self.a)
        return time.time() - t0
Bench().run()
""", [10]),
    ("GA101", "the pre-2.1 default tensor type and legacy CUDA constructors", """
torch.set_default_tensor_type("torch.cuda.FloatTensor")
a = torch.randn(512, 512)
t0 = time.time()
b = a @ a
print(time.time() - t0)
c = torch.cuda.FloatTensor(512, 512)
t1 = time.time()
d = c * 2
print(time.time() - t1)
""", [5, 9]),
    # ---- GA102 timing the first call --------------------------------------------------------------
    ("GA102", "first matmul timed, after copies only (a copy is not a computation)", """
x = torch.load("x.pt").cuda()
t0 = time.perf_counter()
y = x @ x
torch.cuda.synchronize()
print(time.perf_counter() - t0)
t1 = time.time()
model = nn.Linear(8, 8)
model.to("cuda")
out = model(torch.load("b.pt").cuda())
print(time.time() - t1)
""", [3]),
    ("GA102", "the timed region creates the context with a model move", """
t1 = time.time()
model = nn.Linear(8, 8)
model.to("cuda")
out = model(torch.load("b.pt").cuda())
print(time.time() - t1)
""", [3]),
    ("GA102", "a CUDA-event timed region holding the first computation", """
def work():
    x = torch.rand(50, device="cuda")
    return x * 2
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
start.record()
for _ in range(100):
    work()
end.record()
torch.cuda.synchronize()
print(start.elapsed_time(end))
""", [7]),
    ("GA102", "a computation ran before", """
x = torch.randn(4096, 4096, device="cuda")
x = x * 2
t0 = time.perf_counter()
y = x @ x
torch.cuda.synchronize()
print(time.perf_counter() - t0)
""", []),
    ("GA102", "only a filling factory ran before (session 16: cuBLAS is still cold; until then this expected nothing)",
     """
x = torch.randn(4096, 4096, device="cuda")
t0 = time.perf_counter()
y = x @ x
torch.cuda.synchronize()
print(time.perf_counter() - t0)
""", [3]),
    ("GA102", "first call inside main()", """
def main():
    w = torch.load("w.pt").cuda()
    start = time.time()
    out = torch.tanh(w)
    torch.cuda.synchronize()
    print(time.time() - start)
if __name__ == "__main__":
    main()
""", [4]),
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
    ("GA102", "a long timed loop once CUDA is initialised", """
b = torch.ones(4, device="cuda")
torch.cuda.synchronize()
t0 = time.time()
for _ in range(100000):
    b += b
torch.cuda.synchronize()
print(time.time() - t0)
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
""", [5]),
    ("GA103", "a read in a method or helper that only one loop calls points at the read (a call outside any loop, a "
     "final summary, is no place that reads per step: session 21, the session-12 convention as written)", """
class Recorder:
    def write(self, out):
        rows = out.argmax(1).cpu().numpy()
        return rows
def summary(t):
    return t.sum().item()
model = nn.Linear(8, 2).cuda()
rec = Recorder()
for xb in loader:
    out = model(xb.cuda())
    rec.write(out)
    summary(out)
print(summary(model(torch.randn(2, 8, device="cuda"))))
""", [3, 6]),
    ("GA103", "a model known only by use (.parameters() handed to an optimizer), fed CUDA tensors", """
from mylib import build
net = build()
other = build()
opt = torch.optim.Adam(net.parameters())
for xb in loader:
    out, aux = net(xb.cuda())
    print(aux.mean().item())
    print(other(xb.cuda()).item())
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
    ("GA103", "plain training loop: print, math.isfinite, np.isfinite, +=", """
import math
model = nn.Linear(8, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(64, 8, device="cuda")
running = 0.0
for t in range(1000):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(t, loss.item())
    if not math.isfinite(loss):
        break
    if not np.isfinite(loss.detach().cpu().numpy()):
        break
    running += loss.item()
""", [11, 12, 14, 16]),
    ("GA103", "a step function made by a factory, an optimizer closure", """
model = nn.Linear(8, 1).cuda()
opt = torch.optim.LBFGS(model.parameters())
def make_step(model, opt):
    def step(x):
        loss = model(x).sum()
        loss.backward()
        opt.step()
        return loss.item()
    return step
train = make_step(model, opt)
x = torch.randn(64, 8, device="cuda")
for i in range(100):
    value = train(x)
for i in range(100):
    def closure():
        opt.zero_grad()
        loss = model(x).sum()
        loss.backward()
        return loss.item()
    opt.step(closure)
""", [8, 19]),
    ("GA103", "a multi-line statement points where the offending call (or comparison) starts", """
model = nn.Linear(8, 1).cuda()
x = torch.randn(64, 8, device="cuda")
for i in range(100):
    loss = model(x).sum()
    loss.backward()
    value = (loss
             .item())
    if (i > 3 and
            loss > 2):
        pass
""", [6, 9]),
    ("GA103", "loggers handed CUDA tensors", """
import wandb
from torch.utils.tensorboard import SummaryWriter
writer = SummaryWriter()
model = nn.Linear(8, 1).cuda()
x = torch.randn(64, 8, device="cuda")
for step in range(100):
    loss = model(x).sum()
    loss.backward()
    writer.add_scalar("loss", loss, step)
    wandb.log({"loss": loss})
    writer.add_scalar("lr", 0.1, step)
""", [9, 10]),
    ("GA103", "one element read back per iteration of a loop over a CUDA tensor", """
def first_sum(cuda_tensor):
    total = 0.0
    for i in range(cuda_tensor.size()[0]):
        total += cuda_tensor[i].cpu()
    return total
def last_sum(t_gpu):
    for v in t_gpu.cpu():
        print(v)
""", [4]),
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
""", []),
    ("GA103", "a switch set before the loop (args.verbose) holds on every iteration, like a plain flag: when on, "
     "every step reads (session 8's settled convention)", """
model = nn.Linear(8, 1).cuda()
for step, xb in enumerate(loader):
    loss = model(xb.cuda()).sum()
    loss.backward()
    if args.verbose:
        print(f"{loss}")
    if self.test_mode and step % 10 == 0:
        print(loss.item())
""", [6]),
    ("GA103", "a flag set before the loop holds on every iteration", """
model = nn.Linear(8, 1).cuda()
is_main = int(os.environ.get("RANK", 0)) == 0
for step in range(100):
    loss = model(torch.randn(4, 8, device="cuda")).sum()
    loss.backward()
    if is_main:
        print(step, loss.item())
    log_now = step % 50 == 0
    if log_now:
        print(float(loss))
""", [7]),
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
    ("GA104", "made, then moved into the same name: reported where it is made", """
device = "cuda"
noise = torch.randn(16, 100)
noise = noise.to(device)
""", [2]),
    ("GA104", "legacy sizes, .type(torch.cuda.FloatTensor); not Python data (it starts on the host anyway)", """
def loss_with(weights):
    return nn.CrossEntropyLoss(weight=torch.tensor(weights).cuda())
a = torch.Tensor((4, 4)).cuda()
b = torch.FloatTensor(64, 8).cuda()
c = torch.randn(64, 8).type(torch.cuda.FloatTensor)
w = torch.FloatTensor([[0, 0], [0, 1]]).to("cuda")
z = torch.tensor(np.zeros(8)).cuda()
""", [4, 5, 7]),
    ("GA104", "existing data: numpy arrays, observations, replay batches", """
def act(state, batch):
    s = torch.FloatTensor(state).cuda()
    b = torch.FloatTensor(batch).to("cuda")
    return s, b
grid = np.linspace(0, 1, 100)
g = torch.tensor(grid).cuda()
""", []),
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
    ("GA104", "a parameter named device is the accelerator by convention", """
def f(device):
    return torch.randn(3).to(device)
""", [2]),
    # ---- GA105 repeated copies in loops -----------------------------------------------------------
    ("GA105", "loop-invariant tensor copied per iteration", """
device = "cuda"
model = nn.Linear(8, 8).to(device)
weights = torch.from_numpy(np.load("w.npy"))
for xb in loader:
    out = model(xb.to(device)) * weights.to(device)
""", [5]),
    ("GA105", "the same numpy data wrapped and copied every epoch", """
x_train = np.ones((100, 1), dtype=np.float32)
for epoch in range(100):
    inputs = torch.from_numpy(x_train).cuda()
    for batch in np.split(x_train, 10):
        b = torch.from_numpy(batch).cuda()
""", [3]),
    ("GA105", "pre-0.4 Variables of the same data, every epoch", """
from torch.autograd import Variable
x_train = np.ones((100, 1), dtype=np.float32)
for epoch in range(100):
    inputs = Variable(torch.from_numpy(x_train).cuda())
    labels = Variable(torch.from_numpy(x_train)).cuda()
""", [4, 5]),
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
    ("GA106", "configured loaders, hidden options; GPU-resident data is its own finding (session 10)", """
device = torch.device("cuda")
a = DataLoader(ds, batch_size=64, num_workers=4, pin_memory=True)
b = DataLoader(ds, **loader_kwargs)
xs = torch.randn(1000, 8, device=device)
c = DataLoader(TensorDataset(xs, xs), batch_size=64)
""", [5]),
    ("GA106", "no CUDA in the file", """
loader = DataLoader(ds, batch_size=64)
""", []),
    # ---- GA107 inference without no_grad ----------------------------------------------------------
    ("GA107", "a class from a star import is made, not run: Net() then a guarded .cuda() and eval()", """
from mnist_lib import *
def main():
    model = Net()
    if args.cuda:
        model.cuda()
    model.eval()
    for data, target in test_loader:
        if args.cuda:
            data = data.cuda()
        output = model(Variable(data, volatile=True))
        keep.append(output.argmax(1).cpu())
    with torch.no_grad():
        for data, target in test_loader:
            keep.append(model(data.cuda()).argmax(1))
""", [10]),
    ("GA107", "a model's own method handed no tensor (a checkpoint) is not a forward; one handed CUDA data is", """
model = MyNet().cuda()
model.eval()
model.save_state({"model": model.state_dict()}, "ckpt.pt")
state = torch.randn(4, 8, device="cuda")
print(model.act(state))
""", [5]),
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
    ("GA107", "a prediction or feature loop without eval()", """
model = nn.Linear(8, 2).cuda()
preds, feats = [], []
for xb in batches:
    preds.append(model(xb.cuda()).argmax(1))
def extract(batches):
    for xb in batches:
        out = model(xb.cuda())
        feats.append(out.detach())
""", [4, 7]),
    ("GA107", "an evaluation loop without eval(): the outputs are scored and accumulated", """
import torch.nn.functional as F
model = nn.Linear(8, 2).cuda()
def test(loader):
    correct, total_loss = 0, 0.0
    for data, target in loader:
        output = model(data.cuda())
        total_loss += F.cross_entropy(output, target.cuda())
        correct += output.argmax(1).eq(target.cuda()).sum()
    return total_loss, correct
""", [6]),
    ("GA107", "a warm-up loop and a timed loop, model.forward, a policy's method", """
model = nn.Sequential(nn.Linear(8, 8)).cuda().eval()
x = torch.randn(4, 8, device="cuda")
for _ in range(10):
    model(x)
for _ in range(100):
    out = model.forward(x)
class Policy(nn.Module):
    def act(self, s):
        return s * 2
policy = Policy().cuda()
while True:
    a = policy.act(torch.randn(1, 8, device="cuda"))
""", [4, 6, 12]),
    ("GA107", "a parameter-free layer benchmarked, one top-level forward timed with the model's loading", """
pool = nn.MaxPool2d(2).cuda()
x = torch.randn(8, 3, 32, 32, device="cuda")
for _ in range(100):
    y = pool(x)
start = time.time()
net = nn.Sequential(nn.Linear(8, 2)).cuda()
net.eval()
out = net(torch.randn(1, 8, device="cuda"))
print(time.time() - start)
""", []),
    ("GA107", "a training loop that keeps detached outputs, a frozen backbone", """
model = nn.Linear(8, 2).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
outs = []
for xb in batches:
    out = model(xb.cuda())
    outs.append(out.detach())
    out.sum().backward()
    opt.step()
def features(backbone, batches):
    backbone.requires_grad_(False)
    return [backbone(xb.cuda()).cpu() for xb in batches]
""", []),
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
model = nn.Linear(8, 8).cuda()
""", [1, 2, 3, 4, 6, 7]),
    ("GA108", "a snippet's profile(...) quoted without its imports, around a loop", """
model = nn.Linear(8, 1).cuda()
x = torch.randn(4, 8).cuda()
with profile(activities=[ProfilerActivity.CUDA], record_shapes=True) as prof:
    for _ in range(10):
        model(x).sum().backward()
""", [3]),
    ("GA108", "the file's own profile() (or one without profiler keywords) is not torch's profiler", """
import contextlib
def profile(name, **kw):
    return contextlib.nullcontext()
model = nn.Linear(8, 1).cuda()
x = torch.randn(4, 8).cuda()
with profile("train", record_shapes=True):
    for _ in range(10):
        model(x).sum().backward()
""", []),
    ("GA108", "profiler over a loop", """
with torch.profiler.profile() as prof:
    for step in range(100):
        train_step()
model = nn.Linear(8, 8).cuda()
""", [1]),
    ("GA108", "a CPU-only program training here: only the CUDA switch matters", """
os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
torch.autograd.set_detect_anomaly(True)
with torch.autograd.profiler.profile() as prof:
    for _ in range(100):
        nn.Linear(8, 8)(torch.randn(2, 8)).sum().backward()
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
    # ---- GA110 launch-bound loop of tiny ops --------------------------------------------------------
    ("GA110", "elementwise ops on tiny CUDA tensors in a long loop", """
b = torch.ones(4, device="cuda")
for _ in range(100000):
    b += b
x = torch.zeros(3, device="cuda")
N = 50_000
for i in range(N):
    x = x * 0.9 + 0.1
""", [3, 7]),
    ("GA110", "in-place adds into a one-element total, a where-loop called from a loop", """
def second_sum(cuda_tensor):
    total = torch.zeros(1, device="cuda")
    for i in range(cuda_tensor.size()[0]):
        total += cuda_tensor[i]
    return total
def loop_test():
    x = torch.rand(50, device="cuda")
    eps = torch.finfo(x.dtype).eps
    for _ in range(100):
        x_new = torch.rand(50, device="cuda")
        alpha = x / (x_new + eps)
        mask = alpha > torch.rand(1, device="cuda")
        x = torch.where(mask, x_new, x)
    return x
""", [4, 11]),
    ("GA110", "captured in a CUDA graph or compiled: launched as one", """
x = torch.zeros(1, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    for _ in range(1000):
        x.add_(1)
@torch.compile
def f(y):
    for _ in range(1000):
        y = y * 2
    return y
f(torch.ones(4, device="cuda"))
""", []),
    ("GA110", "matrix ops are not elementwise; sizes are per function", """
ct = torch.rand(3, 3).cuda()
for i in range(100):
    ct.inverse()
def a():
    total = 0.0
    for i in range(1000):
        total += torch.ones(1000000, device="cuda")
def b():
    total = torch.zeros(1, device="cuda")
    for i in range(10):
        total += 1
""", []),
    ("GA110", "large tensors, a model, few iterations, the CPU", """
big = torch.zeros(10_000_000, device="cuda")
for _ in range(100000):
    big += 1
model = nn.Linear(4, 4).cuda()
b = torch.ones(4, device="cuda")
for _ in range(100000):
    b = model(b) + 1
for _ in range(10):
    b += b
c = torch.ones(4)
for _ in range(100000):
    c += c
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
    from advisor.lint import all_infos
    assert set(by_id) == {info.id for info in all_infos()} - {"GA000"}
    for check_id, examples in by_id.items():
        assert any(examples) and any(not e for e in examples), check_id
