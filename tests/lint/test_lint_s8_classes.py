"""Classes of session 8 (issue 12), each with its must-not twin: a literal made on the GPU on every iteration
(GA105), a tiny model class of the user's own (GA110), and the sizes that reach it (list comprehensions,
np.array of a name, Variable)."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA105", "a literal made on the GPU on every iteration is copied each time; one made once, or from the "
     "loop's own values, is not", """
import torch
model = torch.nn.Linear(10, 1).cuda()
lam = torch.tensor(0.5, device="cuda")
for step in range(1000):
    scale = torch.tensor(0.01, device="cuda")
    mask = torch.tensor([1.0, 0.0], device="cuda")
    now = torch.tensor(step, device="cuda")
    loss = model(torch.randn(64, 10, device="cuda")).mean() * scale * lam + mask.sum() + now
for size in [1, 2, 4]:
    sweep = torch.tensor(0.1, device="cuda")
""", [5, 6]),
    ("GA110", "a model class of the user's own, built of one nn.Linear sized by its arguments, trained 1,000 "
     "times on 11 points; reported at the loop body's first copy", """
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable
class LinearRegressionModel(nn.Module):
    def __init__(self, input_dim, output_dim):
        super(LinearRegressionModel, self).__init__()
        self.linear = nn.Linear(input_dim, output_dim)
    def forward(self, x):
        out = self.linear(x)
        return out
x_values = [i for i in range(11)]
x_train = np.array(x_values, dtype=np.float32).reshape(-1, 1)
y_train = np.array([2 * i + 1 for i in x_values], dtype=np.float32).reshape(-1, 1)
model = LinearRegressionModel(1, 1).cuda()
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(1000):
    inputs = Variable(torch.from_numpy(x_train).cuda())
    labels = Variable(torch.from_numpy(y_train).cuda())
    optimizer.zero_grad()
    loss = criterion(model(inputs), labels)
    loss.backward()
    optimizer.step()
""", [19]),
    ("GA110", "a class with sizes kept on self, parameters of its own and relu in forward is a tiny model too",
     """
import torch
import torch.nn as nn
class TwoLayer(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim=1):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.hidden = nn.Linear(input_dim, self.hidden_dim)
        self.out = nn.Linear(self.hidden_dim, output_dim)
        self.scale = nn.Parameter(torch.ones(1))
    def forward(self, x):
        return self.out(torch.relu(self.hidden(x))) * self.scale
