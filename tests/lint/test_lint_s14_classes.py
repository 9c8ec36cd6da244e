"""Classes of session 14 (issue 12), each with its must-not twin: a parameter that the calls fill with one of
several of the file's functions (`analyze(cfg, extract_a)`, `analyze(cfg, extract_b)`) runs any of them; a comprehension over CUDA rows reads what it
computes from each; a loop's sole call of a
helper reaches the reads of the helpers only it calls; torch 0.3's loss.data[0] is a read;
next(model.parameters()).device of a handed model can be CUDA; a project's own MelSpectrogram records no graph;
a distillation's teacher is a target network; a flag switched once is no guard;
`not t` / `a or b` of CUDA tensors reads them; a tuple result held in a name unpacks element by element;
cached CPU batches walked on every pass of an outer loop are copied again each pass;
an FGSM attack's backward is no training step; integer casts leave no float64; `% 1` is no guard;
a loop of one pass is no loop; an imported def_device can be CUDA;
a factory whose shape only is printed, or cast .to(bool), is still made only to be copied;
a walk under `if i == 0:` runs now and then; d2l.try_gpu() is the GPU; model.eval().cuda() per pass moves the same model;
a script that imports only transformers is checked; a timing class's __exit__ may synchronize first;
a forward two helpers below a step that steps back trains; `reps == 1` with reps fixed is no guard;
`a or b` is a guard only when both are; `i == len(loader) - 1` is one iteration; a function's
branch that returns is taken on any call; a counter reaching a bound in a function is now and then; the else of `% 100 == 0` runs on most steps;
settings.DEFAULT_DEVICE is a configured device; emit_nvtx() around a loop is a debug switch; device=0 is a GPU; einsum on tiny tensors is launch-bound;
a model fed CUDA data is on the GPU, and a helper's walk over its parameters is part of the step;
a tuple unpacking rebinds a copied fill; `len(list) <= 5` of a list the loop fills is the first iterations;
a generator step after a loop of critic steps is a macro step; a bare detect_anomaly(...) statement switches
nothing on; nn.Softmax(dim=1)(x) is no model run; a PPO update's logging runs once per update; nibabel's get_fdata() is float64;
`(i + 1) == len(loader)` is one iteration; an inverted fill is still a fill;
a counter reset in its branch runs it every interval; a clock around a run of full-batch epochs times
training; timeit of a name bound to a statement string times the string; a comprehension over indices reads a CUDA value
computed per index; a batch filled and run is the step, not a guard;
a Grad-CAM loop of per-sample input gradients is a loop of steps; a function called once per setting of a sweep
runs separate experiments; named_parameters() yields a model's tensors;
NumPy fills combined (kron, triu, times a number) are still fills;
a per-step clock restarted at the end of a loop's body times the next iteration's work."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA103", "a parameter filled with one of two extractors returns CUDA indices (each moves its input there): "
     "their per-batch .cpu() reads; filled with two host functions, nothing is read", """
import torch
def extract_a(encoder, x, device):
    return encoder(x.to(device)).argmax(1)
def extract_b(encoder, x, device):
    return encoder(x.to(device)).argmin(1)
def count_a(encoder, x, device):
    return x.argmax(1)
def count_b(encoder, x, device):
    return x.argmin(1)
def analyze(encoder, extract_fn, loader, device):
    for batch in loader:
        idx = extract_fn(encoder, batch, device)
        print(idx.cpu().numpy())
def tally(encoder, count_fn, loader, device):
    for batch in loader:
        idx = count_fn(encoder, batch, device)
        print(idx.cpu().numpy())
device = torch.device("cuda")
analyze(net, extract_a, loader, device)
analyze(net, extract_b, loader, device)
tally(net, count_a, loader, device)
tally(net, count_b, loader, device)
""", [13]),
    ("GA101", "a per-step time read across the loop's back edge (`meter.update(time.time() - end)` ... `end = "
     "time.time()` at the body's end) stops after the queued step; after a .item() read, or around the batch fetch "
     "alone, it is right", """
import time
import torch
model = torch.nn.Linear(10, 10).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
end = time.time()
for itr in range(100):
    data_meter.update(time.time() - end)
    opt.zero_grad()
    loss = model(torch.randn(4, 10, device="cuda")).sum()
    loss.backward()
    opt.step()
    time_meter.update(time.time() - end)
    end = time.time()
