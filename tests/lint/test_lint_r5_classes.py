"""GA102 / GA103 / GA106 / GA107 / GA110 on the fifth real-world corpus (issue 12, development half).

- A loop in an nn.Module's own ``forward`` (an RNN unrolled over its time steps, a walk over layers) is part
  of one forward pass: it does not make the loop that calls the model per-epoch (GA103).
- A helper or closure that only one hot loop runs (``optimizer.step(closure)``) reports each host read it
  makes on every call, not only the first one (``print(loss.item())`` then ``if loss > 100:``) (GA103).
- A closure handed to ``optimizer.step(closure)`` runs where the program steps: what ran before that call
  ran before it, it is no program start of its own; and ``model.double()`` / ``.half()`` of a model already on
  the GPU converts its parameters there, a kernel: CUDA is warm after it (GA102).
- A logger that takes a dict (``wandb.log(d)``) is never handed a bare tensor: a record built by a helper the
  file does not show (``wandb.log(get_wandb_logs(loss_item, recall))``) is no host read the file shows; a dict
  seen to hold a CUDA tensor still is (GA103).
- A call through an alias of a name like a model (``f = model; [f(b.cuda()).detach() for b in loader]``) runs
  that model: a prediction loop with autograd on (GA107), quiet under ``torch.no_grad()``.
- A Lightning ``Trainer(gpus=[0, 1])`` / ``Trainer(accelerator="gpu")`` moves each batch to the GPUs itself:
  the file's DataLoaders feed a GPU training run (GA106), not with ``gpus=0`` nor another library's Trainer.
- Frozen teachers run in a comprehension in a training loop, whose outputs are only used detached
  (``feats = [m(x)[2] for m in seniors]; [cka(z, f.detach()) for f in feats]``), record a graph never used
  (GA107); ``x.requires_grad = False`` on a batch of a loader freezes no model.
- A size written as a shift (``N = 1 << 20``) is a constant like ``2 ** 20`` (GA110).
"""

from __future__ import annotations

import pytest
from lint_helpers import lines_of

_RNN = """
import torch
import torch.nn as nn
device = torch.device("cuda")
class Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(1, 8)
        self.out = nn.Linear(8, 1)
    def forward(self, x):
        h = torch.zeros(x.size(0), 8, device=device)
        c = torch.zeros(x.size(0), 8, device=device)
        outputs = []
        for x_t in x.chunk(x.size(1), dim=1):
            h, c = self.cell(x_t, (h, c))
            outputs += [self.out(h)]
        return torch.stack(outputs, 1)
model = Seq().to(device)
x = torch.randn(16, 20, device=device)
"""

FIRES = [
    ("a training loop calling a model whose forward loops over time steps: a step per iteration", _RNN + """
opt = torch.optim.SGD(model.parameters(), lr=0.1)
def train_step(x):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss
for step in range(n_steps):
    loss = train_step(x)
    print(step, loss.item())
""", [("GA103", 29)]),
    ("a timing loop of forwards through a model whose forward loops over time steps", _RNN + """
for i in range(100):
    out = model(x)
    print(i, out.sum().item())
""", [("GA103", 22)]),
    ("an LBFGS closure reads the loss twice on every call: both reads reported", _RNN + """
opt = torch.optim.LBFGS(model.parameters())
for step in range(n_steps):
    def closure():
        opt.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        print("loss", loss.item())
        if loss > 100.0:
            raise SystemExit(1)
        return loss
    opt.step(closure)
""", [("GA103", 26), ("GA103", 27)]),
]

QUIET = [
    ("once per epoch around a loop of steps, with a forward that loops", _RNN + """
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(n_epochs):
    for step in range(100):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
""", []),
    ("a closure that reads the loss only now and then", _RNN + """
opt = torch.optim.LBFGS(model.parameters())
for step in range(n_steps):
    def closure():
        opt.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        if step % 100 == 0:
            print("loss", loss.item())
        return loss
    opt.step(closure)
""", []),
]