model = TwoLayer(input_dim=2, hidden_dim=4).cuda()
opt = torch.optim.Adam(model.parameters())
x = torch.randn(4, 2, device="cuda")
y = torch.randn(4, 1, device="cuda")
for step in range(5000):
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", [17]),
    ("GA110", "a class whose forward loops, calls a conv, reads an attribute __init__ did not size, or that has "
     "other methods, is not known to be tiny", """
import torch
import torch.nn as nn
class Looping(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
    def forward(self, x):
        for _ in range(3):
            x = self.fc(x)
        return x
class Conv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 64, 3)
    def forward(self, x):
        return self.conv(x)
class Configured(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.fc = nn.Linear(2, 1)
        self.cfg = cfg
    def forward(self, x):
        return self.fc(x) * self.cfg.scale
class Helper(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)
    def forward(self, x):
        return self.fc(self.embed(x))
    def embed(self, x):
        return x.repeat(1000, 1)
x = torch.randn(4, 2, device="cuda")
for model in [Looping(), Conv(), Configured(object()), Helper()]:
    model.cuda()
for step in range(5000):
    a = Looping().cuda()(x).sum()
    b = Configured(None).cuda()(x).sum()
    c = Helper().cuda()(x).sum()
""", []),
    ("GA110", "a user class sized by a module constant too large for a tiny op is not reported", """
import torch
import torch.nn as nn
HIDDEN = 4096
class Wide(nn.Module):
    def __init__(self, hidden=HIDDEN):
        super().__init__()
        self.fc = nn.Linear(1024, hidden)
    def forward(self, x):
        return torch.relu(self.fc(x))
model = Wide().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(64, 1024, device="cuda")
for step in range(1000):
    loss = model(x).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", []),
    ("GA103", "an agent's per-step action read counts when the update with its own loop runs only as the episode "
     "ends (a branch that breaks), and also when it runs after every env.step() (session 11: a loop stepping an "
     "environment is a loop of steps, whatever loop of updates it calls; r20 3017, r17 2421)", """
import torch
device = "cuda"
class Agent:
    def __init__(self):
        self.policy = torch.nn.Linear(4, 2).to(device)
        self.opt = torch.optim.Adam(self.policy.parameters())
    def act(self, s):
        return self.policy(torch.tensor(s, device=device)).argmax().item()
    def learn(self, batch):
        for _ in range(10):
            loss = self.policy(torch.randn(8, 4, device=device)).sum()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
def run(env, agent, episodes):
    for episode in range(episodes):
        s = env.reset()
        for t in range(300):
            a = agent.act(s)
            s, r, done, _ = env.step(a)
            if done:
                agent.learn(None)
                break
class Stepper:
    def __init__(self):
        self.policy = torch.nn.Linear(4, 2).to(device)
        self.opt = torch.optim.Adam(self.policy.parameters())
    def choose(self, s):
        return self.policy(torch.tensor(s, device=device)).argmax().item()
    def learn(self, batch):
        for _ in range(10):
            loss = self.policy(torch.randn(8, 4, device=device)).sum()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
def run_every_step(env, stepper, episodes):
    for episode in range(episodes):
        s = env.reset()
        for t in range(300):
            a = stepper.choose(s)
            s, r, done, _ = env.step(a)
            stepper.learn(None)
agent = Agent()
run(None, agent, 100)
run_every_step(None, Stepper(), 100)
""", [8, 29]),
    ("GA110", "sizes and counts from a dataclass config's defaults (cfg: Config) and from a function's returned "
     "tuple (X, y = make_data(cfg)); a field the file builds with two values is unknown", """
from dataclasses import dataclass
import torch
@dataclass
class Config:
    epochs: int = 400
    n: int = 128
@dataclass
class Other:
    n: int = 128
def make_data(cfg: Config):
    X = torch.randn(cfg.n, 2).to("cuda")
    y = torch.randn(cfg.n, device="cuda")
    return X, y
def train(cfg: Config):
    X, y = make_data(cfg)
    model = torch.nn.Linear(2, 1).to("cuda")
    opt = torch.optim.AdamW(model.parameters())
    loss_fn = torch.nn.MSELoss()
    for step in range(cfg.epochs + 1):
        opt.zero_grad()
        loss = loss_fn(model(X).squeeze(-1), y)
        loss.backward()
        opt.step()
def train_other(cfg: Other):
    X = torch.randn(cfg.n, 2, device="cuda")
    model = torch.nn.Linear(2, 1).to("cuda")
    opt = torch.optim.AdamW(model.parameters())
    for step in range(1000):
        loss = (model(X) ** 2).mean()
        loss.backward()
        opt.step()
train(Config())
train_other(Other(n=10))
train_other(Other(n=1_000_000))
""", [21]),
    ("GA103", "self.device that an imported base class sets is a device that can be CUDA; a class with no base that "
     "never sets it says nothing", """
import torch
from base import BaseTrainer
class Trainer(BaseTrainer):
    def train_epoch(self):
        for data in self.data_loader:
            loss = self.model(data.to(self.device)).mean()
            loss.backward()
            self.optimizer.step()
            print(loss.item())
class Plain:
    def run(self):
        for data in self.data_loader:
            loss = self.model(data.to(self.device)).mean()
            loss.backward()
            print(loss.item())
""", [9]),
    ("GA108", "anomaly detection left on in a LightningModule: the Trainer elsewhere picks the device; a CPU tutorial "
     "that trains here is left alone", """
import torch
import lightning as L
class Enhancer(L.LightningModule):
    def __init__(self):
        super().__init__()
        torch.autograd.set_detect_anomaly(mode=True)
        self.net = torch.nn.Linear(4, 4)
    def training_step(self, batch, batch_idx):
        return self.net(batch).mean()
    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())
""", [6]),
    ("GA108", "the CPU tutorial twin: the model is built and trained here, on the CPU", """
import torch
torch.autograd.set_detect_anomaly(True)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(100):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
""", []),
    ("GA103", "t.type(torch.FloatTensor) of a CUDA tensor copies it back every batch; .type(torch.cuda.FloatTensor) "
     "stays on the GPU", """
import torch
def validate(model, loader, device):
    accuracy = 0
    for images, labels in loader:
        out = model(images.to(device))
        equal = out.argmax(1) == labels.to(device)
        accuracy += equal.type(torch.FloatTensor).mean()
        on_gpu = equal.type(torch.cuda.FloatTensor).mean()
    return accuracy