for itr in range(100):
    loss = model(torch.randn(4, 10, device="cuda")).sum()
    loss.backward()
    opt.step()
    loss_meter.update(loss.item())
    time_meter.update(time.time() - end)
    end = time.time()
""", [12]),
    ("GA103", "a comprehension over a CUDA tensor's rows that reads a value computed from each row "
     "(`.min().cpu().item()` of `(f - mean) @ prec`) waits once per row; over a CPU tensor, or taking only sizes, it "
     "does not", """
import numpy as np
import torch
feats = torch.randn(1000, 64).cuda()
mean = torch.randn(10, 64).cuda()
host = torch.randn(1000, 64)
scores = np.array([((f - mean) ** 2).sum(-1).min().cpu().item() for f in feats])
host_scores = [((f - 1) ** 2).sum().item() for f in host]
sizes = [len(f.nonzero()) for f in feats]
""", [6]),
    ("GA103", "a loop's sole call of a helper reaches the reads of the helpers only that helper calls "
     "(Metrics.update -> self.distance -> .item()); a nested helper with a second call site is reported at the "
     "helper's calling line (self.gap(p, g)), the session-12 placement one level down -- since session 25 only call "
     "sites in loops count, and gap's second one (summary) is in none: at gap's own read", """
import torch
class Metrics:
    def update(self, p, g):
        d = (p * g).sum()
        self.l.append(d.item())
        m = self.distance(p, g)
    @staticmethod
    def distance(a, b):
        return torch.cdist(a, b).max().item()
class Tracker:
    def update(self, p, g):
        d = (p * g).sum()
        self.l.append(d.item())
        m = self.gap(p, g)
    def summary(self, p, g):
        return self.gap(p, g)
    def gap(self, a, b):
        return torch.cdist(a, b).max().item()
model = Net().cuda()
metrics, tracker = Metrics(), Tracker()
for x, y in loader:
    out = model(x.cuda())
    metrics.update(out, y.cuda())
    tracker.update(out, y.cuda())
""", [5, 9, 13, 18]),
    ("GA103", "torch 0.3's loss.data[0] in a training loop reads the loss like .item(); outputs.data[0] is the "
     "batch's first row, no read", """
import torch
model = Net().cuda()
for data in loader:
    outputs = model(data.cuda())
    loss = criterion(outputs, labels)
    loss.backward()
    train_loss += loss.data[0]
    first = outputs.data[0]
""", [7]),
    ("GA101", "device = next(model.parameters()).device of a model the function is handed can be CUDA: a "
     "datetime clock around its forward does not wait for it; the device of a model the function built on the CPU "
     "is the CPU", """
from datetime import datetime
import torch
def rtf(model, dataset):
    device = next(model.parameters()).device
    for i in range(len(dataset)):
        mel = dataset[i].to(device)
        start = datetime.now()
        sample = model.forward(mel)
        end = datetime.now()
        print((end - start).total_seconds())
def local(dataset):
    net = torch.nn.Linear(4, 4)
    device = next(net.parameters()).device
    for i in range(len(dataset)):
        x = dataset[i].to(device)
        start = datetime.now()
        y = net(x)
        end = datetime.now()
        print((end - start).total_seconds())
""", [9]),
    ("GA107", "a project's own mel-spectrogram transform moved to the GPU has fixed kernels: calling it outside "
     "no_grad records nothing; the model after it does", """
import torch
from data import MelSpectrogramFixed
mel_fn = MelSpectrogramFixed(sample_rate=22050).to("cuda")
model = WaveGrad().to("cuda").eval()
for wav in loader:
    mel = mel_fn(wav.to("cuda"))
    audio = model(mel)
    outputs.append(audio.cpu())
""", [7]),
    ("GA107", "a distillation's teacher run in the student's training step without no_grad records a graph "
     "nobody uses; a teacher whose parameters the optimizer also trains is a second student", """
import torch
teacher_model = Teacher().cuda().eval()
student_model = Student().cuda()
optimizer = torch.optim.SGD(student_model.parameters(), lr=0.1)
for inputs, targets in loader:
    inputs = inputs.cuda()
    teacher_outputs = teacher_model(inputs)
    outputs = student_model(inputs)
    loss = kd_loss(outputs, targets.cuda(), teacher_outputs)
    loss.backward()
    optimizer.step()