@pytest.mark.parametrize("title,code,expected", FIRES + QUIET, ids=[c[0] for c in FIRES + QUIET])
def test_r5_classes(title, code, expected):
    assert [(check, line) for line, check in lines_of(code, select=["GA103"])] == expected


_TIMED_CLOSURE = """
import time
import torch
import torch.nn as nn
device = torch.device("cuda")
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
    def forward(self, x):
        return self.fc(x)
net = Net()
x = torch.load("x.pt").to(device)
{before}
opt = torch.optim.LBFGS(net.parameters())
for i in range(n_steps):
    def closure():
        t0 = time.time()
        opt.zero_grad()
        loss = net(x).sum()
        loss.backward()
        torch.cuda.synchronize()
        print(time.time() - t0)
        return loss
    opt.step(closure)
"""

WARM_UP = [
    ("a timed LBFGS closure with only copies before it: its first call is cold",
     "net.to(device)", [("GA102", 19)]),
    ("a model converted to float64 on the CPU, then moved: a copy, no kernel",
     "net.double()\nnet.to(device)", [("GA102", 20)]),
    ("a forward before the step loop warms CUDA up for the closure", "net.to(device)\nnet(x)", []),
    ("net.double() of the model on the GPU runs a kernel: warm", "net.to(device)\nnet.double()", []),
]


@pytest.mark.parametrize("title,before,expected", WARM_UP, ids=[c[0] for c in WARM_UP])
def test_r5_timed_closure_warm_up(title, before, expected):
    code = _TIMED_CLOSURE.replace("{before}", before)
    assert [(check, line) for line, check in lines_of(code, select=["GA102"])] == expected


_LOGGED = """
import torch
import wandb
from project.monitoring import get_wandb_logs, batch_recall
device = torch.device("cuda")
model = torch.nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    out = model(x.to(device))
    y = y.to(device)
    loss = torch.nn.functional.cross_entropy(out, y)
    loss.backward()
    opt.step()
    recall = batch_recall(out, y, k=1)
    {logged}
"""

LOGGED = [
    ("a dict literal holding the CUDA loss", 'wandb.log({"loss": loss})', [("GA103", 14)]),
    ("a dict filled with the CUDA loss", 'logs = {}\n    logs["loss"] = loss\n    wandb.log(logs)', [("GA103", 16)]),
    ("a record a project helper built", "wandb.log(get_wandb_logs(recall))", []),
    ("a record a project helper built, to a writer's add_scalars", 'writer.add_scalars("r", get_wandb_logs(recall))',
     []),
    ("a CUDA tensor to a writer's add_scalar", 'writer.add_scalar("loss", loss)', [("GA103", 14)]),
    ("a record a project helper built, through a name", "logs = get_wandb_logs(recall, k=1)\n"
     "    wandb.log(logs)", []),
]


@pytest.mark.parametrize("title,logged,expected", LOGGED, ids=[c[0] for c in LOGGED])
def test_r5_dict_loggers(title, logged, expected):
    code = _LOGGED.replace("{logged}", logged)
    assert [(check, line) for line, check in lines_of(code, select=["GA103"])] == expected


_SHIFTED = """
import torch
N = {size}
def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    a = torch.arange(N, device=device, dtype=torch.float32)
    b = 2 * a
    c = torch.empty_like(a)
    for i in range(N):
        c[i] = a[i] + b[i]
main()
"""


@pytest.mark.parametrize("size,expected", [("1 << 20", [("GA110", 9)]), ("1 << 3", [])])
def test_r5_shifted_sizes(size, expected):
    code = _SHIFTED.replace("{size}", size)
    assert [(check, line) for line, check in lines_of(code, select=["GA110"])] == expected


