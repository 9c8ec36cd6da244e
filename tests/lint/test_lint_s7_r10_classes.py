"""Classes found on the tenth corpus's dev half (issue 12, session 7), each with its must-not twin."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA103", "a read under `if epoch in [10, 50, 100]:` runs on the listed epochs only", """
import torch
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 4, device="cuda")
for epoch in range(1000):
    loss = model(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch in [0, 10, 50, 100, 500]: print(epoch, loss.item())
    if epoch in milestones: print(loss.item())
""", [11]),
    ("GA110", "one tiny op per element of a collection of unknown length is not reported; a walk over a CUDA "
     "tensor's rows is", """
import torch
def total(names, model, graphs):
    acc = torch.tensor(0.0).to("cuda")
    for name in names:
        acc += model.recon_loss(graphs[name])
    return acc
def walk(cuda_tensor):
    out = torch.zeros(1, device="cuda")
    for i in range(cuda_tensor.size()[0]):
        out += cuda_tensor[i]
    return out
""", [10]),
    ("GA103", "reads in an error branch that exits (sys.exit, raise) run once at most; the check itself runs each step", """
import math
import sys
import torch
def check_losses(losses, loss_dict):
    if not math.isfinite(losses):
        print("A loss is not finite.")
        for key in loss_dict:
            print(key, loss_dict[key].item())
        print(losses.item())
        sys.exit(1)
    if losses > 1e6:
        raise ValueError(f"diverged: {losses.item()}")
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for img, target in loader:
    loss_dict = model(img.cuda(), target)
    losses = sum(loss for loss in loss_dict.values())
    check_losses(losses, loss_dict)
    opt.zero_grad()
    losses.backward()
    opt.step()
""", [5, 11]),
    ("GA103", "a read in an except handler runs when the conversion failed, not every step", """
import torch
policy = Policy().cuda()
for step in range(1000):
    try:
        state = torch.FloatTensor(state).unsqueeze(0).cuda()
    except:
        print(state)
    action = policy(state).argmax()
    print(action)
    state = env.step(action)
""", [9]),
    ("GA107", "a rollout whose log-probs an update function handed the optimizer trains on is a training step", """
import torch
import torch.nn.functional as F
def train(env, policy, optimizer, update_alg, device):
    policy.train()
    log_probs = []
    for eps in range(16):
        state = env.reset()
        for t in range(200):
            probs = F.softmax(policy(torch.as_tensor(state).to(device)), dim=-1)
            log_probs.append(probs.log())
    return update_alg(policy, log_probs, optimizer)
def evaluate(env, policy, device):
    for eps in range(16):
        for t in range(200):
            probs = F.softmax(policy(torch.as_tensor(state).to(device)), dim=-1)
policy = Policy().cuda()
""", [15]),
    ("GA103", "a while loop around a loop of epochs (each a helper's loop over a loader) is not a step loop", """
import torch
def train_1_epoch(loader, model, optimizer, loss_fn):
    total = 0
    for X, y in loader:
        loss = loss_fn(model(X.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss / len(loader)
    return total
def train_model(n, loader, model, optimizer, loss_fn):
    current = 100
    while current > 0.001:
        for epoch in range(n):
            current = train_1_epoch(loader, model, optimizer, loss_fn)
    x = torch.ones(4, device="cuda")
    while x.sum() > 0.5:
        x = x * 0.5
    return model
""", [17]),
    ("GA108", "anomaly detection in a class named for it, or in a plugin's on_train_start that on_train_end undoes, "
     "is a tool the user opts into; in a model's __init__ it is on for whoever builds the model", """
import torch
class AnomalyDetection(object):
    def __init__(self):
        torch.autograd.set_detect_anomaly(True)
class Plugin(PluginBase):
    def on_train_start(self, trainer, model):
        torch.autograd.set_detect_anomaly(True)
    def on_train_end(self, trainer, model):
        torch.autograd.set_detect_anomaly(False)
class DebugNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.autograd.set_detect_anomaly(True)
""", [13]),
    ("GA105", "a model moved in `for epoch in range(1):` is moved once", """
import torch
model = Net()
for epoch in range(1):
    model = model.to("cuda")
    for batch in loader:
        out = model(batch.cuda())
for epoch in range(3):
    model = model.to("cuda")
    for batch in loader:
        out = model(batch.cuda())
""", [8]),
    ("GA110", "a fit function's loop sized from what its one call passes (X rebound by X = X.to(device))", """
import torch
def fit(X, y, lr=0.01, epochs=1000, device="cpu"):
    X = X.to(device)
    y = y.to(device)
    w = torch.randn(1, requires_grad=True, device=device)
    b = torch.randn(1, requires_grad=True, device=device)
    for epoch in range(epochs):
        loss = ((X * w + b - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    return w, b
X = torch.linspace(0, 10, 100).unsqueeze(1)
y = 2 * X + 3 + torch.randn_like(X) * 1.5
fit(X, y, epochs=1000, device="cuda")
""", [8]),
    ("GA104", "a function that moves the tensors it is handed is not the place of a CPU factory", """
import torch
def fit(X, device):
    X = X.to(device)
    return X
def noise(device):
    z = torch.randn(64, 100)
    return z.to(device)
fit(torch.linspace(0, 10, 100).unsqueeze(1), "cuda")
noise("cuda")
""", [6, 8]),  # (session 9: the fill handed to fit() only to be moved there is reported at the call, handed_fills.py)
    ("GA103", "four checks of a benchmark's error are four waits; a flip loop of two inside a loop over batches "
     "runs per batch", """
import torch
model = Net().cuda()
ref = torch.randn(64, 64, device="cuda")
for i in range(0, 4):  # (session 10: five steps of a toy are labelled, r16 2275)
    out = model(ref)
    print((out - ref).abs().max().item())
for images in loader:
    for flip in range(2):
        feats = model(images.cuda().flip(3) if flip else images.cuda())
        store(feats.cpu())
""", [10]),
    ("GA105", "an ensemble moved model by model on every batch; appending a model to the list runs nothing (GA107)", """
import torch
def get_models(paths):
    models = []
    for path in paths:
        model = Net.load_from_checkpoint(path).to("cuda")
        model.eval()
        models.append(model)
    return models
def predict(models, loader, device):
    preds = []
    with torch.no_grad():
        for batch in loader:
            imgs = batch.to(device)
            for model in models:
                model = model.to("cuda")
                preds.append(model(imgs))
    return preds
predict(get_models(["a.ckpt", "b.ckpt"]), loader, "cuda")
""", [15]),
    ("GA107", "models.append(model) is not a forward", """
import torch
models = []
for path in paths:
    model = Net.load_from_checkpoint(path).to("cuda")
    model.eval()
    models.append(model)
""", []),
    ("GA102", "x = x.cuda() in the timed loop is a copy (x is on the CPU on the first pass): the region starts there", """
import time
import torch
model = Net().eval().cuda()
tens = torch.ones(16, 3, 224, 224)
t = 0
for i in range(10):
    s = time.time()
    tens = tens.cuda()
    out = model(tens)
    out.cpu()
    t += time.time() - s
print(t)
""", [8]),
    ("GA103", "accelerate's prepare() places the model and the loader's batches: reads of their results wait", """
import torch
from accelerate import Accelerator
accelerator = Accelerator()
model = build_model()
optimizer = torch.optim.AdamW(model.parameters())
model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
for epoch in range(10):
    for batch in train_dataloader:
        loss = model(batch).mean()
        accelerator.backward(loss)
        optimizer.step()
        print(loss.item())
""", [12]),
    ("GA107", "model.load_param_from_tensor(t) writes the model's state: not a forward", """
import torch
test_model = Net().cuda()
test_model.eval()
weights = torch.randn(10, 100, device="cuda")
for sample in range(10):
    test_model.load_param_from_tensor(weights[sample])
    test_model.set_weights(weights[sample])
    out = test_model.predict_proba(weights[sample])
""", [8]),
    ("GA103", "loss.item() just before a training step's clock logs the loss (reported); in a latency loop it is the "
     "wait that makes the clock right (not)", """
import time
import torch
model = Net().cuda()
for images, labels in loader:
    start = time.time()
    loss = criterion(model(images.cuda()), labels.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    took = time.time() - start
with torch.no_grad():
    for images in loader:
        start = time.time()
        out = model(images.cuda()).sum().item()
        took = time.time() - start
""", [10]),
    ("GA103", "accelerator.gather(loss) hands back a tensor on the loss's device: reading it every step waits", """
import torch
model = Net().cuda()
for batch in loader:
    loss = model(batch.cuda()).mean()
    loss.backward()
    optimizer.step()
    avg = accelerator.gather(loss.repeat(8)).mean()
    total += avg.item()
    other = helper.collect(loss)
    total += other.item()
""", [8]),
    ("GA109", "a device parameter every call fills with None is the CPU default, not the GPU its name suggests", """
import torch
class SplitOp:
    def __init__(self, n, device=None, dtype=torch.float64):
        self.x = torch.linspace(0, 1, n, device=device, dtype=dtype)
class OnGpu:
    def __init__(self, n, device=None, dtype=torch.float64):
        self.x = torch.linspace(0, 1, n, device=device, dtype=dtype)
op = SplitOp(128, device=None, dtype=torch.float64)
gpu = OnGpu(128, device="cuda")
""", [6]),  # (at OnGpu's dtype=torch.float64 default: the session-25 GA109 placement)
    ("GA104", "a factory through two Python-number operations, (torch.arange(n) + 0.5) * dx, is still made only to be "
     "copied", """
import torch
dx = 0.01
N = 1000
x = ((torch.arange(N - 1) + 0.5) * dx).to("cuda")
data = torch.load("a.pt")
y = ((data + 0.5) * dx).to("cuda")
""", [4]),
    ("GA103", "a meta-learning inner loop that steps by torch.autograd.grad is the step loop: its print(loss.item()) "
     "waits every step", """
import torch
model = Net().cuda()
weights = dict(model.named_parameters())
for inner in range(100):
    loss = torch.tensor(0.0).to("cuda")
    for graph in graphs:
        loss += model.recon_loss(graph.cuda(), weights)
    print(loss.item())
    grads = torch.autograd.grad(loss, weights.values(), create_graph=True)
    weights = {k: w - 0.05 * g for (k, w), g in zip(weights.items(), grads)}
""", [8]),
    ("GA101", "torch.inverse / torch.linalg.eigh check their result on the host: the clock after them is right; "
     "inv_ex does not", """
import time
import torch
a = torch.rand(256, 256, device="cuda")
torch.inverse(a)
t0 = time.time()
torch.inverse(a)
t1 = time.time()
w, v = torch.linalg.eigh(a @ a.T)
t2 = time.time()
inv, info = torch.linalg.inv_ex(a)
t3 = time.time()
print(t1 - t0, t2 - t1, t3 - t2)
""", [11]),
    ("GA103", "for family, vectors in [('shared', cuda_list), ...]: each name gets its own position's kind", """
import torch
a = torch.randn(64, 8, device="cuda")
b = torch.randn(64, 8, device="cuda")
for family, initials in [("shared", [a, b]), ("ll1", [b, a])]:
    for j, vector in enumerate(initials):
        if family == "shared":
            out = vector * 2
        else:
            out = vector @ vector
        if out.sum() > 0:
            out = out * 0.5
""", [10]),
    ("GA103", "a loop whose body calls an imported train_joint_epoch(...) runs an epoch per iteration: its prints "
     "are per epoch", """
import torch
from project.training import train_joint_epoch
model = Net().cuda()
for factor in factors:
    loss = model(x.cuda()).sum()
    result = train_joint_epoch(model, optimizer, loader, device="cuda")
    print(f"factor {factor}: loss={loss.item():.4g}")
for step in range(1000):
    loss = model(x.cuda()).sum()
    print(loss.item())
""", [10]),
    ("GA108", "`if not args.no_anomaly:` is on unless turned off; `if args.detect_anomaly:` is asked for", """
import torch
from project.training import train_joint_epoch
if not args.no_anomaly:
    torch.autograd.set_detect_anomaly(True)
if args.detect_anomaly:
    torch.autograd.set_detect_anomaly(True)
train_joint_epoch(model, optimizer, loader)
""", [4]),
    ("GA106", "args = EasyDict({'cuda': False}) only read: `if ... and args.cuda:` never runs, the program is CPU code; "
     "the same settings changed later are not fixed", """
import torch
import easydict
args = easydict.EasyDict({"batch_size": 32, "cuda": False})
device = "cpu"
if torch.cuda.is_available() and args.cuda:
    device = "cuda"
loader = torch.utils.data.DataLoader(dataset, batch_size=args.batch_size)
def describe(args):
    return args.name
model = Net(args.batch_size).to(device)
""", []),
    ("GA106", "(twin) the settings object is changed, so its entry is not fixed", """
import torch
import easydict
args = easydict.EasyDict({"batch_size": 32, "cuda": False})
args.cuda = torch.cuda.is_available()
device = "cpu"
if torch.cuda.is_available() and args.cuda:
    device = "cuda"
loader = torch.utils.data.DataLoader(dataset, batch_size=args.batch_size)
model = Net().to(device)
""", [8]),
    ("GA107", "a library model's generate() runs under no_grad itself; a generate the file writes is its own forward", """
import torch
from transformers import GPT2LMHeadModel
model = GPT2LMHeadModel.from_pretrained("gpt2").to("cuda")
model.eval()
inputs = tokenizer.encode("hello", return_tensors="pt").to("cuda")
outputs = model.generate(inputs, max_length=100)
print(tokenizer.decode(outputs[0]))
logits = model(inputs).logits
print(logits.argmax())
""", [8]),
    ("GA103", "a helper's crit(logits, label) on CUDA tensors, and model.scale.item() of a CUDA model's parameter, "
     "are reads every step; .item() hands back a number", """
import torch
def train_epoch(model, loader, crit, opt, device):
    total = 0
    for spec, label in loader:
        spec, label = spec.to(device), label.to(device)
        loss = crit(model(spec), label)
        loss.backward()
        opt.step()
        total += loss.item()
    return total
model = Net().cuda()
for step, batch in enumerate(loader):
    loss = model(batch.cuda()).mean()
    loss.backward()
    logs = {"loss": 0.0}
    logs["scale"] = model.softmax_multiplier.item()
    wandb.log(logs)
""", [9, 16]),
    ("GA104", ".to(torch.int8) is a dtype cast on the CPU: the factory under it is reported where it is made", """
import torch
def init_lattice(n, p, device):
    lattice = torch.bernoulli(torch.full((n, n), p)).to(torch.int8) * 2 - 1
    return lattice.to(device)
lattice = init_lattice(64, 0.5, "cuda")
""", [3]),
    ("GA108", "a CUDA-only switch set by a program that keeps its work on the CPU costs nothing; a launcher that "
     "hands the work on is reported", """
import os
import torch
from diffusers import StableDiffusionPipeline
os.environ["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"
pipe = StableDiffusionPipeline.from_pretrained("sd-v1-5")
pipe = pipe.to("cpu")
image = pipe("a cat").images[0]
""", []),
    ("GA108", "(twin) the same switch in a launcher that names no device", """
import os
from project.train import run_training
os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
run_training()
""", [3]),
    ("GA106", "device = 0 is CUDA device 0: model.to(device) puts the model on the GPU the loader feeds", """
import torch
from torch.utils.data import DataLoader
device = 0
model = Net()
train_loader = DataLoader(dataset, batch_size=64)
model.to(device)
for imgs, labels in train_loader:
    out = model(imgs.to(device))
""", [5]),
    ("GA103", "device='cpu' of a trainer no call here makes is only a default (a caller may hand it a GPU); called "
     "here with the default, it is the CPU", """
import torch
class Trainer:
    def __init__(self, model, loader, criterion, optimizer, device="cpu"):
        self.model, self.loader, self.criterion, self.optimizer, self.device = model, loader, criterion, optimizer, device
    def train(self):
        self.model.to(self.device)
        total = 0.0
        for inputs, labels in self.loader:
            inputs, labels = inputs.to(self.device), labels.to(self.device)
            loss = self.criterion(self.model(inputs), labels)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total
def model_train(epochs=10, device="cpu"):
    model = Net().to(device)
    for epoch in range(epochs):
        for x in loader:
            loss = model(x.to(device)).mean()
            loss.backward()
            print(loss.item())
model_train(epochs=100)
""", [13]),
    ("GA107", "a GAN's netG(noise).detach() in the D step: netG trains in the same loop; a DQN's frozen target "
     "net's detached forward records for nothing", """
import torch
netG, netD = G().cuda(), D().cuda()
policy_net, target_net = Q().cuda(), Q().cuda()
for x in loader:
    noise = torch.randn(64, 100, device="cuda")
    lossD = crit(netD(x.cuda()), real) + crit(netD(netG(noise).detach()), fake)
    lossD.backward()
    optD.step()
    lossG = crit(netD(netG(noise)), real)
    lossG.backward()
    optG.step()
for s, a, s2 in replay:
    q = policy_net(s).gather(1, a)
    nxt = target_net(s2).max(1)[0].detach()
    loss = crit(q, nxt)
    loss.backward()
    opt.step()
""", [14]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_r10_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