""", [7]),
    ("GA107", "a frozen backbone whose head is replaced by index (model.classifier[6] = nn.Linear(...)) still "
     "records: its eval pass without no_grad is reported; a backbone frozen whole is not", """
import torch
import torchvision
model = torchvision.models.vgg16()
for param in model.parameters():
    param.requires_grad = False
model.classifier[6] = torch.nn.Linear(4096, 102)
backbone = torchvision.models.resnet18()
for param in backbone.parameters():
    param.requires_grad = False
model.cuda().eval()
backbone.cuda().eval()
for images in loader:
    out = model(images.cuda())
    features = backbone(images.cuda())
""", [13]),
    ("GA102", "one finding per cold start: a total around calls of a helper that times the same first forward "
     "itself is left to the helper's clock", """
import time
import torch
def predict(model, x):
    start = time.time()
    out = model(x)
    torch.cuda.synchronize()
    return out, time.time() - start
model = torch.nn.Linear(8, 8).cuda().eval()
begin = time.time()
times = []
for x in [torch.randn(4, 8).cuda() for _ in range(10)]:
    out, took = predict(model, x)
    times.append(took)
torch.cuda.synchronize()
print(time.time() - begin, sum(times) / len(times))
""", [5]),
    ("GA102", "a clock around a configured training run (an update loop of a count the code does not spell out, in "
     "a function it calls) is left alone: the cold start is noise next to it", """
import time
import numpy as np
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
class Net(torch.nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(a, b) for a, b in zip(layers, layers[1:])])
        self.optimizer = torch.optim.Adam(self.parameters())
    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return x
def training_loop(net, iterations):
    epoch = 0
    while epoch <= iterations:
        net.optimizer.zero_grad()
        x = torch.from_numpy(np.random.uniform(size=(5000, 2))).float().to(device)
        loss = net(x).pow(2).mean()
        loss.backward()
        net.optimizer.step()
        epoch = epoch + 1
def create_network(layers, iterations):
    start = time.time()
    net = Net(layers)
    net = net.to(device)
    training_loop(net, iterations)
    end = time.time()
    print("Total Time:", end - start)
""", []),
    ("GA102", "1,000 epochs of a tiny regression timed from a cold start are no such run (the cold start is as long "
     "as they are)", """
import time
import torch
net = torch.nn.Linear(2, 1).to("cuda")
opt = torch.optim.Adam(net.parameters())
start = time.time()
for epoch in range(1000):
    loss = net(torch.randn(64, 2, device="cuda")).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
torch.cuda.synchronize()
print(time.time() - start)
""", [7]),
    ("GA102", "a clock helper of the file's own (def _time(): torch.cuda.synchronize(); return time.time()) is a "
     "clock: its region runs the first CUDA computation cold; the helper's sync closes it right (no GA101)", """
import time
import torch
def _time():
    torch.cuda.synchronize()
    return time.time()
total = 0.0
for _ in range(100):
    inp = torch.randn(8, 40, 256, 64).cuda()
    start = _time()
    out = torch.nn.functional.scaled_dot_product_attention(inp, inp, inp)
    total += _time() - start
print(total)
""", [10]),
    ("GA101", "the same clock helper syncs before it reads the clock: the region is synchronized", """
import time
import torch
def _time():
    torch.cuda.synchronize()
    return time.time()
total = 0.0
for _ in range(100):
    inp = torch.randn(8, 40, 256, 64).cuda()
    start = _time()
    out = torch.nn.functional.scaled_dot_product_attention(inp, inp, inp)
    total += _time() - start
print(total)
""", []),
    ("GA109", "t.astype(np.float32) of a float64 tensor (a slip for .to(torch.float32)) states float32: not reported; "
     "the float64 tensor moved as it is, is", """
import numpy as np
import torch
img = torch.from_numpy(np.random.random((8, 3, 32, 32))).astype(np.float32).cuda()
raw = torch.from_numpy(np.random.random((8, 3, 32, 32))).cuda()
""", [4]),
    ("GA104", "a name rebound in a loop: each binding's own reads count, not the other binding's", """
import torch
ar = torch.rand(100, 100)
ca = ar.cuda(2)
z = torch.einsum("ij,ik,il->jkl", ca, ca, ca)
for i in range(100):
    ar = torch.rand(800, 800)
    ca = ar.cuda(2)
    z = torch.einsum("ji,ki,li->jkl", ca, ca, ca)
