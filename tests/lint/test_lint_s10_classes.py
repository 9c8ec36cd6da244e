"""Classes of session 10 (issue 12), each with its must-not twin: counted ``while`` loops, builtins on CUDA
tensors, shapes through joins and reductions, arithmetic of new and old CPU tensors, and a tensor type chosen by
``torch.cuda.FloatTensor if cuda else torch.FloatTensor``."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

_FLAGGED_DEVICE = """
import torch
USE_CUDA = torch.cuda.is_available()
{flag}
device = torch.device("cuda" if USE_CUDA else "cpu")
model = Net().to(device)
for x, y in loader:
    loss = crit(model(x.to(device)), y.to(device))
    loss.backward()
    print(loss.item())
"""

CASES = [
    ("GA103", "pow() of a CUDA tensor is a CUDA tensor: its .item() waits; a count-down while of 3 is a few reads",
     """
import torch
x = torch.tensor(2.0, device="cuda")
w = torch.tensor(3.0, device="cuda", requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
r = 50
while r != 0:
    opt.zero_grad()
    loss = pow(w * x - 1, 2)
    print("loss:", loss.item())
    loss.backward()
    opt.step()
    r -= 1
k = 3
while k > 0:
    print(abs(w - x).item())
    k -= 1
""", [9]),
    ("GA110", "a 5-step count-down while is too short to be launch-bound; a 10,000-step one is", """
import torch
x = torch.tensor(2.0, device="cuda")
w = torch.tensor(3.0, device="cuda", requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
r = 5
while r != 0:
    loss = (w * x - 1) ** 2
    loss.backward()
    opt.step()
    r -= 1
n = 10000
while n > 0:
    loss = (w * x - 1) ** 2
    loss.backward()
    opt.step()
    n -= 1
""", [13]),
    ("GA110", "torch.cat of spelled-out pieces and a per-column mean keep their sizes: a (100, 3) regression is tiny",
     """
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
inputs = torch.cat([torch.rand(100, 1), torch.rand(100, 1) * 20, torch.rand(100, 1) * 900], dim=1)
inputs_norm = (inputs - inputs.mean(dim=0)) / inputs.std(dim=0)
inputs_norm = inputs_norm.to(device)
w = torch.randn(3, 1, requires_grad=True, device=device)
for i in range(10000):
    loss = torch.mean(torch.square(inputs_norm @ w - 1.0))
    loss.backward()
    with torch.no_grad():
        w -= 0.001 * w.grad
    w.grad.zero_()
big = torch.cat([torch.rand(100000, 1), torch.rand(100000, 1)], dim=1).to(device)
v = torch.randn(2, 1, requires_grad=True, device=device)
for i in range(10000):
    big_loss = torch.mean(torch.square(big @ v))  # (sizes are per name, not per line: its own name)
    big_loss.backward()
""", [8]),
    ("GA104", "targets computed from data and a little noise are data, not a fill made only to be copied", """
import torch
device = "cuda"
inputs = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
targets = inputs @ torch.tensor([[1.1], [2.2]]) + 0.1 * torch.randn(2, 1)
targets = targets.to(device)
noise = torch.randn(2, 1) * 0.5 + torch.rand(2, 1)
noise = noise.to(device)
""", [6]),  # (a combination of fills, reported where it is made since session 26: r68 dev 17954, r64 held-out 16462)
    ("GA104", "np.pi is a number: (torch.rand(1, n) * 2 * np.pi).to(device) is a fill made only to be copied", """
import numpy as np
import torch
device = "cuda"
phase = (torch.rand(1, 64) * 2 * np.pi).to(device)
""", [4]),
    ("GA104", "z.type(Tensor) with Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor copies z to the GPU",
     """
import torch
cuda = torch.cuda.is_available()
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
for imgs, _ in loader:
    real = imgs.type(Tensor)
    z = torch.randn(imgs.size(0), 100)
    z = z.type(Tensor)
    loss = G(z).mean() + real.mean()
""", [6]),
    ("GA103", "a numpy array or a list indexed by CUDA scalars reads each index back; a dict hashes the tensor", """
import numpy as np
import torch
model = Net().cuda()
confusion = np.zeros((10, 10))
classes = ["cat", "dog"]
seen = {}
for x, y in loader:
    x, y = x.cuda(), y.cuda()
    with torch.no_grad():
        pred = model(x).argmax(1)
    for t, p in zip(y, pred):
        confusion[t, p] += 1
    for p in pred:
        print(classes[p])
        seen[p] = True
""", [12, 14]),
    ("GA107", "model.act() of a method decorated @torch.no_grad() records nothing; model.evaluate() does", """
import torch
import torch.nn as nn
class Agent(nn.Module):
    @torch.no_grad()
    def act(self, obs):
        return self.net(obs).argmax()
    def evaluate(self, obs):
        return self.net(obs)
model = Agent().cuda()
for step in range(1000):
    obs = torch.randn(1, 4, device="cuda")
    a = model.act(obs)
    v = model.evaluate(obs)
""", [13]),
    ("GA107", "a model's helper that only its forward calls runs in the grad mode the forward's caller picks", """
import torch
import torch.nn as nn
class Detector(nn.Module):
    def voxel_heads(self, feats):
        return [self.heads[i](feats) for i in range(3)]
    def pnet_pass(self, feats):
        out = []
        for i in range(3):
            out.append(self.pnets[i](feats))
        return out
    def forward(self, x):
        return self.pnet_pass(self.backbone(x)), self.voxel_heads(x)
net = Detector().cuda()
for x, y in loader:
    loss = crit(net(x.cuda()), y.cuda())
    loss.backward()
""", []),
    ("GA101", "whisper's model.transcribe() hands back text: it has waited for the GPU; the first one is cold", """
import time
import whisper
model = whisper.load_model("turbo").cuda()
audio = whisper.load_audio(path)
start = time.time()
result = model.transcribe(audio)
print(time.time() - start)
for segment in result["segments"]:
    print(segment["text"])
""", []),
    ("GA105", "a literal made on the GPU in a loss helper the loop calls is copied every call; a lambda's x varies",
     """
import torch
import numpy as np
def weighted_loss(recon, target):
    one = torch.tensor(1.0, device="cuda")
    return ((recon - target) ** 2 * one).mean()
def to_gpu(arrays):
    return list(map(lambda x: torch.from_numpy(x).cuda(), arrays))
model = Net().cuda()
for x, y in loader:
    xs = to_gpu([x, y])
    loss = weighted_loss(model(xs[0]), xs[1])
    loss.backward()
""", [4]),
    ("GA108", "a profiler around one call whose block only zeroes its inputs' grads in a loop profiles one call",
     """
import torch
from torch.profiler import profile, ProfilerActivity
def profile_once(func, inputs):
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        out = func(*inputs)
        for i in inputs:
            if i.grad is not None:
                i.grad.zero_()
    return prof.key_averages().table()
def profile_steps(model, x):
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(100):
            model(x.cuda())
    return prof
""", [11]),
    ("GA103", "batches of a DataLoader over CUDA tensors are CUDA tensors: loss.item() per batch waits", """
import torch
from torch.utils.data import DataLoader, TensorDataset
x = torch.tensor(df.values, dtype=torch.float32).to("cuda")
y = torch.tensor(labels).to("cuda")
loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
net = mlp.net()
opt = torch.optim.Adam(net.parameters())
for epoch in range(20):
    running = 0.0
    for xb, yb in loader:
        loss = loss_fn(net(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
""", [15]),
    ("GA103", "model.linear.weight of a model moved to CUDA is a CUDA parameter: .item() every step waits", """
import torch
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
class Line(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(1, 1)
    def forward(self, x):
        return self.linear(x)
model = Line().to(device)
cpu_model = Line()
x = torch.ones(8, 1, device=device)
for step in range(1000):
    model(x).sum().backward()
    print(model.linear.weight.item(), cpu_model.linear.weight.item())
""", [14]),
    ("GA110", "SGD(params=model.parameters()) of a tiny model; x.to(device) of a tensor already there is no first op",
     """
import torch
import torch.nn as nn
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
class Reg(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(1, 1)
    def forward(self, x):
        return self.linear(x)
x_train = torch.tensor([[1.0], [2.0], [3.0]]).to(device)
y_train = torch.tensor([[2.0], [4.0], [6.0]]).to(device)
model = Reg().to(device)
crit = nn.MSELoss()
opt = torch.optim.SGD(params=model.parameters(), lr=0.01)
for epoch in range(1000):
    inputs = x_train.to(device)
    loss = crit(model(inputs), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
""", [17]),
    ("GA103", "model.forward(x) of the file's own model moved to CUDA gives a CUDA tensor, as model(x) does", """
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.head = Head()
    def forward(self, x, idx):
        return self.head(x, idx)
model = Model().to(device)
opt = torch.optim.Adam(model.parameters())
def train():
    pred = model.forward(data.x, data.idx)
    loss = torch.nn.BCEWithLogitsLoss()(pred, data.y)
    loss.backward()
    opt.step()
    return float(loss)
for epoch in range(200):
    print(train())
""", [16]),
    ("GA103", "USE_CUDA = False just after USE_CUDA = torch.cuda.is_available(): the device is the CPU",
     _FLAGGED_DEVICE.format(flag="USE_CUDA = False"), []),
    ("GA103", "a flag set False by a branch fixes nothing",
     _FLAGGED_DEVICE.format(flag="if quick:\n    USE_CUDA = False"), [10]),
    ("GA107", "two top-level predictions of an eval model each record a graph; so do two lines in one function "
              "(session 17: each line that calls the model is its own fix, as the labels of r35 and r42 set it)",
     """
import torch
net = Net().cuda()
net.eval()
proba = net(X_test).cpu().detach().numpy()
labels = torch.max(net(X_test), 1)[1].cpu().numpy()
def predict(x):
    a = net(x).cpu()
    b = net(x).argmax(1).cpu()
    return a, b
""", [4, 5, 7, 8]),
    ("GA103", "config.DEVICE of the project's `import config` is a configured device (can be CUDA); np.pi is no device",
     """
import numpy as np
import torch
import config
def train_fn(model, data_loader, optimizer):
    total = 0
    for data in data_loader:
        for k, v in data.items():
            data[k] = v.to(config.DEVICE)
        _, loss = model(**data)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total
def angles(data_loader):
    for x in data_loader:
        print((x.to(np.pi) * 2).sum().item())
""", [12]),
    ("GA104", "torch.zeros(b, h).to(src.device) in a GPU program is made on the CPU only to be copied to the input's device",
     """
import torch
import torch.nn as nn
class Tagger(nn.Module):
    def forward(self, src):
        h0 = torch.zeros(src.size(0), 64).to(src.device)
        return self.rnn(src, h0)
model = Tagger().cuda()
""", [5]),
    ("GA104", "the same without the .cuda() line: the device of the input the forward is handed can be CUDA (the "
     "session-9 convention; until session 16 this twin expected nothing -- r37/r40's labellers set it so, +10 found "
     "on r34-r41, no new false alarm)", """
import torch
import torch.nn as nn
class Tagger(nn.Module):
    def forward(self, src):
        h0 = torch.zeros(src.size(0), 64).to(src.device)
        return self.rnn(src, h0)
""", [5]),
    ("GA104", "a file with no sign of CUDA at all is CPU code", """
import torch
import torch.nn as nn
class Tagger(nn.Module):
    def forward(self, src):
        h0 = torch.zeros(src.size(0), 64)
        return self.rnn(src, h0)
""", []),
    ("GA104", "torch.eye(3).unsqueeze(0).repeat(b, n, 1, 1).to(dev), and rot = torch.eye(3) repeated on a later line",
     """
import torch
class Runner:
    def __init__(self, device):
        self.device = device
    def calib(self, n):
        dummy = torch.eye(3).unsqueeze(0).repeat(1, n, 1, 1).to(self.device)
        rot = torch.eye(3)
        rots = rot.unsqueeze(0).repeat(1, n, 1, 1)
        return dummy, rots.to(self.device)
runner = Runner("cuda")
""", [6, 7]),
    ("GA102", "a warm-up the constructor runs (self._warmup() in __init__) comes before any method's clock", """
import time
import torch
class Engine:
    def __init__(self, model):
        self.model = model.cuda().eval()
        self._warmup()
    def _warmup(self):
        x = torch.zeros(1, 3, 224, 224, device="cuda")
        with torch.no_grad():
            self.model(x)
    def infer(self, x):
        t0 = time.time()
        with torch.no_grad():
            out = self.model(x.cuda())
        torch.cuda.synchronize()
        return out, time.time() - t0
""", []),
    ("GA107", "model.encode(texts * n) is a library's text API: it runs without autograd and hands back arrays", """
import time
import torch
from sentence_transformers import SentenceTransformer
model = SentenceTransformer("all-MiniLM-L6-v2")
model = model.cuda()
single = ["a sentence", "another one"]
batched = single * (64 // len(single))
for _ in range(100):
    t0 = time.perf_counter()
    emb = model.encode(batched)
    print(time.perf_counter() - t0)
""", []),
    ("GA104", "noises.data.copy_(torch.randn(...)) into a CUDA tensor draws on the CPU only to copy; a CPU buffer does not",
     """
import torch
noises = torch.empty(64, 100, 1, 1, device="cuda")
cpu_buf = torch.empty(64, 100)
for real in loader:
    noises.data.copy_(torch.randn(64, 100, 1, 1))
    cpu_buf.copy_(torch.randn(64, 100))
    loss = D(G(noises)).mean()
""", [5]),
    ("GA104", "gpu = False, a module constant never rebound, makes a function's conditional device the CPU", """
import torch
gpu = False
def train():
    device = torch.device("cuda") if gpu else torch.device("cpu")
    labels = torch.ones(64).to(device)
    return labels
def train_on(use_gpu):
    device = torch.device("cuda") if use_gpu else torch.device("cpu")
    return torch.ones(64).to(device)
""", [9]),
    ("GA107", "a decoder's sample() the file never calls runs in its caller's grad mode (the caller is not shown)", """
import torch
import torch.nn as nn
class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(1000, 256)
        self.lstm = nn.LSTM(256, 512, batch_first=True)
        self.out = nn.Linear(512, 1000)
    def forward(self, feats, caps):
        return self.out(self.lstm(torch.cat([feats, self.embed(caps)], 1))[0])
    def sample(self, feats, max_len=20):
        ids, x, h = [], feats, None
        h = (torch.zeros(1, 1, 512).cuda(), torch.zeros(1, 1, 512).cuda())
        for _ in range(max_len):
            out, h = self.lstm(x, h)
            word = self.out(out).argmax(2)
            ids.append(word)
            x = self.embed(word)
        return ids
decoder = Decoder().cuda()
""", []),
    ("GA103", "a loop inside `if visualization: ...; return score` runs all its iterations (no loop around the if)", """
import torch
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
def score(model, loader, visualization=False):
    if visualization:
        total = 0
        for x, y in loader:
            out = model(x.to(device))
            total += (out.argmax(1) == y.to(device)).sum().item()
        return total
    for x, y in loader:
        if torch.isnan(model(x.to(device))).any():
            raise ValueError("nan")
""", [8, 11]),
    ("GA107", "an agent's critic trained in the same file (critic.training_step) is no target net; a training step is no"
     " forward", """
import torch
import torch.nn as nn
class Agent:
    def __init__(self, actor, critic, device):
        self.actor, self.critic, self.device = actor.to(device), critic.to(device), device
        self.teacher = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
    def pick(self, state):
        return self.actor(torch.as_tensor(state, device=self.device)).detach().cpu().numpy()
    def train(self, states, rewards, next_states, actions):
        next_values = self.critic(next_states).detach()
        value_loss = self.critic.training_step((states, rewards + 0.99 * next_values))
        policy_loss = self.actor.training_step((states, actions))
        return value_loss.detach().item(), policy_loss.detach().item()
    def teacher_targets(self, states):
        return self.teacher(states).detach()
agent = Agent(Actor(), Critic(), "cuda")
""", [15]),
    ("GA107", "a DQN's target net used undetached in act() still only makes targets in learn(): its detached forward "
     "records a graph for nothing", """
import torch
class Agent:
    def __init__(self, device):
        self.local = QNetwork().to(device)
        self.target = QNetwork().to(device)
    def act(self, state):
        return self.target(state).argmax(1)
    def learn(self, states, rewards, next_states):
        q_next = self.target(next_states).detach().max(1)[0]
        loss = ((rewards + 0.99 * q_next - self.local(states).max(1)[0]) ** 2).mean()
        loss.backward()
agent = Agent("cuda")
""", [9]),
    ("GA107", "a DQN without a target net: the next-state forward of the net the same function trains is its step",
     """
import torch
class Agent:
    def __init__(self, device):
        self.actor = QNetwork().to(device)
    def train(self, states, rewards, next_states):
        current_q = self.actor(states).max(1)[0]
        next_q = self.actor(next_states).detach().max(1)[0]
        loss = ((rewards + 0.99 * next_q - current_q) ** 2).mean()
        loss.backward()
agent = Agent("cuda")
""", []),
    ("GA103", "if args.model_architecture == 'joint': is a mode picked once, true on every step; if step == 0: is not",
     """
import torch
def train(args, model, loader, opt, device):
    for step, (x, y) in enumerate(loader):
        out = model(x.to(device))
        loss = out.loss
        loss.backward()
        opt.step()
        if args.model_architecture == "joint":
            tp = torch.sum((out.logits > 0.5) & (y.to(device) == 1)).item()
        if step == 0:
            print(loss.item())
""", [9]),
    ("GA102", "a training run's clock shown as hours (time.strftime of time.gmtime(elapsed)) is a job timer, no benchmark",
     """
import time
import torch
model = Net().cuda()
start = time.time()
for step in range(100000):
    loss = model(torch.randn(64, 8, device="cuda")).sum()
    loss.backward()
    if step % 1000 == 0:
        print(time.strftime("%H:%M:%S", time.gmtime(time.time() - start)))
""", []),
    ("GA102", "the first model.transcribe() of a fresh model is timed cold", """
import time
import whisper
model = whisper.load_model("turbo").cuda()
start = time.time()
result = model.transcribe("a.wav")
print(time.time() - start)
""", [5]),
]


def test_a_loader_over_cuda_tensors_is_told_to_slice_batches_not_to_pin():
    """pin_memory=True fails on CUDA tensors and a forked worker cannot use CUDA: the advice is to slice batches."""
    from advisor.lint import lint_text

    code = (
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n"
        "x = torch.randn(1000, 8, device='cuda')\ny = torch.randn(1000, 1, device='cuda')\n"
        "loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)\n"
        "cpu_loader = DataLoader(TensorDataset(x.cpu(), y.cpu()), batch_size=64)\n"
    )
    found = {f.line: f for f in lint_text(code, path="snippet.py", select=["GA106"])}
    assert sorted(found) == [5, 6]
    assert "already on the GPU" in found[5].message and "pin_memory=True" not in found[5].message
    assert "randperm" in (found[5].fix or "")
    assert "no pin_memory=True" in found[6].message


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s10_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
