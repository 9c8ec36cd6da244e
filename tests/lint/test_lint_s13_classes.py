"""Classes of session 13 (issue 12), each with its must-not twin: the result of a base class's abstract step
(`loss = self.train_step(batch)`, a subclass computes it) handed a CUDA batch is on the GPU; `device = y.device` of a function's argument can be CUDA; float64 made
by a factory nested in a moved call is reported at the factory's line; a Python logger handed a CUDA tensor reads it;
Variable(x).to(device) is data, not a model; Class.static_method(...) of the file's own class runs its code; torchvision's PIL converters read a CUDA image back; `device if torch.cuda.is_available() else "cpu"` can be CUDA; a helper copying
the same data the loop hands it on every call; `model = model.cuda()` keeps a tiny model tiny; `if loss != 0:` is no guard; `if 'x' not in locals():` runs once; timeit.timeit of
the first CUDA computation times it cold; window functions are factories;
get_ipython().run_line_magic(...) of an exported notebook is its magic; a parameter annotated nn.Module is a model;
a clock started under `if i > 9:` starts after a warm-up; a run's FPS logged every N
episodes is a progress meter; a helper's loop of forwards summed into a loss its caller steps back trains;
`True in mask` reads a CUDA tensor; a CPU factory only copied to several GPUs; env.step() is no forward;
a model's method handed no input is an accessor;
range(len(coeffs)) of a literal list has its length; pin_memory=True says a loader feeds a GPU;
a benchmark helper that runs its function once before the events has warmed it up."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA103", "a base class's fit reads the loss of its abstract train_step (a subclass computes it on the CUDA "
     "batch) every step; a step that returns a plain number is no read", """
import torch
class Algorithm:
    def train_step(self, batch):
        raise NotImplementedError
    def count_step(self, batch):
        return 1
    def fit(self, loader):
        self.model.to("cuda")
        for batch in loader:
            batch = batch.to("cuda")
            loss = self.train_step(batch)
            loss.backward()
            print(loss.item())
            n = self.count_step(batch)
            print(float(n))
""", [13]),
    ("GA104", "device = y.device of the data a function is handed can be CUDA: a factory made on the CPU and moved "
     "there is reported; the device of a tensor the function made itself on the CPU is not", """
import torch
def smooth(y, n):
    device = y.device
    grid = torch.linspace(0, 1, n).to(device)
    return y * grid
def local(n):
    base = torch.zeros(n)
    device = base.device
    return torch.arange(n).to(device)
""", [4]),
    ("GA109", "float64 made by a factory nested in a moved call on a later line is reported at the factory's line "
     "(the line that chose float64); a float32 one is not reported", """
import torch
def bounds(jones):
    device = jones.device
    upper = torch.nextafter(
        torch.tensor(1.0, dtype=torch.float64),
        torch.tensor(2.0, dtype=torch.float64),
    ).to(device)
    lower = torch.nextafter(
        torch.tensor(1.0, dtype=torch.float32),
        torch.tensor(0.0, dtype=torch.float32),
    ).to(device)
    return upper, lower
""", [5]),
    ("GA103", "a Python logger handed a CUDA tensor formats it on every step (str(t) copies it back); a logger "
     "handed a plain number reads nothing", """
import logging
import torch
logger = logging.getLogger(__name__)
model = torch.nn.Linear(8, 1).cuda()
for x in loader:
    loss = model(x.cuda()).sum()
    loss.backward()
    logger.info(loss)
    logger.info("step done %d", 3)
""", [8]),
    ("GA103", "Variable(images).to(device) wraps data, not a model: the model's predictions on it are CUDA tensors "
     "read per batch; Variable(net).to(device) stays a model", """
import numpy as np
import torch
from torch.autograd import Variable
def test(model, loader, device):
    preds = []
    with torch.no_grad():
        for images, labels in loader:
            images = Variable(images).to(device)
            out = model(images)
            preds.extend(out.argmax(1).cpu().numpy())
            preds.extend(labels.numpy())
""", [10]),
    ("GA103", "a static method of the file's own class called through the class (Trainer.accuracy(out, y)) runs its "
     "own code: it returns a Python number (no read in the f-string), and the step's float(loss) is the read", """
