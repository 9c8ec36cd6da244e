"""Classes of session 12 (issue 12), each with its must-not twin: numpy scalar types (np.float32(x)); numpy arrays whose float64 dtype is passed by
position (np.fromiter(values, np.float64), np.array(x, np.float64), np.full(shape, v, np.float64)); under a default CUDA device a value of unknown origin read
with .item() is on the GPU; a chain split over lines that casts to float64 on a later line, at the cast; a
forward timed by timeit.timeit(lambda: ...) with autograd on; accelerator.unwrap_model(model) is the prepared model;
output.get(key, []) is a list; torch.squeeze(y, 1) is a function of y, not torch's data; nerf.cuda().eval() moves a
module in place; a bound render_rays(...) result computes, it writes nothing out; a benchmark Timer's
statement string runs the model in the caller's grad mode; a walk
over a dict of CUDA losses is part of a step; `if d:` of a dict read by key is no host read; a slice of a
fill is a fill; a detached test pass after model.eval() in the training epoch loop;
a loop that breaks after a spelled-out count runs that many times; a
gradient check over the parameters at top level runs once;
torch.from_numpy is on the CPU under any default device; `if
torch.cuda.is_available() == True:` is a device test; a step helper's
own read after a deeper one; a literal made on
the data's device (device=x.device) in a loop; a class body's fields are its instances' attributes;
a detached validation pass in the training epoch loop; list(...) and a CPU tensor written at
CUDA indices are host data indexed by the GPU; .ndimension() is a shape query; a
library's *Loader over CUDA data is a loader; `if i <= 2:` runs on the first iterations only."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA109", "raw /= np.float32(raw.astype(np.float64).sum()) keeps raw float32 (np.float32(x) is a float32 "
     "scalar); np.float64(x) would make it float64", """
import numpy as np
import torch
rng = np.random.default_rng(0)
raw = rng.lognormal(size=100).astype(np.float32)
raw /= np.float32(raw.astype(np.float64).sum())
on_gpu = torch.from_numpy(raw).to("cuda")
wide = rng.lognormal(size=100).astype(np.float32)
wide = wide / np.float64(2.0)
wide_gpu = torch.from_numpy(wide).to("cuda")
""", [9]),
    ("GA109", "a numpy array made with a float64 dtype passed by position keeps float64 on the GPU; the same "
     "makers with float32 do not", """
import numpy as np
import torch
weights = torch.as_tensor(np.fromiter(range(10), np.float64), device="cuda")
grid = torch.from_numpy(np.array([1, 2], np.float64)).cuda()
ones = torch.from_numpy(np.full((3, 3), 1, np.float64)).cuda()
w32 = torch.as_tensor(np.fromiter(range(10), np.float32), device="cuda")
g32 = torch.from_numpy(np.array([1, 2], np.float32)).cuda()
counts = torch.as_tensor(np.fromiter(range(10), int), device="cuda")
""", [3, 4, 5]),
    ("GA103", "under torch.set_default_device('cuda') a value of unknown origin read with .item() in a loop of GPU "
     "work is on the GPU; without the default device it says nothing", """
import torch
from solver import load_state
torch.set_default_device("cuda")
def run(state, steps):
    for i in range(steps):
        x = torch.randn(4096, 4096)
        y = x @ x
        scale = (state.s2 / state.n).item()
""", [8]),
    ("GA103", "the same loop without a default device: the unknown value may be a Python number", """
import torch
from solver import load_state
def run(state, steps):
    for i in range(steps):
        x = torch.randn(4096, 4096, device="cuda")
        y = x @ x
        scale = (state.s2 / state.n).item()
""", []),
    ("GA109", "a chain split over lines that casts to float64 on its second line is reported at the cast; a factory "
     "made float64 by its dtype= and moved on a later line stays at the factory", """
import torch
device = torch.device("cuda")
def sample(row, noise):
    return torch.FloatTensor(row).to(device).to(torch.float64), torch.FloatTensor(
        noise).to(device).to(torch.float64)
def buffers(n):
    states = torch.zeros(
        (n, 4), dtype=torch.float64
    ).to(device)
    return states
""", [4, 5, 7]),
    ("GA107", "a model's forward in a lambda timed by timeit.timeit records a graph the clock measures; the same "
     "under torch.no_grad() does not", """
import timeit
import torch
from unet import ConditionalUnet1D
model = ConditionalUnet1D(input_dim=2).cuda()
sample = torch.randn(8, 16, 2, device="cuda")
print(timeit.timeit(lambda: model(sample), number=1000) / 1000)
with torch.no_grad():
    print(timeit.timeit(lambda: model(sample), number=1000) / 1000)
