"""Classes of session 16 (issue 12), each with its must-not twin: discounted returns / GAE computed one time step at a
time over CUDA rollout buffers are launch-bound whatever the rollout's length; a loop over `train_dl` / `self.dl_tr` is a
loop over a loader; in a helper called per step, a switch the object's setup sets (`if self.center:`) or a config
lookup compared with a mode (`self.config['mode'] == 'pretraining'`) holds on every call; a walk over the parts of an
iteration's own output (a loss per head) is part of its step; `if step % 4 != 3:` runs on most iterations and `if
x.shape[0] == 1: pass` leaves the usual path to its else; `.to(x_t.device)` of a tensor the function is handed can
be CUDA; a helper's loop that runs once a call reads per call; a fold's prediction loop after its training call is inference;
a DataLoader over a Dataset whose __getitem__ returns CUDA tensors yields CUDA batches; model.export(path) is
no forward; a comprehension's per-element reads every N steps are the every-N fix; a fill warms
no cuBLAS / cuDNN; a fill given new axes is still a fill; a read nested in a comprehension's element counts; a dataclass's keyword fills its field; an
update after a helper's rollout runs per round; a backward is followed back through assignments to the results; DataLoader options in a dict chosen by `if
use_cuda` are the GPU branch's."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

_REINFORCE = """
import argparse
from dataclasses import dataclass
import torch
@dataclass
class Config:
    episodes: int = 800
    device: str = "cpu"
def run_episode(env, policy, device):
    obs = env.reset()
    log_probs, done = [], False
    while not done:
        logp = policy(torch.as_tensor(obs, device=device))
        action = torch.distributions.Categorical(logits=logp).sample()
        log_probs.append(logp[action])
        obs, reward, done, _ = env.step(int(action.item()))
    return log_probs
def train(cfg, env):
    policy = torch.nn.Linear(4, 2).to(cfg.device)
    opt = torch.optim.Adam(policy.parameters())
    for ep in range(cfg.episodes):
        log_probs = run_episode(env, policy, cfg.device)
        log_probs_t = torch.stack(log_probs)
        loss = -(log_probs_t * 0.5).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(loss.item())
def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    a = p.parse_args()
    return Config(device=a.device)
train(parse(), None)
"""

CASES = [
    ("GA110", "GAE over CUDA buffers by reversed(range(len(rewards))), the advantage carried from step to step, is "
     "launch-bound; the same loop over host lists (rewards kept as Python numbers) is not", """
import torch
device = torch.device("cuda")
def gae(rewards, values, dones, gamma=0.99, lam=0.95):
    rewards = torch.tensor(rewards).to(device)
    values = torch.tensor(values).to(device)
    dones = torch.tensor(dones).to(device)
    advantages = torch.zeros_like(rewards)
    last = 0
    for t in reversed(range(len(rewards) - 1)):
        delta = rewards[t] + gamma * values[t + 1] * (1 - dones[t]) - values[t]
        advantages[t] = last = delta + gamma * lam * (1 - dones[t]) * last
    return advantages
def host_returns(rewards, dones, gamma=0.99):
    returns, running = [], 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running * (1 - dones[t])
        returns.insert(0, running)
    return torch.tensor(returns).to(device)
""", [10]),
    ("GA110", "for r, d in zip(reversed(rewards), reversed(dones)) of CUDA tensors with a running return is the same; "
     "a list of CUDA tensors (sizes unknown) and a loop that also runs a model are not", """
import torch
class Agent:
    def __init__(self, net):
        self.device = torch.device("cuda")
        self.net = net.to(self.device)
        self.gamma = 0.99
    def returns(self, rewards, dones):
        rewards = torch.tensor(rewards, dtype=torch.float32).to(self.device)
        dones = torch.tensor(dones, dtype=torch.float32).to(self.device)
        out, ret = [], 0
        for r, d in zip(reversed(rewards), reversed(dones)):
            ret = r + self.gamma * ret * (1 - d)
            out.insert(0, ret)
        return out
    def listed(self, rewards):
        kept, ret = [], 0
        for r in rewards:
            kept.append(torch.tensor([r], device=self.device))
        for r in reversed(kept):
            ret = r + self.gamma * ret * 0.5 - 1
        return ret
    def evaluated(self, states, rewards):
        rewards = torch.tensor(rewards).to(self.device)
        value = 0
        for t in reversed(range(len(rewards))):
            value = rewards[t] + self.gamma * self.net(states[t]) * value - 1
        return value