import torch
class Trainer:
    def __init__(self):
        self.model = torch.nn.Linear(8, 2).cuda()
    def fit(self, data, epochs):
        for epoch in range(epochs):
            loss, acc = self.step(data)
            print(f"{loss:.3f} {acc:.3f}")
    def step(self, data):
        out = self.model(data.cuda())
        loss = out.sum()
        loss.backward()
        return float(loss), Trainer.accuracy(out, data)
    @staticmethod
    def accuracy(out, y):
        return int((out.argmax(1) == y.cuda()).sum()) / len(y)
""", [13]),
    ("GA103", "torchvision's PIL converters copy a CUDA image back to the host on every image of the loop "
     "(ToPILImage()(t), TF.to_pil_image(t)); converting a CPU tensor reads nothing", """
import torch
import torchvision.transforms as transforms
import torchvision.transforms.functional as TF
model = load().cuda().eval()
with torch.no_grad():
    for path in paths:
        out = model(read(path).cuda())
        transforms.ToPILImage()(out.squeeze(0)).save(path + ".png")
        TF.to_pil_image(out[0]).save(path + ".jpg")
        TF.to_pil_image(read(path)).save(path + ".orig.jpg")
""", [8, 9]),
    ("GA106", "torch.device(device if torch.cuda.is_available() else 'cpu') with device a parameter is the GPU's "
     "device when there is one (the function called with **vars(args)): a DataLoader without workers feeds it; with "
     "USE_CUDA = False instead of the test, it is the CPU", """
import torch
from torch.utils.data import DataLoader
def embed(data, device=None):
    device = torch.device(device if torch.cuda.is_available() else "cpu")
    loader = DataLoader(data, batch_size=32)
    for images in loader:
        feats = images.to(device)
embed(**vars(args))
USE_CUDA = False
def embed_on_cpu(data, dev=None):
    device = torch.device(dev if USE_CUDA else "cpu")
    loader = DataLoader(data, batch_size=32)
    for images in loader:
        feats = images.to(device)
""", [5]),
    ("GA105", "a helper that copies its data parameter to the GPU, handed the same dataset by the epoch loop on "
     "every call (a full-batch graph re-sent each epoch); a helper handed a new batch each time copies new data", """
import torch
class Trainer:
    def __init__(self, dataset, model):
        self.dataset, self.model, self.device = dataset, model.cuda(), torch.device("cuda")
    def train(self, epochs):
        for epoch in range(epochs):
            self._step(self.dataset)
            self._step(self.dataset)
        self._step(self.dataset)
    def _step(self, data):
        data = data.to(self.device)
        self.model(data.x).sum().backward()
    def fit(self, loader):
        for batch in loader:
            self._batch(batch)
    def _batch(self, batch):
        batch = batch.to(self.device)
        self.model(batch.x).sum().backward()
""", [11]),
    ("GA110", "a tiny model and its loss moved in place on lines of their own (model = model.cuda(), criterion = "
     "criterion.cuda()) are the same tiny modules: 1,000 steps on 3 points are launch-bound", """