teacher2 = Teacher().cuda()
joint = torch.optim.SGD(list(student_model.parameters()) + list(teacher2.parameters()), lr=0.1)
for inputs, targets in loader:
    inputs = inputs.cuda()
    t_out = teacher2(inputs)
    loss = kd_loss(student_model(inputs), targets.cuda(), t_out)
    loss.backward()
    joint.step()
""", [7]),
    ("GA103", "a flag the loop only switches off once (needs_calibration = False after the calibration batches) "
     "leaves its branch running on every step until then; a flag the loop recomputes each step guards its branch", """
import torch
model = Net().cuda()
needs_calibration = True
for batch_idx, x in enumerate(loader):
    out = model(x.cuda())
    if needs_calibration:
        stats.append(out.mean().item())
    if needs_calibration and batch_idx == 200:
        needs_calibration = False
    log_now = batch_idx % 50 == 0
    if log_now:
        print(out.std().item())
""", [7]),
    ("GA103", "`not` of a CUDA tensor, or `a or b` of CUDA tensors, outside a condition asks for its truth value "
     "(a helper returning `not (isnan(t).any() or isinf(t).any())` called per step reads); a CPU check reads nothing", """
import torch
def check_tensor(t):
    return not (torch.isnan(t).any() or torch.isinf(t).any())
def check_host(n):
    t = torch.zeros(n)
    return not (torch.isnan(t).any() or torch.isinf(t).any())
model = Net().cuda()
for x in loader:
    x = x.cuda()
    out = model(x)
    ok = not torch.isnan(out).any()
    keep = check_tensor(out)
    fine = check_host(4)
    n = len(out) or 1
""", [3, 11]),
    ("GA103", "a tuple result held in a name and unpacked later (`result = step(...)`; `loss, acc = result`) gives "
     "each name its own element's kind: a number read with .item() inside the helper formats without a wait", """
import torch
def step(model, x):
    out = model(x)
    return out.sum(), out.mean().item()
model = Net().cuda()
for x in loader:
    result = step(model, x.cuda())
    if result is None:
        continue
    loss, mean = result
    loss.backward()
    print(f"{mean:.3f}")
""", [4]),
    ("GA105", "a list of CPU batches cached once and walked again on every pass of an outer loop copies each batch "
     "to the GPU again per pass; a single pass (tqdm(range(1))), or batches stored on the GPU, copy nothing twice", """
import torch
import tqdm
model = Net().cuda().eval()
batches = []
for b in loader:
    batches.append(b)
for _ in tqdm.tqdm(range(1)):
    for batch in batches:
        _, text = batch
        text = text.to("cuda")
        model(text)
for _ in range(100):
    for i, batch in enumerate(batches):
        _, text = batch
        text = text.to("cuda")
        model(text)
on_gpu = [b.cuda() for b in loader]
for _ in range(100):
    for b in on_gpu:
        model(b.to("cuda"))
""", [15]),
    ("GA103", "a loop of repeated experiments whose own body runs an FGSM attack (backward for the input's "
     "gradient, no optimizer step) is not a loop of steps: its per-run reads after the training epochs are not "
     "per step; the epochs' own read is", """
import torch
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for run in range(10):
    for epoch in range(100):
        opt.zero_grad()
        loss = crit(model(images), label)
        loss.backward()
        opt.step()
        print(loss.item())
    x = images.requires_grad_()
    crit(model(x), label).backward()
    adv = x - 0.1 * x.grad.sign()
    pred = model(adv).argmax(1).cpu()
""", [10]),
    ("GA109", "integer casts leave no float64: torch.from_numpy(labels).long().cuda() of a float64 array moves "
     "int64 data; .double() of it does move float64", """
import numpy as np
import torch
Y = np.zeros((10, 10))
label = torch.from_numpy(Y).long().cuda()
mask = torch.from_numpy(Y).bool().cuda()
data = torch.from_numpy(Y).double().cuda()
""", [6]),
    ("GA103", "`if (epoch + 1) % 1 == 0:` holds on every iteration (an interval of one); `% 10` is a guard; a "
     "loop of one pass (range(len([0.1]))) inside a loop of runs reads once per run, not per step", """