""", [12]),
    ("GA103", "a loop over train_dl / self.dl_tr (fastai's spelling of a loader) is a loop of batches; a loop over "
     "a list that is not named as a loader is not known to be one", """
import torch
def gather(train_dl, device="cuda"):
    kept = []
    for x, y in train_dl:
        kept.append(x.to(device).cpu())
    return kept
def look(items, device="cuda"):
    kept = []
    for x in items:
        kept.append(x.to(device).cpu())
    return kept
""", [5]),
    ("GA103", "reads in a helper that the batch loop calls, under `if self.center:` set while building the losses "
     "(a switch of the run) or `if not self.config['mode'] == 'pretraining':`, run on every step; under a flag the "
     "loop itself sets, they run now and then", """
import torch
class Trainer:
    def __init__(self, config, model, loader):
        self.config, self.model, self.loader = config, model.cuda(), loader
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.build_losses()
        self.log_now = False
    def build_losses(self):
        self.center = torch.nn.MSELoss() if self.config["center"] else None
    def step(self, x, y):
        out = self.model(x.cuda())
        loss = torch.nn.functional.cross_entropy(out, y.cuda())
        if self.center:
            print(self.center(out, out.detach()).item())
        if not self.config["mode"] == "pretraining":
            print(loss.item())
        if self.log_now:
            print(out.sum().item())
        loss.backward()
        self.opt.step()
    def fit(self):
        for i, (x, y) in enumerate(self.loader):
            self.log_now = i % 100 == 0
            self.step(x, y)
""", [14, 16]),
    ("GA103", "a validation loop whose loss sums a criterion per head (for i in range(out.shape[1]) of this batch's "
     "output) still reads per batch; an inner loop over steps of its own (an environment's) makes the outer per round",
     """
import torch
def validate(model, batches, criterion, device="cuda"):
    total = 0.0
    with torch.no_grad():
        for x, y in batches:
            out = model(x.to(device))
            loss = 0
            for i in range(out.shape[1]):
                loss = loss + criterion(out[:, i, :], y.to(device))
            total += loss.item()
    return total
def rollouts(policy, env, rounds, device="cuda"):
    for r in range(rounds):
        obs = torch.zeros(4, device=device)
        for t in range(200):
            obs = policy(obs) * 0.5
        print(obs.sum().item())
""", [10]),
    ("GA103", "`if step % 4 != 3:` runs on three iterations of four, so its reads are per step and its else's are "
     "not; `if x.shape[0] == 1: pass` with the work in the else: the else is the usual path", """
import torch
def predict(model, loader, device="cuda"):
    preds = []
    for step, (x, y) in enumerate(loader):
        if step % 4 != 3:
            preds.append(model(x.to(device)).cpu())
        else:
            preds.append(model(x.flip(-1).to(device)).cpu())
    for x, y in loader:
        if x.shape[0] == 1:
            pass
        else:
            preds.append(model(x.to(device)).argmax(1).cpu())
    return preds
""", [6, 13]),
    ("GA104", "torch.zeros(...) moved .to(x_t.device) of the tensor the function is handed (wherever the caller put "
     "it, which can be CUDA) is a fill made on the CPU only to be copied; .to(y.device) of a CPU tensor made here is "
     "no copy to the GPU", """