""", [6]),
    ("GA103", "accelerator.unwrap_model(model) is the prepared model on the accelerator's device: per-element reads "
     "of its outputs in the evaluation loop wait; an unwrap_model of something no Accelerator made says nothing", """
import torch
from accelerate import Accelerator
from project import Net, helper
accelerator = Accelerator()
model = Net()
model, loader = accelerator.prepare(model, loader)
unwrapped = accelerator.unwrap_model(model)
other = helper.unwrap_model(model)
with torch.no_grad():
    for batch in loader:
        out = unwrapped(batch["x"])
        for i in range(out.shape[0]):
            score = out[i].max().item()
        res = other(batch["x"])
        for i in range(res.shape[0]):
            score = res[i].max().item()
""", [13]),
    ("GA103", "a model's output dict: output.get('trace', []) with a list default is a list, `if traces:` asks the "
     "list; the .item() of the tensor taken from it is the read", """
import torch
model = torch.nn.Linear(4, 4).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in loader:
    output = model(x.cuda())
    loss = output.sum()
    loss.backward()
    opt.step()
    traces = output.get("trace", [])
    if traces:
        halt = traces[-1].item()
""", [11]),
    ("GA105", "torch.squeeze(targets, 1).long().to(device) copies the batch's targets, new each step -- not `torch`; "
     "the same copy of a tensor made once before the loop is the same data every step", """
import torch
from torch.utils.data import DataLoader, TensorDataset
device = torch.device("cuda")
loader = DataLoader(TensorDataset(torch.randn(64, 3), torch.zeros(64, 1)), batch_size=8)
weights = torch.ones(10)
for batch_idx, (inputs, targets) in enumerate(loader):
    targets = torch.squeeze(targets, 1).long().to(device)
    w = weights.float().to(device)
""", [8]),
    ("GA102", "nerf.cuda().eval() on its own line moves a module in place (only a module has .eval()), and "
     "out = render_rays(models, rays) of a star import handed it computes (a bound result: no writer); the "
     "timed call is the program's first CUDA computation", """
import time
import torch
from models.rendering import *
from models.nerf import *
nerf_coarse = NeRF()
nerf_coarse.cuda().eval()
models = [nerf_coarse]
def f(rays):
    out = render_rays(models, rays)
    return out
rays = dataset[0]["rays"].cuda()
t = time.time()
out = f(rays)
torch.cuda.synchronize()
print(time.time() - t)
""", [13]),
    ("GA107", "torch.utils.benchmark.Timer(stmt='model(x)', globals={'model': model, ...}) times a CUDA model's "
     "forward with autograd on; under torch.no_grad(), or of a single layer cast in place, it does not", """
import torch
import torch.utils.benchmark as benchmark
from toy import ToyModel
model = ToyModel().to("cuda")
conv = torch.nn.Conv2d(8, 8, 1).cuda()
conv = conv.half()
x = torch.randn(256, 1024, device="cuda")
t1 = benchmark.Timer(stmt="model(x)", globals={"model": model, "x": x}).blocked_autorange()
with torch.no_grad():
    t2 = benchmark.Timer(stmt="model(x)", globals={"model": model, "x": x}).blocked_autorange()
t3 = benchmark.Timer(stmt="conv(x)", globals={"conv": conv, "x": x}).blocked_autorange()
""", [8]),
    ("GA103", "a walk over a dict of one step's CUDA losses (for name in loss_dir.keys()) inside a logging helper is "
     "part of the step: the helper's reads are reported at its calls in the loops of steps; a walk over a dict of "
     "host data (utt2text.items()) is itself a loop of steps", """
import torch
model = torch.nn.Linear(4, 4).cuda()
def losses(x):
    out = model(x.cuda())
    return {"l1": out.abs().mean(), "l2": out.pow(2).mean()}
def log_losses(writer, loss_dir, step):
    for name in loss_dir.keys():
        writer.add_scalar(name, loss_dir[name].detach().cpu().numpy(), step)
for step, x in enumerate(train_loader):
    log_losses(writer, losses(x), step)
for step, x in enumerate(val_loader):
    log_losses(writer, losses(x), step)
for utt, text in utt2text.items():
    score = model(load(utt).cuda()).max().item()