import torch
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for run in range(5):
    for epoch in range(100):
        loss = model(x).sum()
        loss.backward()
        opt.step()
        if (epoch + 1) % 1 == 0:
            print(loss.item())
        if (epoch + 1) % 10 == 0:
            print(loss.item())
    epsilon = [0.1]
    for i in range(len(epsilon)):
        print(model(x).sum().cpu())
""", [10]),
    ("GA103", "a device imported from the project's helpers under a device's name (def_device) can be CUDA: "
     "the loss read per step waits for it; one named cpu_device is the CPU", """
import torch
from helpers import def_device, cpu_device
model = Net().to(def_device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in loader:
    loss = model(x.to(def_device)).sum()
    loss.backward()
    opt.step()
    print(loss.item())
small = Net().to(cpu_device)
for x in loader:
    print(small(x.to(cpu_device)).sum().item())
""", [9]),
    ("GA104", "a CPU factory only printed by its shape before the copy, or cast with .to(bool), is still made only "
     "to be copied; one whose values are printed is used on the CPU", """
import torch
device = torch.device("cuda")
x_cpu = torch.randn(100, 100)
print(f"CPU tensor created: {x_cpu.shape}")
x_gpu = x_cpu.to(device)
mask = torch.ones((4, 8, 1)).to(bool).to(device)
y_cpu = torch.randn(10)
print(y_cpu)
y_gpu = y_cpu.to(device)
""", [3, 6]),
    ("GA103", "a walk over a batch's generated samples under `if i == 0:` in the training loop runs once per epoch "
     "(writing examples out): its per-sample reads are not per step; the same walk on every step is", """
import torch
netG = Generator().cuda()
for epoch in range(10):
    for i, real in enumerate(loader):
        fake = netG(noise).detach()
        if i == 0:
            for k in range(64):
                sample = fake[k].clone()
                save(sample.cpu().numpy())
        for k in range(64):
            sample = fake[k].clone()
            save(sample.cpu().numpy())
""", [12]),
    ("GA103", "d2l.try_gpu() of Dive into Deep Learning (`from d2l import torch as d2l`, d2l's own module, not torch) "
     "is the GPU: a label predicted there and tested per comment reads it; d2l.cpu() is the CPU", """
import torch
from d2l import torch as d2l
net.to(d2l.try_gpu())
labels = [torch.argmax(net(torch.tensor(c, device=d2l.try_gpu())), dim=1) for c in comments]
for i, label in enumerate(labels):
    if label == 1:
        positive.append(comments[i])
host = [torch.argmax(torch.tensor(c, device=d2l.cpu()), dim=0) for c in comments]
for i, label in enumerate(host):
    if label == 1:
        positive.append(comments[i])
""", [6]),
    ("GA105", "model.eval().cuda() on every test-time-augmentation pass moves the same model again; a model built "
     "new in each pass is moved once each", """
import torch
model = Net()
for idx in range(10):
    model.eval().cuda()
    for ims in loader:
        out = model(ims.cuda())
for idx in range(10):
    fresh = Net()
    fresh.eval().cuda()
""", [4]),
    ("GA101", "a timing class whose __exit__ calls torch.cuda.synchronize() before its clock read times the with "
     "body right; one that does not stops the clock after the queued work", """
import time
import torch
class MeasureTime(list):
    def __enter__(self):
        torch.cuda.synchronize()
        self.t0 = time.perf_counter()
    def __exit__(self, *exc):
        torch.cuda.synchronize()
        self.append(time.perf_counter() - self.t0)
class Loose(list):
    def __enter__(self):
        self.t0 = time.perf_counter()
    def __exit__(self, *exc):
        self.append(time.perf_counter() - self.t0)
model = Net().cuda().eval()
x = torch.randn(8, 3, device="cuda")
with torch.no_grad(), MeasureTime():
    y = model(x)
with torch.no_grad(), Loose():
    y = model(x)
""", [14]),
    ("GA107", "a frozen VGG in eval mode whose features feed a perceptual loss two helpers below the training step "
     "that steps back records the graph the backward needs; the same features computed for a report are inference", """
import torch
vgg = VGG().cuda().eval()
def vgg_features(x):
    return vgg(x)
def texture_loss(a, b):
    return (vgg_features(a) - vgg_features(b)).abs().mean()
def total_loss(recon, x):
    return ((recon - x) ** 2).mean() + texture_loss(recon, x)
def report(x):
    return vgg(x).mean()
model = Net().cuda()
opt = torch.optim.Adam(model.parameters())
for x in loader:
    x = x.cuda()
    loss = total_loss(model(x), x)
    loss.backward()
    opt.step()
for x in loader:
    print(float(report(x.cuda())))
""", [10]),
    ("GA103", "`if args.output_dir is not None and reps == 1:` with reps fixed before the loop holds on every "
     "iteration or none: the per-utterance reads of the walk under it run on every batch; `if i == 0:` is a guard", """
import torch
model = Net().cuda().eval()
reps = args.num_repeats
for i, batch in enumerate(loader):
    mel, mel_lens = model(batch.cuda())
    if args.output_dir is not None and reps == 1:
        for k, audio in enumerate(mel):
            audio = audio[:mel_lens[k].item()]
            write(path, audio.cpu().numpy())
    if i == 0:
        for k, audio in enumerate(mel):
            write(path, audio.cpu().numpy())
""", [8, 9]),
    ("GA103", "an epsilon-greedy branch `if not self.training or random.random() > self.epsilon:` runs on most "
     "steps (`or`: a guard only if both sides are): its greedy .item() read counts at the two loops' call sites; "
     "`if step % 2 == 0 or (epoch == last and i == len(loader) - 1):` is a guard", """
import random
import torch
class Agent:
    def __init__(self):
        self.net = QNet().cuda()
    def select_action(self, state):
        state = torch.tensor([state], dtype=torch.float32).cuda()
        if not self.training or random.random() > self.epsilon:
            with torch.no_grad():
                return self.net(state).argmax().item()
        return random.randrange(4)
    def train(self, episodes):
        for episode in range(episodes):
            state, done = env.reset(), False
            while not done:
                action = self.select_action(state)
                state, reward, done, _ = env.step(action)
    def test(self, episodes):
        for episode in range(episodes):
            state, done = env.reset(), False
            while not done:
                action = self.select_action(state)
                state, reward, done, _ = env.step(action)
agent = Agent()
agent.train(100)
agent.test(10)
netG = Gen().cuda()
for epoch in range(10):
    for i, batch in enumerate(loader):
        if i % 2 == 0 or (epoch == 9 and i == len(loader) - 1):
            fake = netG(noise).cpu()
""", [16, 22]),
    ("GA103", "a learner's update() that trains only when its buffer counter reaches the batch size "
     "(`self.size += 1; if self.size == self.batch: ...; return loss.item()`) reads now and then; a greedy branch that "
     "returns its read is taken on any call", """
import torch
class Learner:
    def __init__(self):
        self.net = Net().cuda()
        self.size, self.batch = 0, 20
    def update(self, x):
        self.size += 1
        if self.size == self.batch:
            self.size = 0
            loss = self.net(x.cuda()).sum()
            loss.backward()
            return loss.item()
        return 0
    def act(self, x):
        if x is not None:
            return self.net(x.cuda()).argmax().item()
        return 0
agent = Learner()
for step in range(1000):
    agent.update(obs)
    agent.act(obs)
""", [16]),
    ("GA103", "the else of `if step % 100 == 0:` and of an epsilon-greedy `if training and random.random() < eps:` "
     "runs on most iterations: reads there count; the else of `if loss < best:` (the read itself) does not", """
import random
import torch
model = Net().cuda()
best = 1e9
for step, x in enumerate(loader):
    loss = model(x.cuda()).sum()
    if step % 100 == 0:
        pass
    else:
        running = loss.item()
    if training and random.random() < 0.1:
        action = random.randrange(4)
    else:
        action = model(x.cuda()).argmax().item()
""", [10, 14]),
    ("GA103", "torch.device(settings.DEFAULT_DEVICE) of the project's settings module can be CUDA (a configured "
     "device under any *_DEVICE name): the per-batch loss read waits; settings.CPU_DEVICE is the CPU", """
import torch
import settings
DEVICE = torch.device(settings.DEFAULT_DEVICE)
model = Net().to(DEVICE)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in loader:
    loss = model(x.to(DEVICE)).sum()
    loss.backward()
    opt.step()
    print(loss.item())
HOST = torch.device(settings.CPU_DEVICE)
small = Net().to(HOST)
for x in loader:
    print(small(x.to(HOST)).sum().item())
""", [10]),
    ("GA108", "torch.autograd.profiler.emit_nvtx() left around the whole training loop annotates every op of every "
     "step; emit_nvtx(enabled=False) does nothing", """
import torch
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
with torch.autograd.profiler.emit_nvtx():
    for x in loader:
        model(x.cuda()).sum().backward()
        opt.step()
with torch.autograd.profiler.emit_nvtx(enabled=False):
    for x in loader:
        model(x.cuda()).sum().backward()
        opt.step()
""", [4]),
    ("GA103", "a factory with device=0 (a GPU's index) makes a CUDA tensor: a convergence test `while W_update > "
     "stop:` on its gradient reads it every iteration; device='cpu' does not", """
import torch
W = torch.zeros(784, 10, device=0, requires_grad=True)
W_update = torch.tensor([1.0])
while W_update > 1e-4:
    loss = (X @ W).sum()
    loss.backward()
    W.data = W.data - 0.1 * W.grad
    W_update = torch.norm(0.1 * W.grad)
V = torch.zeros(784, 10, device="cpu", requires_grad=True)
V_update = torch.tensor([1.0])
while V_update > 1e-4:
    loss = (X @ V).sum()
    loss.backward()
    V_update = torch.norm(0.1 * V.grad)
""", [4]),
    ("GA110", "10,000 einsums on tiny CUDA tensors are launch-bound, like 10,000 matmuls (the equation string has "
     "no elements); on 1024x1024 tensors they are not", """
import torch
a = torch.randn(2, 2).cuda()
b = torch.randn(256, 2, 2).cuda()
for _ in range(10000):
    torch.einsum("ab,zbc->zac", a, b)
big = torch.randn(1024, 1024).cuda()
for _ in range(10000):
    torch.einsum("ab,bc->ac", big, big)
""", [5]),
    ("GA103", "a model handed to the training function and fed CUDA batches is on the GPU: a gradient-tracking "
     "helper the loop calls, walking its parameters, reads them per step; a model fed CPU batches is not", """
import torch
def track(model):
    total = 0.0
    for p in model.parameters():
        if p.grad is not None:
            total += p.grad.norm(2).item() ** 2
    return total
def train(model, loader, device):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = crit(model(x), y)
        loss.backward()
        norms.append(track(model))
def train_cpu(model, loader):
    for x, y in loader:
        loss = crit(model(x), y)
        loss.backward()
        norms.append(track_cpu(model))
def track_cpu(model):
    return sum(p.grad.norm(2).item() for p in model.parameters())
""", [6]),
    ("GA104", "a random fill copied to the GPU and then rebound by a tuple unpacking (`pos, ke = run(...)`) is made "
     "only to be copied -- the later reads are of the new binding; one read before it is rebound is used on the CPU", """
import torch
device = torch.device("cuda")
pos = torch.randn(100, 3)
sim = Sim(pos.to(device))
pos, ke = run(sim)
print(pos)
vel = torch.randn(100, 3)
print(vel.mean())
sim2 = Sim(vel.to(device))
vel, pe = run(sim2)
""", [3]),
    ("GA103", "`if len(scores) <= visualize_samples:` (5 by default) of a list the loop appends to runs on the first "
     "few iterations only: its reads are excused; the per-slice score read is not", """
import torch
def predict(model, loader, visualize_samples=5):
    scores = []
    for images, masks in loader:
        pred = model(images.cuda())
        dice = (pred == masks.cuda()).float().mean()
        scores.append(dice.cpu().item())
        if len(scores) <= visualize_samples:
            show(pred.cpu(), dice.cpu().item())
""", [7]),
    ("GA103", "a WGAN's generator step after its loop of critic steps is a macro step: the per-round print is not "
     "per step (the session-10 rule); the critic loop's own read is", """
import torch
netD, netG = D().cuda(), G().cuda()
optD = torch.optim.RMSprop(netD.parameters())
optG = torch.optim.RMSprop(netG.parameters())
for it in range(100000):
    for _ in range(5):
        errD = netD(real.cuda()).mean() - netD(netG(noise).detach()).mean()
        errD.backward()
        optD.step()
        print(errD.item())
    errG = netD(netG(noise)).mean()
    errG.backward()
    optG.step()
    print(errG.item())
""", [10]),
    ("GA108", "torch.autograd.detect_anomaly(check_nan=True) as a bare statement makes a context manager and drops "
     "it: nothing is switched on; `with torch.autograd.detect_anomaly():` around the work is", """
import torch
torch.autograd.detect_anomaly(check_nan=True)
model = Net().cuda()
with torch.autograd.detect_anomaly():
    model(x.cuda()).sum().backward()
""", [4]),
    ("GA107", "nn.Softmax(dim=1)(logits) applies a layer built on the spot (no model run); the eval model's forward "
     "in the same loop records a graph", """
import torch
import torch.nn as nn
model = Net().cuda().eval()
for images in loader:
    logits = model(images.cuda())
    probs = nn.Softmax(dim=1)(logits)
    preds.append(probs.argmax(1))
""", [5]),
    ("GA103", "a PPO update loop: the rollout's per-step action read and the minibatch loop's reads count; the "
     "logging after them runs once per update (its minibatch loop two levels down is the loop of steps)", """
import torch
agent = Agent().cuda()
opt = torch.optim.Adam(agent.parameters())
for update in range(1000):
    for step in range(128):
        action = agent.act(obs.cuda())
        obs, reward, done, info = envs.step(action.cpu().numpy())
    for epoch in range(4):
        for start in range(0, 512, 64):
            loss = agent.loss(batch[start:start + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
            fracs.append(loss.item())
    kl = (loss - 1).abs().mean()
    print(loss.item())
    writer.add_scalar("kl", kl.item(), update)
""", [7, 14]),
    ("GA109", "nibabel's get_fdata() hands back float64 data: copied to the GPU as it is, it is float64 there; cast "
     "to float32 first, it is not", """
import nibabel as nib
import torch
vol = nib.load(path).get_fdata()
x = torch.from_numpy(vol).cuda()
y = torch.from_numpy(nib.load(path).get_fdata().astype("float32")).cuda()
""", [4]),
    ("GA103", "gradient accumulation's `if (i + 1) % k == 0 or (i + 1) == len(loader):` runs now and then (both "
     "sides are guards); the accumulated loss read under it is not per step", """
import torch
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i, x in enumerate(loader):
    acc = acc + model(x.cuda()).sum()
    if (i + 1) % 4 == 0 or (i + 1) == len(loader):
        acc.backward()
        opt.step()
        total += acc.item()
    print(acc.item())
""", [10]),
    ("GA104", "(~torch.eye(n, dtype=torch.bool)).to(device): the identity is made and inverted on the CPU only to be "
     "copied; made on the device it is not", """
import torch
device = torch.device("cuda")
mask = (~torch.eye(64, dtype=torch.bool)).to(device)
ok = ~torch.eye(64, dtype=torch.bool, device=device)
""", [3]),
    ("GA103", "`if logging_counter >= logging_interval: logging_counter = 0` runs once every interval: the loss "
     "reads under it are not per step; the same test without the reset is no guard", """
import torch
model = Net().cuda()
counter = 0
for x in loader:
    loss = model(x.cuda()).sum()
    counter += 1
    if counter >= 100:
        counter = 0
        log(loss.detach().cpu().numpy())
    if counter >= 0:
        log(loss.item())
""", [11]),
    ("GA102", "a clock around a call that trains a model for epochs (an inner training run of full-batch steps) "
     "times a training run, where start-up is noise; one around a single forward is cold", """
import time
import torch
class Attack:
    def step(self):
        self.opt.zero_grad()
        loss = self.model(self.x.cuda()).sum()
        loss.backward()
        self.opt.step()
        return loss.item()
    def inner_train(self):
        for epoch in range(200):
            self.step()
    def run(self):
        start = time.time()
        self.inner_train()
        print(time.time() - start)
net = Net().cuda()
t0 = time.time()
y = net(torch.randn(8, 3, device="cuda"))
print(time.time() - t0)
""", [19]),
    ("GA101", "timeit.timeit(command, ...) with command a name bound to a statement string times what the string "
     "runs: a CUDA forward and backward with no synchronize in it", """
import timeit
import torch
command = "torch.nn.functional.mse_loss(resnet(x), y).backward()"
x = torch.randn(512, 3, 224, 224).to("cuda")
y = torch.randn(512, 512).to("cuda")
resnet = Net().to("cuda")
resnet(x)
print(timeit.timeit(command, number=10, globals=globals()))
""", [8]),
    ("GA103", "[nn.MSELoss()(a[i], b[i]).item() for i in range(len(a))] reads a CUDA loss per index; the same over "
     "CPU tensors reads nothing", """
import numpy as np
import torch
import torch.nn as nn
a, b = model(x.cuda()), y.cuda()
losses = np.array([nn.MSELoss()(a[i], b[i]).item() for i in range(len(a))])
c, d = torch.randn(10, 3), torch.randn(10, 3)
host = [nn.MSELoss()(c[i], d[i]).item() for i in range(len(c))]
""", [5]),
    ("GA103", "`if len(batch) == batch_size or i == len(items) - 1:` runs the model once per filled batch -- the "
     "step itself: the read of its result counts; `if (i + 1) == len(items):` alone is the last iteration", """
import torch
model = Net().cuda()
batch, batch_size = [], args.batch_size
for i, item in enumerate(items):
    batch.append(item)
    if len(batch) == batch_size or i == len(items) - 1:
        out = model(torch.stack(batch).cuda())
        labels += out.argmax(1).tolist()
        batch = []
    if (i + 1) == len(items):
        print(out.sum().item())
""", [8]),
    ("GA103", "a guided Grad-CAM loop over test samples (build the volume in an inner loop, forward, backward for the "
     "input's gradient) is a loop of per-sample steps: its per-sample reads count", """
import torch
model = Net().cuda()
for sample in test_set:
    volumes = []
    for channel in sample:
        volumes.append(torch.Tensor(channel).cuda())
    batch = torch.stack(volumes).unsqueeze(0)
    batch.requires_grad_()
    out = model(batch)
    correct += (out.argmax(1) == label).sum().item()
    out.backward(gradient=one_hot)
    grads = batch.grad[0].cpu()
""", [10, 12]),
    ("GA105", "a function that copies the same test set to the GPU, called once per setting of a sweep (for level in "
     "[0, 0.1, 0.2]), runs separate experiments; called per step of a training loop it copies it again and again", """
import torch
def run(level):
    data = torch.from_numpy(X_test).cuda()
    return model(data)
def step(i):
    data = torch.from_numpy(X_test).cuda()
    return model(data)
for level in [0, 0.1, 0.2]:
    run(level)
for i in range(1000):
    step(i)
""", [6]),
    ("GA103", "`for name, param in model.named_parameters(): if torch.isnan(param.grad).any():` after every backward "
     "reads each CUDA gradient per step; a CPU model's does not", """
import torch
model = Net().cuda()
cpu_model = Net()
for x in loader:
    model(x.cuda()).sum().backward()
    for name, param in model.named_parameters():
        if torch.isnan(param.grad).any():
            print(name)
    cpu_model(x).sum().backward()
    for name, param in cpu_model.named_parameters():
        if torch.isnan(param.grad).any():
            print(name)
""", [7]),
    ("GA104", "NumPy fills combined (np.kron(np.eye(n), np.ones((k, k))), np.triu(np.ones((s, s))), np.ones(d) * t) "
     "and copied to the GPU are constants made on the CPU only to be copied (also by torch.tensor(..., device=), "
     "session 21); a loaded array is data", """
import numpy as np
import torch
mask = torch.from_numpy(np.kron(np.eye(8), (1 - 0.3) * np.ones((4, 4)))).cuda()
causal = torch.tensor(np.triu(np.ones((16, 16))), device="cuda")
target = torch.from_numpy(np.ones(32) * 0.5).cuda()
data = torch.from_numpy(np.kron(np.load(path), np.ones((2, 2)))).cuda()
""", [3, 4, 5]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s14_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected


def test_a_script_that_imports_only_transformers_is_checked():
    """No `torch` or `cuda` in the text: a Hugging Face model placed with device_map="auto" and timed cold."""
    code = """
import time
from transformers import AutoModelForCausalLM
model = AutoModelForCausalLM.from_pretrained(name, device_map="auto")
inputs = tokenizer(prompt, return_tensors="pt").to(model.device)
start = time.perf_counter()
output = model.generate(**inputs, max_new_tokens=64)
end = time.perf_counter()
print(end - start)
"""
    assert lines_of(code, select=["GA102"]) == [(6, "GA102")]
    assert lines_of(code.replace("transformers", "hf_stub"), select=["GA102"]) == []