data = torch.rand(10)
print(data.sum())
gpu = data.cuda()
""", [2, 6]),
    ("GA101", "timeit.Timer(...) is read where .timeit() runs; timeit.timeit(\"infer()\") times the file's infer()", """
import timeit
import torch
Q = torch.randn(128, 4, 20, 16, device="cuda")
model = torch.nn.Linear(16, 16).cuda()
def infer():
    model(Q)
t0 = timeit.Timer(stmt="torch.nn.functional.scaled_dot_product_attention(Q, Q, Q)", globals={"Q": Q, "torch": torch})
print(t0.timeit(100) / 100)
print(timeit.timeit("infer()", globals=locals(), number=1_000))
""", [8, 9]),
    ("GA105", "an attribute a method of the loop reassigns (self.last_observation = observation) holds new data on "
     "every call; one set only in __init__ is the same each time", """
import torch
class Agent:
    def __init__(self, env, model):
        self.env, self.model, self.device = env, model.cuda(), "cuda"
        self.last_observation = env.reset()
        self.goal = torch.tensor([1.0, 2.0])
    def act(self):
        x = torch.Tensor(self.last_observation).to(self.device)
        return (self.model(x) + self.goal.to(self.device)).argmax().item()
    def train(self):
        while True:
            action = self.act()
            observation, reward, done, _ = self.env.step(action)
            self.last_observation = observation
""", [9]),
    ("GA103", "device = model.device of a model handed in: where the model runs, can be CUDA", """
import torch
def train_network(model, train_loader, optimizer):
    device = model.device
    for x, y in train_loader:
        x = x.to(device=device, dtype=torch.float)
        if torch.isnan(x).any():
            continue
        loss = model(x).mean()
        loss.backward()
        optimizer.step()
""", [6]),
    ("GA107", "one forward timed by a clock started after the model was made (a speed test) records the graph "
     "into the number; a timed training step (backward after it), or model.fit(...), is not inference", """
import time
import torch
from kernels import AttentionLayer
def benchmark(num_heads):
    model = AttentionLayer(dim=128, num_heads=num_heads).cuda()
    x = torch.randn(1, 64, 128, device="cuda")
    torch.cuda.synchronize()
    start = time.time()
    _ = model(x)
    torch.cuda.synchronize()
    return time.time() - start
def step_time(num_heads):
    model = AttentionLayer(dim=128, num_heads=num_heads).cuda()
    x = torch.randn(1, 64, 128, device="cuda")
    start = time.time()
    model(x).sum().backward()
    torch.cuda.synchronize()
    return time.time() - start
def fit_time(model, data):
    model = model.cuda()
    start = time.time()
    model.fit(data)
    return time.time() - start
for h in [1, 2, 4, 8]:
    print(benchmark(h), step_time(h))
""", [9]),
    ("GA107", "_, device = get_cuda_if_available() names a device chosen elsewhere, like device = get_device()", """
import torch
from net import CNN
from cuda import get_cuda_if_available
_, device = get_cuda_if_available()
nets = [CNN(), CNN(), CNN()]
for net in nets:
    net.eval()
    net.to(device)
for x in loader:
    ys = [net(x.to(device)).argmax(dim=1) for net in nets]
""", [10]),
    ("GA103", "a metric handed in as a parameter (train(..., numpy_iou)) runs its host reads every batch; "
     "model.train(True) is no call of the function train()", """
import numpy
import torch
def train(model, train_dl, loss_fn, optimizer, acc_fn, epochs=20):
    for epoch in range(epochs):
        model.train(True)
        for x, y in train_dl:
            x, y = x.to("cuda"), y.to("cuda")
            optimizer.zero_grad()
            outputs = model(x)
            loss = loss_fn(outputs, y)
            loss.backward()
            optimizer.step()
            acc = acc_fn(outputs, y)
def numpy_iou(outs, labels, threshold=0.5):
    inter = numpy.logical_and((outs > threshold).cpu().numpy(), labels.cpu().numpy())
    return inter.sum()
def never_in_a_loop(outs):
    return outs.cpu().numpy()
model = torch.nn.Linear(4, 4).cuda()
train(model, loader, torch.nn.MSELoss(), torch.optim.SGD(model.parameters(), lr=0.1), numpy_iou)
print(never_in_a_loop(model(torch.randn(2, 4, device="cuda"))))
""", [15, 15]),
    ("GA103", "train(..., device=torch.device('cpu')) that the file never calls may be handed a GPU -- its own "
     "model.train() is no call of it; one the file calls with the default stays on the CPU", """