import torch
class Sampler(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
    def forward(self, x_t, steps):
        for t in range(steps):
            z = torch.zeros(x_t.shape).to(x_t.device)
            x_t = self.model(x_t) + z
        return x_t
def local(n):
    y = torch.ones(n)
    return torch.zeros(n).to(y.device) + y
""", [8]),
    ("GA103", "a helper whose loop runs once a call (for _ in range(number), every call passing 1) reads per batch of "
     "the loop that calls it; with a call passing 50 its loop is the hot one, reported there", """
import torch
def train_for(x, y, model, opt, number):
    for _ in range(number):
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
        opt.step()
        total = loss.item()
    return total
def fit(model, opt, loader):
    for x, y in loader:
        train_for(x, y, model, opt, 1)
""", [7]),
    ("GA107", "a prediction loop after `model = train_net(...)` in a fold's loop is no part of that training: it "
     "records a graph for nothing; a loop whose forwards a backward later in the fold steps back is training", """
import torch
def train_net(model, loader, opt):
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda()).backward()
        opt.step()
    return model
def init():
    model = torch.nn.Linear(8, 2)
    model.cuda()
    return model, torch.optim.SGD(model.parameters(), lr=0.1)
def folds(splits):
    preds = []
    for train_loader, val_loader in splits:
        model, opt = init()
        model = train_net(model, train_loader, opt)
        for x, y in val_loader:
            p = model(x.cuda())
            preds.append(p.cpu().detach().numpy())
    return preds
def summed(splits):
    for train_loader, val_loader in splits:
        model, opt = init()
        outs = []
        for x, y in val_loader:
            outs.append(model(x.cuda()))
        torch.stack(outs).sum().backward()
""", [18]),
    ("GA103", "a Dataset of the file's whose __getitem__ returns CUDA tensors makes every batch of its DataLoader a "
     "CUDA one, also through bar = tqdm(enumerate(loader)); a dataset returning host tensors does not", """
import torch
from torch.utils.data import Dataset, DataLoader
from tqdm import tqdm
device = torch.device("cuda")
class OnDevice(Dataset):
    def __init__(self, X, y):
        self.X, self.y = X, y
    def __len__(self):
        return len(self.X)
    def __getitem__(self, i):
        return {"X": torch.tensor(self.X[i]).to(device), "y": torch.tensor(self.y[i]).to(device)}
class OnHost(OnDevice):
    def __getitem__(self, i):
        return {"X": torch.tensor(self.X[i]), "y": torch.tensor(self.y[i])}
def scores(model, loader):
    bar = tqdm(enumerate(loader), total=len(loader))
    kept = []
    for step, data in bar:
        out = model(data["X"])
        kept.append(data["y"].detach().cpu().numpy())
    return kept
def host_scores(model, loader):
    kept = []
    for data in loader:
        out = model(data["X"])
        kept.append(data["y"].detach().cpu().numpy())
    return kept
net = torch.nn.Linear(1, 1).to(device)
scores(net, DataLoader(OnDevice([[1.0]], [0]), batch_size=4))
host_scores(net, DataLoader(OnHost([[1.0]], [0]), batch_size=4))
""", [20]),
    ("GA107", "model.export(path=...) after eval() writes the model out, it runs no forward; model.embed(x.cuda()) "
     "does", """
import torch
class Runner:
    def __init__(self, model, path):
        self.model = model.cuda()
        self.export_path = path
    def finish(self, x):
        self.model.eval()
        self.model.export(path=self.export_path)
    def look(self, x):
        self.model.eval()
        return self.model.embed(x.cuda())
""", [11]),
    ("GA103", "a gradient norm read per parameter in a comprehension every 100 steps is the every-N fix; the same on "
     "every step waits once per parameter", """
import torch
def train(model, loader, opt):
    model.cuda()
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
        if step % 100 == 0:
            norm = sum(p.grad.norm().item() ** 2 for p in model.parameters())
        every = sum(p.grad.norm().item() ** 2 for p in model.parameters())
        opt.step()
""", [9]),
    ("GA102", "a random fill on the GPU before the clock warms no cuBLAS / cuDNN: the timed first forward of a "
     "conv net is still cold; elementwise work after the fill is warm", """
import time
import torch
import torchvision
net = torchvision.models.resnet18().cuda()
x = torch.rand(64, 3, 224, 224, device="cuda")
t0 = time.time()
y = net(x)
torch.cuda.synchronize()
print(time.time() - t0)
def scale():
    z = torch.rand(1024, device="cuda")
    t1 = time.time()
    w = z * 2
    torch.cuda.synchronize()
    return time.time() - t1