""", [10, 12, 14]),
    ("GA103", "`if dynamics:` of a value the same function reads by string keys (dynamics['mask']) asks a dict, not the "
     "GPU; `if flag:` of a CUDA tensor does wait", """
import torch
from nets import Net
model = Net().cuda()
for x in loader:
    out = model(x.cuda())
    dynamics = out[-1]
    if dynamics:
        loss = out[0] * dynamics["mask"]
    flag = out[0].sum() > 0
    if flag:
        print("positive")
""", [10]),
    ("GA104", "a slice of a CPU fill (torch.linspace(t0, t1, n)[k:]) copied to the GPU per batch is still a fill made "
     "only to be copied; a slice of a loaded tensor is data", """
import torch
device = torch.device("cuda")
grid = torch.load("grid.pt")
for batch in loader:
    t = torch.linspace(0.0, 1.0, 50)[5:].unsqueeze(0).repeat(8, 1).to(device)
    g = grid[5:].to(device)
""", [5]),
    ("GA107", "after model.eval(), a test pass in the epoch loop that trains the model records a graph for nothing, "
     "its output detached or not; a GAN's netG(z).detach() in the D step of the loop that trains netG does not", """
import torch
def train_model(model, opt, train_loader, test_loader, epochs):
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            loss = (model(x.cuda()) - y.cuda()).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        for i, x in enumerate(test_loader):
            preds = model(x.cuda()).detach().cpu().numpy()
def train_gan(netG, netD, optD, optG, loader):
    for x in loader:
        fake = netG(torch.randn(8, 4, device="cuda")).detach()
        d_loss = netD(fake).mean() - netD(x.cuda()).mean()
        optD.zero_grad()
        d_loss.backward()
        optD.step()
        g_loss = -netD(netG(torch.randn(8, 4, device="cuda"))).mean()
        optG.zero_grad()
        g_loss.backward()
        optG.step()
""", [12]),
    ("GA103", "a loop over a loader that breaks after num_batches (a parameter defaulting to 1) runs a handful of "
     "times: its reads are no per-step stall; the same loop with no break reads on every batch", """
import torch
def show(model, loader, num_batches=1):
    with torch.no_grad():
        for i, (images, masks) in enumerate(loader):
            if i >= num_batches:
                break
            outputs = torch.sigmoid(model(images.cuda())).cpu()
def score(model, loader):
    with torch.no_grad():
        for i, (images, masks) in enumerate(loader):
            outputs = torch.sigmoid(model(images.cuda())).cpu()
""", [11]),
    ("GA103", "a gradient check's walk over the parameters at a script's top level looks at each once; the same walk "
     "in an update method called per episode reads on every update", """
import torch
from nets import Net
model = Net().cuda()
loss = model(torch.randn(8, 4, device="cuda")).sum()
loss.backward()
for param in model.parameters():
    print(param.grad.sum().item())
class Agent:
    def __init__(self):
        self.net = Net().cuda()
    def update(self):
        total = 0.0
        for p in self.net.parameters():
            total += p.grad.norm().item()
    def train(self, episodes):
        for episode in range(episodes):
            self.run_episode()
            self.update()
""", [14]),
    ("GA109", "under a CUDA default tensor type torch.from_numpy still makes a CPU tensor (it shares the array): its "
     ".double() is no conversion on the GPU; data made float64 by astype(np.double) on one line and moved on the "
     "next is reported where the float64 was chosen", """
import numpy as np
import torch
from torch.autograd import Variable
torch.set_default_tensor_type(torch.cuda.FloatTensor)
def load(path):
    data = torch.from_numpy(np.load(path))
    data = data.double()
    return data
def transform(images):
    images = Variable(torch.from_numpy(images.astype(np.double)), requires_grad=False)
    images = images.cuda()
    return images
""", [10]),
    ("GA109", "the else of `if torch.cuda.is_available() == True:` runs only without CUDA: its CPU float64 default is no "
     "GPU cost; the CUDA branch's is", """
import torch
if torch.cuda.is_available() == True:
    torch.set_default_tensor_type(torch.cuda.DoubleTensor)
else:
    torch.set_default_tensor_type(torch.DoubleTensor)
x = torch.randn(3)
""", [3]),
    ("GA103", "a step helper the loop calls once, whose own loss.item() follows a read inside the loss helper it "
     "calls: both reads are reported where they are", """
import torch
from nets import Net
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
def kd_loss(out, mask):
    if mask.any():
        out = out * mask
    return out.pow(2).mean()