import torch
def train(model, loader, optimizer, criterion, device=torch.device("cpu")):
    model.train()
    for image, label in loader:
        image, label = image.to(device), label.to(device)
        loss = criterion(model(image), label)
        loss.backward()
        optimizer.step()
        print(loss.item())
def evaluate(model, loader, criterion, device=torch.device("cpu")):
    for image, label in loader:
        image, label = image.to(device), label.to(device)
        loss = criterion(model(image), label)
        loss.backward()
        print(loss.item())
evaluate(torch.nn.Linear(4, 2), test_loader, torch.nn.CrossEntropyLoss())
""", [9]),
    ("GA101", "the TPU path (elif tpu:, with torch_xla.step():) runs on no CUDA GPU: its clocks are not CUDA's", """
import time
import torch
def train_one_epoch(model, loader, criterion, optimizer, device, tpu=False):
    for samples, targets in loader:
        if not tpu:
            samples = samples.to(device)
            start = time.time()
            loss = criterion(model(samples), targets.to(device))
            print(time.time() - start)
        elif tpu:
            import torch_xla
            step_start = time.time()
            loss = criterion(model(samples.to(device)), targets.to(device))
            print(time.time() - step_start)
""", [9]),
    ("GA103", "a trainer class: self.device = rank if distributed else get_device(name) can be CUDA; validate() every "
     "N steps does not make the batch loop an epoch loop; the read in train_one_batch runs every batch", """
import torch
from utils import get_device
class Trainer:
    def __init__(self, model, train_loader, val_loader, config, distributed=False, local_rank=0):
        self.device = local_rank if distributed else get_device(config.device)
        self.model = model.to(self.device)
        self.train_loader, self.val_loader = train_loader, val_loader
        self.optimizer = torch.optim.Adam(self.model.parameters())
        self.steps = 0
    def forward_pass(self, data):
        x, y = data
        return torch.nn.functional.cross_entropy(self.model(x.to(self.device)), y.to(self.device))
    def train_one_batch(self, data):
        loss = self.forward_pass(data)
        self.backward_pass(loss)
        return loss.item()
    def backward_pass(self, loss):
        loss.backward()
        self.optimizer.step()
    def validate(self):
        self.model.eval()
        with torch.no_grad():
            for data in self.val_loader:
                self.forward_pass(data)
        self.model.train()
    def train_one_epoch(self):
        for data in self.train_loader:
            loss = self.train_one_batch(data)
            self.steps += 1
            if self.steps % 500 == 0:
                self.validate()
""", [16]),
    ("GA107", "the same trainer: forward_pass runs a model that validate() leaves in eval mode, but the training "
     "step that calls it runs backward on its result: no inference finding", """
import torch
from utils import get_device
class Trainer:
    def __init__(self, model, config):
        self.device = get_device(config.device)
        self.model = model.to(self.device)
    def forward_pass(self, data):
        x, y = data
        return torch.nn.functional.cross_entropy(self.model(x.to(self.device)), y.to(self.device))
    def train_one_batch(self, data):
        loss = self.forward_pass(data)
        self.backward_pass(loss)
    def backward_pass(self, loss):
        loss.backward()
    def validate(self, loader):
        self.model.eval()
        for data in loader:
            self.model(data[0].to(self.device))
""", [18]),
    ("GA103", "map(to_cuda, batch) gives what to_cuda makes: CUDA tensors, read every update step", """
import numpy as np
import torch
def update(model, opt, buffer, device, epochs):
    to_cuda = lambda x: torch.from_numpy(x).to(device=torch.device("cuda"), dtype=torch.float32)
    for epoch in range(epochs):
        states, returns = map(to_cuda, buffer.get())
        loss = ((model(states) - returns) ** 2).mean()
        loss.backward()
        opt.step()
        print(loss.item())
""", [10]),
    ("GA108", "anomaly detection in a train_model() that is handed its model trains code built elsewhere", """
import torch
def train_model(epoch, model, optimizer, batches):
    torch.autograd.set_detect_anomaly(True)
    for ws in batches:
        optimizer.zero_grad()
        loss = model.forward(ws)
        loss.backward()
        optimizer.step()
""", [3]),
    ("GA103", "a loss class of a library made with CUDA weights (FocalLoss(alpha=w).to(device)) is a module: what it "
     "returns is a CUDA tensor, read every step", """