""", [7]),
    ("GA104", "a fill given new axes (mask.triu(1)[None, None, ...]) and then moved is still made only to be copied; "
     "a row picked out of it (mask[0]) is not known to be", """
import torch
def masks(n, device="cuda"):
    mask = -1e9 * torch.ones(n, n)
    mask = mask.triu(diagonal=1)[None, None, ...]
    mask = mask.to(device)
    row = -1e9 * torch.ones(n, n)
    row = row[0]
    return mask, row.to(device)
""", [3]),
    ("GA103", "[class_mapping[i.item()] for i in class_indices] of a CUDA tensor reads once per element, the read "
     "inside the lookup; a lookup by the element itself in a dict hashes the tensor object, no read", """
import torch
def names(model, x):
    class_indices = torch.argmax(model(x.cuda()), dim=1)
    class_mapping = {0: "died", 1: "lived"}
    named = [class_mapping[i.item()] for i in class_indices]
    kept = [class_mapping.get(i) for i in class_indices]
    return named, kept
""", [5]),
    ("GA103", "REINFORCE with a dataclass config filled from --device (Config(device=a.device): the field holds what "
     "the option gives, which can be CUDA): the rollout helper reads its action per environment step; the loss read "
     "once per episode, after the helper's rollout, is per round", _REINFORCE, [15]),
    ("GA107", "the same: the rollout's forwards feed log-probs the caller stacks into the loss it steps back (followed "
     "through log_probs_t = torch.stack(log_probs)), so their graph is used", _REINFORCE, []),
    ("GA106", "**dl_config with dl_config = {'num_workers': 0, 'pin_memory': True} if use_cuda else {}: the options "
     "on a GPU are spelled out (no workers); with four workers and pinning they are right", """
import torch
use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")
dl_config = {"num_workers": 0, "pin_memory": True} if use_cuda else {}
good_config = {"num_workers": 4, "pin_memory": True} if use_cuda else {}
def loaders(train_set, val_set):
    train = torch.utils.data.DataLoader(train_set, batch_size=64, shuffle=True, **dl_config)
    val = torch.utils.data.DataLoader(val_set, batch_size=64, **good_config)
    for x, y in train:
        x = x.to(device)
    return train, val
""", [7]),
    ("GA106", "self.device of a @property that returns torch.device(f'cuda:{self.gpu}' if torch.cuda.is_available() "
     "and self.gpu is not None else 'cpu') is the property's value, a device that can be CUDA (after scoring, r42)", """
import torch
from torch.utils.data import DataLoader
class Utils:
    def __init__(self, gpu=None):
        self.gpu = gpu
    @property
    def device(self):
        return torch.device(f"cuda:{self.gpu}" if torch.cuda.is_available() and self.gpu is not None else "cpu")
    def fit(self, data, model):
        model.to(self.device)
        loader = DataLoader(data, batch_size=32, shuffle=True)
        for x in loader:
            model(x.to(self.device))
""", [11]),
    ("GA106", "PyG's NeighborLoader is a DataLoader (num_workers, pin_memory): default options feeding a CUDA model "
     "load every batch in the main process (after scoring, r43); with workers and pinning it is right", """
import torch
from torch_geometric.loader import NeighborLoader
def loaders(data, model):
    model = model.cuda()
    train = NeighborLoader(data, input_nodes=data.train_mask, batch_size=256, num_neighbors=[10, 10])
    val = NeighborLoader(data, input_nodes=data.val_mask, batch_size=256, num_neighbors=[10, 10], num_workers=4,
                         pin_memory=True)
    for batch in train:
        model(batch.to("cuda"))
    return val
""", [5]),
    ("GA103", "a helper whose loop over the loader breaks after its first batch runs that batch on every call: its "
     "reads count at the loop that calls it (after scoring, r43)", """
import torch
def train(net, loader, opt):
    for images, labels in loader:
        loss = torch.nn.functional.mse_loss(net(images.cuda()), labels.cuda())
        loss.backward()
        opt.step()
        print(loss.item())
        break
def run(net, loaders, opt):
    for loader in loaders:
        train(net, loader, opt)
""", [7]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s16_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