import torch
x_data = torch.Tensor([[1.0], [2.0], [3.0]]).cuda()
y_data = torch.Tensor([[0.0], [0.0], [1.0]]).cuda()
class LogisticRegression(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(1, 1)
    def forward(self, x):
        return torch.sigmoid(self.linear(x))
model = LogisticRegression()
model = model.cuda()
criterion = torch.nn.BCELoss(reduction="sum")
criterion = criterion.cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(1000):
    loss = criterion(model(x_data), y_data)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
""", [16]),
    ("GA103", "a read under `if not (loss_i == 0):` / `if loss_i != 0:` runs on almost every step (unlike one under "
     "`if loss < best:`, a new best now and then); the test itself is a read too", """
import torch
model = torch.nn.Linear(8, 2).cuda()
best = 1e9
for x in loader:
    losses = [model(x.cuda()).sum(), model(x.cuda()).mean()]
    sum(losses).backward()
    for loss_i in losses:
        if not (loss_i == 0):
            log.append(loss_i.item())
    if losses[0] < best:
        best = losses[0].item()
""", [8, 9, 10]),
    ("GA103", "`if 'pred' not in locals():` fills the accumulator on the first batch only; the else branch's "
     "concatenation reads every other batch", """
import numpy as np
import torch
model = torch.nn.Linear(8, 2).cuda()
with torch.no_grad():
    for x in loader:
        y = model(x.cuda())
        if 'pred' not in locals():
            pred = y.cpu().numpy()
        else:
            pred = np.concatenate((pred, y.cpu().numpy()), axis=0)
""", [10]),
    ("GA102", "timeit.timeit(lambda: torch.matmul(a, b), number=50) as the program's first CUDA computation reports "
     "one total with the cold first call in it; the later timeit, and a timeit.repeat, are left alone", """
import timeit
import torch
a = torch.ones(64, 64).cuda()
b = torch.ones(64, 64).cuda()
first = timeit.timeit(lambda: torch.matmul(a, b), number=50)
again = timeit.timeit(lambda: torch.matmul(b, a), number=50)
runs = timeit.repeat(lambda: torch.matmul(a, a), number=50, repeat=5)
""", [5]),
    ("GA104", "torch.hann_window(n).cuda() fills the window on the CPU only to copy it; made with device= it is "
     "filled on the GPU", """
import torch
class Front(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.window = torch.hann_window(n).cuda()
        self.other = torch.hamming_window(n, device="cuda")
""", [5]),
    ("GA101", "a notebook exported as .py writes %timeit as get_ipython().run_line_magic('timeit', 'a @ b'): read "
     "back as the magic, it times CUDA work without a synchronize (and the CPU tensors it used are no GA104)", """
import torch
a = torch.rand(100, 200)
b = torch.rand(200, 300)
get_ipython().run_line_magic('timeit', 'a @ b')
a, b = a.to("cuda"), b.to("cuda")
get_ipython().run_line_magic('timeit', 'a @ b')
""", [6]),
    ("GA107", "a parameter annotated nn.Module is a module whatever its name (attn.to(device) moves a model): its "
     "forward-only warm-up loop records graphs; an unannotated `attn` moved the same way is taken for data", """
import torch
from torch import nn
class Profiler:
    def __init__(self, attn: nn.Module, other):
        self.attn = attn.to("cuda")
        self.other = other.to("cuda")
        self.x = torch.ones(8, 16, device="cuda")
    def run(self, n):
        for _ in range(n):
            out = self.attn(self.x)
            more = self.other(self.x)
""", [10]),
    ("GA102", "a clock started only under `if i > 9:` in a loop of forwards runs after ten untimed iterations: a "
     "warm-up, nothing to report", """
import time
import torch
net = torch.nn.Linear(64, 64).cuda()
x = torch.ones(64, 64).cuda()
for i in range(60):
    if i > 9:
        since = time.time()
    net(x)
torch.cuda.synchronize()
print(time.time() - since)
""", []),
    ("GA102", "the same loop with the clock under `if i >= 0:` (every iteration) times the first, cold forward", """
import time
import torch
net = torch.nn.Linear(64, 64).cuda()
x = torch.ones(64, 64).cuda()
for i in range(60):
    if i >= 0:
        since = time.time()
    net(x)
torch.cuda.synchronize()
print(time.time() - since)
""", [8]),
    ("GA101", "a clock started before the episode loop and read only every log_interval episodes is the run's "
     "progress meter (its FPS so far), not a timing of GPU work; a clock read after one forward is", """
import time
import torch
net = torch.nn.Linear(64, 64).cuda()
x = torch.ones(64, 64).cuda()
start = time.time()
for episode in range(1000):
    net(x).sum().backward()
    if episode % 10 == 0:
        end = time.time()
        print("FPS", episode * 64 / (end - start))
t0 = time.time()
net(x)
print(time.time() - t0)
""", [13]),
    ("GA107", "a helper whose loop sums the forwards of a loss that its only caller steps back is part of the "
     "training step; a sampling helper whose outputs the caller only keeps records graphs for nothing", """
import torch
net = torch.nn.Linear(8, 1).cuda()
def forward_samples(x, n):
    total = 0.0
    for _ in range(n):
        total += net(x).sum()
    return total / n
def sample(x, n):
    outs = []
    for _ in range(n):
        outs.append(net(x))
    return outs
for x in loader:
    loss = forward_samples(x.cuda(), 4)
    loss.backward()
    previews = sample(x.cuda(), 4)
""", [11]),
    ("GA103", "`if True in mask:` of a CUDA bool tensor asks Tensor.__contains__, answered on the host every step; "
     "`if 'loss' in outputs:` asks a dict", """
import torch
model = torch.nn.Linear(8, 2).cuda()
for x, y in loader:
    y = y.cuda()
    mask = y != y.flip(0)
    if True in mask:
        y = y[mask]
    outputs = {"loss": model(x.cuda()).sum()}
    if "loss" in outputs:
        outputs["loss"].backward()
""", [6]),
    ("GA104", "a CPU randn copied to three GPUs, and used for nothing else, is still made only to be copied; one "
     "also used on the CPU is not", """
import torch
model0 = torch.nn.Linear(3, 3).to("cuda:0")
model1 = torch.nn.Linear(3, 3).to("cuda:1")
for i in range(8):
    inputs = torch.randn(16, 3)
    out0 = model0(inputs.to("cuda:0"))
    out1 = model1(inputs.to("cuda:1"))
    ref = torch.randn(16, 3)
    cpu_out = ref.sum()
    out2 = model0(ref.to("cuda:0"))
""", [5]),
    ("GA107", "env.step(env.action_spec.sample()) of an environment moved with env.to(device) steps a simulator, "
     "it runs no network; a policy's forward in the same loop records a graph for nothing", """
import torch
from envs import Oracle
from policy import Policy
env = Oracle(batch_size=64)
env.to("cuda")
policy = Policy().to("cuda")
for _ in range(1000):
    obs = env.step(env.action_spec.sample())
    act = policy(obs)
""", [9]),
    ("GA107", "a method of a CUDA model handed no input (model.required_data()) is an accessor, not a forward; "
     "model.predict(x) in the same loop is", """
import torch
from models import Fit
model = Fit().cuda().eval()
for x in batches:
    fields = model.required_data()
    y = model.predict(x.cuda())
""", [6]),
    ("GA110", "`for i in range(len(coeffs))` over a literal list of 7 runs 7 times: a few tiny ops, nothing to win; "
     "range(len(steps)) of a name the file never spells out is of unknown length", """
import torch
coeffs = [1 / 90, -3 / 20, 3 / 2, -49 / 18, 3 / 2, -3 / 20, 1 / 90]
kernel = torch.zeros(7, 7, device="cuda")
for i in range(len(coeffs)):
    kernel[3, i] += coeffs[i] * 2.0
    kernel[i, 3] += coeffs[i] * 3.0
    kernel[i, i] += coeffs[i] * 4.0
steps = load_steps()
for i in range(len(steps)):
    kernel[3, 3] += steps[i] * 2.0
    kernel[2, 2] += steps[i] * 3.0
    kernel[1, 1] += steps[i] * 4.0
""", [10]),
    ("GA106", "a data module whose DataLoader pins memory (pin_memory=True: only a GPU copy needs it) but loads in "
     "the main process feeds a GPU, though the training is in another file", """
from torch.utils.data import DataLoader
def loaders(train, test, batch_size):
    train_loader = DataLoader(train, batch_size=batch_size, shuffle=True, pin_memory=True)
    test_loader = DataLoader(test, batch_size=batch_size, num_workers=4, pin_memory=True)
    return train_loader, test_loader
""", [3]),
    ("GA102", "a benchmark helper that runs the function it is handed once before its CUDA events (fn(); "
     "torch.cuda.synchronize(); start.record()) has warmed it up; one that does not times the cold first call", """
import torch
def bench(fn, reps=5):
    fn()
    torch.cuda.synchronize()
    cache = torch.empty(1024, device="cuda")
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        cache.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps
def cold(fn, reps=5):
    cache = torch.empty(1024, device="cuda")
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        cache.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps
""", [19]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s13_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected


def test_an_exported_notebooks_timed_tensors_are_used_on_the_cpu():
    code = "import torch\na = torch.rand(100, 200)\nget_ipython().run_line_magic('timeit', 'a @ a')\na = a.cuda()\n"
    assert lines_of(code, select=["GA104"]) == []
    assert lines_of(code.replace("get_ipython().run_line_magic('timeit', 'a @ a')", "pass"), select=["GA104"]) \
        == [(2, "GA104")]