ALIASES = [
    ("a prediction comprehension through an alias of a model handed in", """
import torch
def extract(model, loader):
    f = model
    return [f(b.cuda()).detach() for b in loader]
""", [("GA107", 4)]),
    ("the same loop through an alias of self.net", """
import torch
class Extractor:
    def run(self, loader):
        f = self.net
        feats = []
        for b in loader:
            feats.append(f(b.cuda()).cpu())
        return feats
""", [("GA107", 7)]),
    ("the alias under torch.no_grad()", """
import torch
def extract(model, loader):
    f = model
    with torch.no_grad():
        return [f(b.cuda()).detach() for b in loader]
""", []),
    ("an alias of something not named like a model", """
import torch
def extract(transform, loader):
    f = transform
    return [f(b.cuda()).detach() for b in loader]
""", []),
]


@pytest.mark.parametrize("title,code,expected", ALIASES, ids=[c[0] for c in ALIASES])
def test_r5_model_aliases(title, code, expected):
    assert [(check, line) for line, check in lines_of(code, select=["GA107"])] == expected


_LIGHTNING = """
import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader
class Classifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(28 * 28, 10)
    def training_step(self, batch, batch_nb):
        x, y = batch
        return torch.nn.functional.cross_entropy(self.l1(x), y)
    def train_dataloader(self):
        return DataLoader(train_set, batch_size=32, num_workers=4)
trainer = {trainer}
trainer.fit(Classifier())
"""

TRAINERS = [
    ("pl.Trainer(gpus=[0, 1])", [("GA106", 12)]),
    ("pl.Trainer(gpus=1, precision=16)", [("GA106", 12)]),
    ('pl.Trainer(accelerator="gpu", devices=2)', [("GA106", 12)]),
    ("pl.Trainer(gpus=0)", []),
    ('pl.Trainer(accelerator="cpu", devices=2)', []),
    ("pl.Trainer(max_epochs=3)", []),
]


@pytest.mark.parametrize("trainer,expected", TRAINERS, ids=[c[0] for c in TRAINERS])
def test_r5_lightning_trainer_on_gpus(trainer, expected):
    code = _LIGHTNING.replace("{trainer}", trainer)
    assert [(check, line) for line, check in lines_of(code, select=["GA106"])] == expected


def test_r5_another_librarys_trainer_is_no_gpu_sign():
    code = """
from transformers import Trainer
from torch.utils.data import DataLoader
loader = DataLoader(train_set, batch_size=32)
trainer = Trainer(gpus=1)
"""
    assert lines_of(code, select=["GA106"]) == []


_SENIORS = """
import torch
from models import build, cka
def train(loader, n):
    seniors = [build() for _ in range(n)]
    [m.eval() for m in seniors]
    junior = build()
    opt = torch.optim.AdamW(junior.parameters())
    for (x, _) in loader:
        x = x.cuda()
        x.requires_grad = False
        z = junior(x)
        feats = [model(x)[2] for model in seniors]
        {use}
        loss.backward()
        opt.step()
"""

SENIORS = [
    ("each collected output only used detached", "loss = sum(cka(z, f.detach()) for f in feats)", [("GA107", 12)]),
    ("each collected output used detached in a for loop",
     "loss = z.sum()\n        for f in feats:\n            loss = loss + cka(z, f.detach())", [("GA107", 12)]),
    ("a collected output used with its graph (distilled through)", "loss = sum(cka(z, f) for f in feats)", []),
]


@pytest.mark.parametrize("title,use,expected", SENIORS, ids=[c[0] for c in SENIORS])
def test_r5_collected_teacher_outputs(title, use, expected):
    code = _SENIORS.replace("{use}", use)
    assert [(check, line) for line, check in lines_of(code, select=["GA107"])] == expected


def test_r5_loop_over_parameters_still_freezes_everything():
    code = """
import torch
from models import build
model = build().cuda()
for p in params:
    p.requires_grad = False
preds = []
for x in batches:
    preds.append(model(x.cuda()))
"""
    assert lines_of(code, select=["GA107"]) == []