import torch
from losses import FocalLoss
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(8, 2).to(device)
loss_func = FocalLoss(alpha=torch.tensor([0.3, 0.7], device=device))
loss_func = loss_func.to(device)
total = 0.0
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for image, label in loader:
    loss = loss_func(model(image.to(device)), label.to(device))
    loss.backward()
    opt.step()
    total += float(loss)
""", [13]),
    ("GA101", "model.generate(...) tests for its stop token after every token (a host read each step): the clock "
     "after it measures the GPU work; a plain forward is not waited for", """
import time
import torch
from transformers import AutoModelForCausalLM
model = AutoModelForCausalLM.from_pretrained("m").to("cuda")
inputs = torch.randint(0, 100, (1, 16), device="cuda")
start = time.time()
out = model.generate(inputs, max_new_tokens=15)
print(time.time() - start)
start = time.time()
logits = model(inputs)
print(time.time() - start)
""", [11]),
    ("GA105", "moving a parameter-free loss module every epoch (loss_fn.to(device)) walks nothing; the model's move "
     "is reported", """
import torch
def train(epochs, device, loader, model, loss_fn, optimizer):
    for t in range(epochs):
        model.to(device)
        loss_fn.to(device)
        for x, y in loader:
            loss = loss_fn(model(x.to(device)), y.to(device))
            loss.backward()
            optimizer.step()
""", [4]),
    ("GA104", "a fill kept in an attribute (self.real_label = torch.zeros(...)) and copied back into it in the same "
     "method, and a factory wrapped in nn.Parameter, are made on the CPU only to be copied", """
import torch
class GANTrainer:
    def __init__(self, batch_size, cuda=False):
        self.real_label = torch.zeros((batch_size, 1))
        self.data = torch.zeros((batch_size, 1))
        print(self.data.sum())
        if cuda:
            self.real_label = self.real_label.cuda()
            self.data = self.data.cuda()
scale = 0.02
weights = torch.nn.Parameter(scale * torch.rand(4, 4, 2)).cuda()
""", [4, 11]),
    ("GA108", "CUDA_LAUNCH_BLOCKING set to a device list (\"0,1,2,3\": CUDA_VISIBLE_DEVICES' value by mistake) "
     "reads as no number: off; \"1\" is on", """
import os
os.environ["CUDA_LAUNCH_BLOCKING"] = "0,1,2,3,4,5,6,7"
os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
import torch
x = torch.ones(4, device="cuda")
""", [3]),
    ("GA103", "for k, v in losses.items(): k is a key (formatting it reads nothing); a meter's update() handed CUDA "
     "tensors turns them into numbers every step", """
import torch
def train(model, criterion, loader, optimizer, metric_logger, device):
    for samples, targets in loader:
        loss_dict = criterion(model(samples.to(device)), targets.to(device))
        losses = sum(loss_dict.values())
        unscaled = {f"{k}_unscaled": v for k, v in loss_dict.items()}
        losses.backward()
        optimizer.step()
        metric_logger.update(loss=losses, **unscaled)
""", [9]),
    ("GA104", "self.device in a method written outside a class (a trainer mixin's def step(self, real)): a device "
     "configured elsewhere, can be CUDA", """
import torch
def _train_discriminator(self, real):
    noise = torch.randn((self.batch_size, self.z_dim)).to(self.device)
    fake = self.netG(noise)
    return self.netD(real).mean() - self.netD(fake).mean()
""", [3]),
    ("GA103", "an LBFGS closure that builds its loss over layers in a loop, then calls backward, is one step: the "
     "read in it runs every optimizer step", """
import torch
from model import convs
dst = torch.rand(1, 3, 64, 64, requires_grad=True, device="cuda")
optimizer = torch.optim.LBFGS([dst])
def closure():
    optimizer.zero_grad()
    loss = torch.zeros((), device="cuda")
    x = dst
    for conv in convs:
        x = conv(x)
        loss = loss + x.pow(2).mean()
    loss.backward()
    print("%.8f" % loss)
    return loss
for i in range(600):
    optimizer.step(closure)
""", [13]),
    ("GA104", "torch.zeros(shape, dtype=torch.long).random_(0, n).cuda(): drawn in place on the CPU, then copied",
     """
import torch
labels = torch.zeros((8, 32), dtype=torch.long).random_(0, 9).cuda()
""", [2]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s8_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