def step(batch):
    out = model(batch.cuda())
    loss = kd_loss(out, out > 0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return float(loss.item())
for batch in loader:
    value = step(batch)
""", [6, 15]),
    ("GA105", "torch.tensor(0.01, device=x_t.device) in a loop over time steps of a file that shows CUDA rebuilds the "
     "literal on the data's device each step", """
import torch
from nets import Net
model = Net().cuda()
def rollout(trajectory):
    for t in range(trajectory.shape[0] - 1):
        x_t = trajectory[t]
        dt = torch.tensor(0.01, device=x_t.device)
        x_next = x_t + dt * model(x_t)
""", [7]),
    ("GA105", "the same literal made once on the data's device, before the loop: nothing is copied per step", """
import torch
from nets import Net
model = Net().cuda()
def rollout(trajectory):
    dt = torch.tensor(0.01, device=trajectory.device)
    for t in range(trajectory.shape[0] - 1):
        x_t = trajectory[t]
        x_next = x_t + dt * model(x_t)
""", []),
    ("GA103", "self.args.device of a settings class of the file (class Args: device = torch.device('cpu')) is that "
     "CPU device, not one configured elsewhere: the PPO's per-step reads are CPU reads", """
import torch
import torch.nn as nn
class Args:
    device = torch.device("cpu")
    num_envs = 4
class PPO:
    def __init__(self, env):
        self.args = Args()
        self.policy = nn.Linear(4, 2).to(self.args.device)
    def train(self, steps):
        device = self.args.device
        obs = torch.zeros(self.args.num_envs, 4, device=device)
        for step in range(steps):
            action = self.policy(obs).argmax(-1)
            obs, reward = self.env.step(action.cpu().numpy())
            obs = torch.tensor(obs, device=device)
""", []),
    ("GA107", "a validation pass over a loader with no backward, in the epoch loop that trains the model, records a "
     "graph for nothing even with its output detached; a GAN's preview sample inside the training loop does not count", """
import torch
def fit(model, opt, train_loader, val_loader, epochs):
    for epoch in range(epochs):
        for data, target in train_loader:
            loss = torch.nn.functional.cross_entropy(model(data.cuda()), target.cuda())
            opt.zero_grad()
            loss.backward()
            opt.step()
        for data, target in val_loader:
            pred = model(data.cuda()).detach()
""", [10]),
    ("GA103", "class_total = list(0. for i in range(10)) indexed by a CUDA label, and a CPU confusion tensor written "
     "at CUDA indices, read each index back per element; a dict keyed by the tensor hashes it (no read)", """
import torch
from nets import Net
model = Net().cuda()
class_total = list(0. for i in range(10))
confusion = torch.zeros(10, 10)
seen = {}
with torch.no_grad():
    for images, labels in loader:
        labels = labels.cuda()
        preds = model(images.cuda()).argmax(1)
        for i in range(4):
            label = labels[i]
            class_total[label] += 1
            seen[label] = True
        for j, k in zip(preds, labels):
            confusion[j, k] += 1
""", [13, 16]),
    ("GA103", "det.ndimension() == 1 compares the number of dimensions, a Python int: no host read; det.sum() > 0 is one",
     """
import torch
from nets import Net
model = Net().cuda()
for img in images:
    for det in model(img.cuda()):
        if det.ndimension() == 1:
            det = det.unsqueeze(0)
        if det.sum() > 0:
            print("found")
""", [8]),
    ("GA103", "NeighborLoader(data_on_cuda, ...) of a library is a loader of CUDA batches, not a tensor: its "
     "num_neighbors setting formatted per batch reads nothing; a batch's loss does", """
import torch
from torch_geometric.loader import NeighborLoader
data = load_graph().to("cuda")
for epoch in range(100):
    loader = NeighborLoader(data, num_neighbors=[10, 10], batch_size=64)
    for batch in loader:
        loss = model(batch.x, batch.edge_index).sum()
        print(f"neighbors={loader.num_neighbors}")
        print(f"loss={loss}")
""", [9]),
    ("GA103", "reads under `if batch_idx <= 2:` run on the first three batches only (a few images to log); under "
     "`if step > 100:` they run on almost every step", """
import torch
from nets import Net
model = Net().cuda()
with torch.no_grad():
    for batch_idx, (img, target) in enumerate(loader):
        pred = model(img.cuda()).argmax(1)
        if batch_idx <= 2:
            show(pred[0].cpu().numpy())
        if batch_idx > 100:
            log(pred[0].cpu().numpy())
""", [10]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s12_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
