"""Classes of session 11 (issue 12), each with its must-not twin: an RL policy's action handed back from
``policy.act(obs.to(device))`` of a policy the file receives, and a loop that steps an RL environment as a loop of
steps whatever loop of updates runs inside it; a target network's forward in a training step with autograd on; a predictor library's pipeline placed on CUDA, timed
cold; cold runs dropped by an outer loop's counter; the elements of a tuple a method of the file's own class returns; per-epoch values read in a comprehension after training."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA103", "a received policy's act() handed CUDA observations gives a CUDA action: its .cpu() per env step "
     "waits; the same policy handed CPU observations does not", """
import torch
def evaluate(env, policy, device, episodes):
    obs = env.reset()
    done_count = 0
    while done_count < episodes:
        with torch.no_grad():
            _, action, _ = policy.act(torch.from_numpy(obs).float().to(device), deterministic=True)
        obs, reward, done, info = env.step(action.cpu().numpy())
        done_count += int(done)
def evaluate_on_cpu(env, policy, episodes):
    obs = env.reset()
    for _ in range(episodes):
        action = policy.act(torch.from_numpy(obs).float())
        obs, reward, done, info = env.step(action.cpu().numpy())
""", [8]),
    ("GA103", "a loop that steps the environment and then runs its own loop of updates (SAC's updates per step) "
     "is a loop of steps: the action read in it counts; an epoch loop around a loop over batches stays per epoch",
     """
import torch
class SAC:
    def __init__(self, env, device):
        self.env = env
        self.device = device
        self.policy = torch.nn.Linear(4, 2).to(device)
        self.q = torch.nn.Linear(6, 1).to(device)
        self.opt = torch.optim.Adam(self.q.parameters())
    def train(self, episodes, updates_per_step):
        for episode in range(episodes):
            state, done = self.env.reset(), False
            while not done:
                action = self.policy(torch.from_numpy(state).float().to(self.device))
                state, reward, done, _ = self.env.step(action.cpu())
                for _ in range(updates_per_step):
                    loss = self.q(torch.randn(8, 6, device=self.device)).mean()
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
def fit(model, loader, opt, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            loss = (model(x.cuda()) - y.cuda()).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(loss.item())
""", [14]),
    ("GA107", "a target network (named as a copy, no optimizer over it) run with autograd on in a training step that "
     "runs backward: reported once per network; not under no_grad, not a 'target' model an optimizer trains, not "
     "an attack's target classifier fed a generator's output (the backward pass needs that graph)", """
import copy
import torch
device = "cuda"
q = torch.nn.Linear(4, 2).to(device)
target_q = copy.deepcopy(q)
opt = torch.optim.Adam(q.parameters())
def update(s, a, r, s2):
    q_next = target_q(s2).max(1)[0]
    loss = (q(s).gather(1, a) - (r + 0.99 * q_next)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
def update_quiet(s, a, r, s2):
    with torch.no_grad():
        q_next = target_q(s2).max(1)[0]
    loss = (q(s).gather(1, a) - (r + 0.99 * q_next)).pow(2).mean()
    loss.backward()
target_encoder = torch.nn.Linear(8, 8).to(device)
enc_opt = torch.optim.SGD(target_encoder.parameters(), lr=0.1)
def train_encoder(x):
    loss = target_encoder(x).pow(2).mean()
    loss.backward()
    enc_opt.step()
generator = torch.nn.Linear(4, 8).to(device)
target = torch.nn.Linear(8, 3).to(device)
gen_opt = torch.optim.Adam(generator.parameters())
def attack_step(z):
    fake = generator(z)
    loss = target(fake).logsumexp(1).mean()
    loss.backward()
    gen_opt.step()
""", [8]),
    ("GA102", "a diffusers pipeline moved to CUDA runs its model there: a clock around its first call times a cold "
     "start; the same after a warm-up call, or a pipeline left on the CPU, is quiet", """
import time
import torch
from diffusers import StableDiffusionPipeline
pipe = StableDiffusionPipeline.from_pretrained("sd", torch_dtype=torch.float16)
pipe = pipe.to("cuda")
start = time.time()
image = pipe("a cat").images[0]
print(time.time() - start)
cpu_pipe = StableDiffusionPipeline.from_pretrained("sd")
start = time.time()
image = cpu_pipe("a cat").images[0]
print(time.time() - start)
""", [7]),
    ("GA102", "a warm-up call of the pipeline before the clock: nothing to report", """
import time
from diffusers import DiffusionPipeline
pipe = DiffusionPipeline.from_pretrained("sd").to("cuda")
pipe("warm-up", num_inference_steps=2)
start = time.time()
image = pipe("a cat").images[0]
print(time.time() - start)
""", []),
    ("GA101", "the pipeline hands back images read on the host: its end waits for the GPU, no synchronize needed",
     """
import time
from transformers import pipeline
asr = pipeline("automatic-speech-recognition", model="whisper", device=0)
asr("warm.wav")
start = time.time()
text = asr("a.wav")
print(time.time() - start)
""", []),
    ("GA102", "the cold runs are dropped by the counter of an outer loop around a clock per chunk (if batch >= "
     "warmup:), not only by the counter of the clock's own loop", """
import time
import torch
model = torch.nn.Linear(8, 8).cuda().eval()
chunks = [torch.ones(4, 8) for _ in range(5)]
total = 0.0
for batch in range(6):
    for chunk in chunks:
        start = time.time()
        out = model(chunk.cuda())
        torch.cuda.synchronize()
        end = time.time()
        if batch >= 3:
            total += end - start
print(total)
""", []),
    ("GA103", "next_state, reward, done = env.step(a) of the file's own environment class: the state is a CUDA tensor, "
     "the flag is a Python bool -- `if done:` reads nothing (an early `return` of a helper is no value either)", """
import torch
class Env:
    def __init__(self):
        self.done = False
    def step(self, action):
        if self.done:
            return
        self.done = action > 3
        return torch.ones(4, device="cuda"), 1.0, self.done
policy = torch.nn.Linear(4, 2).cuda()
env = Env()
state = torch.zeros(4, device="cuda")
for t in range(1000):
    action = policy(state).argmax()
    state, reward, done = env.step(t)
    if done:
        break
    print(state.sum().item())
""", [18]),
    ("GA103", "[v.item() for v in losses] after training, losses appended once per epoch: a handful of reads once; "
     "the same over predictions appended per batch is one wait per batch", """
import torch
model = torch.nn.Linear(8, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
epoch_losses, batch_preds = [], []
for epoch in range(10):
    total = 0
    for x, y in loader:
        loss = (model(x.cuda()) - y.cuda()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.detach()
        batch_preds.append(model(x.cuda()).detach())
    epoch_losses.append(total / len(loader))
history = [v.item() for v in epoch_losses]
values = [p.item() for p in batch_preds]
""", [16]),
    ("GA103", "a helper that reads its own parameter (free_tensor(x): x.detach().cpu()) reads at a call handed a CUDA "
     "tensor, not at one handed the loader's CPU batch, whatever other calls pass", """
import torch
def free_tensor(x):
    return x.detach().cpu().numpy()
model = torch.nn.Linear(8, 2).cuda()
outputs, ys = [], []
with torch.no_grad():
    for X, y in loader:
        outputs.append(free_tensor(model(X.cuda())))
        ys.append(free_tensor(y))
print(free_tensor(model(torch.ones(1, 8).cuda())))
""", [8]),
    ("GA102", "a model handed in, warmed up on a dummy input before the clocks in the same function, is warm whatever "
     "the pass can tell of that dummy's device; a model timed on the CPU and then moved to CUDA is not", """
import time
import torch
def gpu_speed_test(model, images):
    dummy = torch.rand(1, 3, 256, 256)
    with torch.no_grad():
        for _ in range(100):
            model(dummy)
        torch.cuda.synchronize()
        for image in images:
            start = time.time()
            model(image.cuda())
            torch.cuda.synchronize()
            print(time.time() - start)
def cpu_then_gpu(net, x):
    start = time.time()
    net(x)
    print(time.time() - start)
    net.cuda()
    start = time.time()
    net(x.cuda())
    torch.cuda.synchronize()
    print(time.time() - start)
""", [20]),
    ("GA104", "a torch function of fills only (F.one_hot(torch.arange(n)), torch.block_diag of torch.ones blocks) made "
     "on the CPU and copied: reported at the fill; one_hot of the labels the loader gives is data", """
import torch
import torch.nn.functional as F
def forward(feats, labels, n_ways, n_shots, k):
    support = F.one_hot(torch.arange(n_ways).repeat(n_shots)).cuda()
    mask = torch.block_diag(*[torch.ones(k, k) for _ in range(n_ways)]).bool().cuda()
    targets = F.one_hot(labels).cuda()
    return feats @ support.T.float(), mask, targets
""", [4, 5]),
    ("GA109", "layers cast with .double() in a model's __init__, the model moved to CUDA: reported at each cast, not at "
     "every forward; a float64 model kept on the CPU is not reported", """
import torch
import torch.nn as nn
class FCNet(nn.Module):
    def __init__(self, n, h):
        super().__init__()
        self.fc1 = nn.Linear(n, h).double()
        self.fc2 = nn.Linear(h, 2).double()
    def forward(self, x):
        return self.fc2(self.fc1(x))
class CpuNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4).double()
    def forward(self, x):
        return self.fc(x)
model = FCNet(8, 16).to("cuda")
reference = CpuNet()
for x in batches:
    out = model(x.to("cuda"))
    ref = reference(x)
""", [6, 7]),
    ("GA109", "a model cast in a loading helper and moved to CUDA by its caller: reported at the cast", """
import torch
def load_model(cls, dims):
    model = cls(dims).double()
    return model
model = load_model(Net, 8)
model.to("cuda")
""", [3]),
    ("GA109", "an agent (not a model) that builds its network as Net().double().to(device) in a chain split over lines: "
     "reported at the .double()", """
import torch
class Agent:
    def __init__(self, device):
        self.network = (
            GNNNet(node_num=6)
            .double()
            .to(device=device)
        )
agent = Agent(torch.device("cuda"))
""", [6]),
    ("GA109", "a device parameter every call in the file fills with the CPU (a test module: device = "
     "torch.device('cpu')) is the CPU, not a device that may be CUDA; the same helper handed 'cuda' is", """
import torch
def make_data(n, device):
    return torch.linspace(0, 1, n, device=device, dtype=torch.float64)
def test_cpu():
    device = torch.device("cpu")
    assert make_data(8, device).sum() > 0
def make_gpu_data(n, device):
    return torch.linspace(0, 1, n, device=device, dtype=torch.float64)
x = make_gpu_data(8, "cuda")
""", [8]),
    ("GA103", "a graph batch moved to the GPU keeps its counts as Python ints (int(batch.num_nodes) reads nothing); "
     "its tensors are still on the GPU", """
import torch
counts, sizes = [], []
with torch.no_grad():
    for batch in loader:
        batch = batch.to("cuda")
        out = model(batch)
        counts.append(int(batch.num_nodes))
        sizes.append(int(batch.x.sum()))
""", [8]),
    ("GA106", "a loader whose loop only unpacks the batch, moved to the GPU after the loop, feeds the GPU; one whose "
     "batches stay on the CPU does not", """
import torch
from torch.utils.data import DataLoader
device = torch.device("cuda")
model = Net().to(device)
test_loader = DataLoader(test_set, batch_size=16, shuffle=True)
for sample in test_loader:
    img = sample["img"]
img = img.to(device)
stats_loader = DataLoader(stats_set, batch_size=16)
for sample in stats_loader:
    total = sample["img"].sum()
""", [5]),
    ("GA103", "a prediction's .cpu() per image followed by a page of host post-processing before the per-image clock "
     "stops is the pipeline's own read; a read just before the clock is a latency test's wait", """
import time
import torch
model = Net().cuda().eval()
with torch.no_grad():
    for path in paths:
        start = time.time()
        img = load(path).cuda()
        out = model(img).cpu().numpy()
        out[out >= 0.5] = 255
        out[out < 0.5] = 0
        mask = out.astype("uint8")
        shapes = contours(mask)
        json_text = dump(shapes)
        write(path, json_text)
        print(time.time() - start)
    for x in batches:
        start = time.time()
        y = model(x.cuda()).sum().item()
        print(time.time() - start)
""", [8]),
    ("GA103", "run.log({...}) of run = wandb.init(...) is wandb.log: handed CUDA losses every step it reads them; "
     "a record of Python numbers reads nothing", """
import torch
import wandb
run = wandb.init(project="p")
model = Net().cuda()
for step, (x, y) in enumerate(loader):
    loss = crit(model(x.cuda()), y.cuda())
    loss.backward()
    opt.step()
    run.log({"loss": loss, "step": step})
    run.log({"step": step})
""", [9]),
    ("GA103", "noise_generator(batch).to(device) makes noise, not a generator network: G(z) of it is a CUDA tensor "
     "and the generator loss read each step counts", """
import torch
def train(G, critic, loader, noise_generator, device):
    opt = torch.optim.RMSprop(G.parameters())
    for images, _ in loader:
        z = noise_generator(32).to(device)
        cost = -critic(G(z)).mean()
        cost.backward()
        opt.step()
        print(cost.item())
""", [9]),
    ("GA102", "the torch.compile tutorial's timed(fn) helper (events around fn()): the cold start is reported at its "
     "first call, which hands it the first forward, not inside the helper", """
import torch
def timed(fn):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    result = fn()
    end.record()
    torch.cuda.synchronize()
    return result, start.elapsed_time(end) / 1000
model = Net().cuda()
inp = torch.randn(16, 3, 128, 128).cuda()
with torch.no_grad():
    print("eager:", timed(lambda: model(inp))[1])
    print("again:", timed(lambda: model(inp))[1])
""", [13]),
    ("GA101", "a method of an object the file does not show, handed the CUDA model (diffusion.sample(model, ...)), "
     "runs it: the clock that stops right after needs a synchronize; torch.save(model) computes nothing", """
import time
import torch
from mylib import Diffusion
model = UNet().cuda()
diffusion = Diffusion()
model(torch.zeros(1, 3, 8, 8, device="cuda"))
t0 = time.time()
samples = diffusion.sample(model, (16, 3, 32, 32))
print(time.time() - t0)
t1 = time.time()
torch.save(model, "m.pt")
print(time.time() - t1)
""", [9]),
    ("GA105", "a method that moves self's model to the CPU for a rollout and back to the GPU, called on every "
     "iteration of the learning loop: the move back is reported; one called once (set-up) is not", """
import torch
class PPO:
    def __init__(self, device):
        self.device = device
        self.actor = torch.nn.Linear(4, 2).to(device)
    def rollout(self):
        self.actor = self.actor.to(torch.device("cpu"))
        obs = run_env(self.actor)
        self.actor = self.actor.to(self.device)
        return obs
    def setup(self):
        self.actor.to(self.device)
    def learn(self, iterations):
        self.setup()
        for it in range(iterations):
            obs = self.rollout()
            loss = self.actor(obs.to(self.device)).sum()
            loss.backward()
agent = PPO(torch.device("cuda"))
agent.learn(100)
""", [9]),
    ("GA103", "a configured attribute named for a device (cfg.resolved_device, args.train_device) may be CUDA: "
     "the loss read each batch counts; cfg.cpu_device is the CPU", """
import torch
def train(cfg, loader):
    dev = cfg.resolved_device
    model = get_model(cfg.version).to(dev)
    opt = torch.optim.AdamW(model.parameters())
    for wav in loader:
        loss = model(wav.to(dev)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(loss.item())
def evaluate(cfg, loader):
    dev = cfg.cpu_device
    model = get_model(cfg.version).to(dev)
    for wav in loader:
        print(model(wav.to(dev)).mean().item())
""", [11]),
    ("GA103", "a loop over a list of implementations bound in its own function (another function binds the name to "
     "something else) or over itertools.product of settings is a sweep: a check per setting is no per-step read", """
import itertools
import torch
def summarize(records):
    impls = sorted({r["impl"] for r in records})
    return impls
def run_check(args, kernels):
    impls = [("flash", kernels.flash), ("naive", kernels.naive)]
    q = torch.randn(8, 64, device="cuda")
    for name, fn in impls:
        print(name, (fn(q) - q).abs().max().item())
    for n, h in itertools.product(args.sizes, args.heads):
        out = q[:n] @ q[:n].T
        print(n, h, out.sum().item())
    for step in range(1000):
        print((q @ q.T).sum().item())
""", [15]),
    ("GA103", "two agents stepping env1 and env2 (numbered environments) in one loop, each act() reading its action: "
     "a loop of environment steps, whatever replay() loop follows (act() has two call sites: each is reported)", """
import torch
class Agent:
    def __init__(self):
        self.model = torch.nn.Linear(3, 3).cuda()
        self.opt = torch.optim.Adam(self.model.parameters())
    def act(self, state):
        return torch.argmax(self.model(torch.tensor(state).cuda())).item()
    def replay(self, batch):
        for s in batch:
            loss = self.model(s.cuda()).sum()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
a1, a2 = Agent(), Agent()
for episode in range(100):
    done1 = done2 = False
    while not (done1 and done2):
        r1, s1, done1 = env1.step(a1.act(s1))
        r2, s2, done2 = env2.step(a2.act(s2))
        a1.replay(memory1)
        a2.replay(memory2)
""", [18, 19]),
    ("GA103", "Constants.device of the project's `from utils import Constants` is a configured device, like "
     "config.DEVICE: the per-step reads of a fine-tuning loop count", """
import math
import torch
from utils import Constants
model = load_model().to(Constants.device)
for batch in loader:
    ids = batch["ids"].to(Constants.device)
    loss = model(ids, labels=ids).loss
    loss.backward()
    opt.step()
    if math.isnan(loss):
        break
""", [10]),
    ("GA104", "torch.arange(n).repeat_interleave(k) made on the CPU only to be copied is a fill like .repeat(k)", """
import torch
device = "cuda"
query_label = torch.arange(5).repeat_interleave(3).to(device)
support_label = torch.arange(5).tile(2).to(device)
""", [3, 4]),
    ("GA109", "torch handed on by a project module (from bench_common import torch) is torch itself", """
from bench_common import torch, record
t_lift = torch.ones(1024, dtype=torch.float64, device="cuda")
record(t_lift)
""", [2]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s11_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected


def _job(filler_lines: int) -> str:
    filler = "".join(f"    settings_{i} = load_setting({i})\n" for i in range(filler_lines))
    return ("import time\nimport torch\n"
            "def main():\n"
            "    start_time = time.time()\n"
            f"{filler}"
            "    x = torch.randn(4096, 4096, device='cuda')\n"
            "    y = x @ x\n"
            "    print(f'Finished in {time.time() - start_time:.2f}s')\n")


def test_a_clock_pair_far_apart_in_the_code_times_a_job_not_a_measurement():
    """A clock at the top of main() read 80+ lines further down, after set-up and I/O, is a job timer (r22 dev 3509):
    no GA101 or GA102; the same pair around the same work a few lines apart is a measurement, cold and unsynced."""
    near = [check for line, check in lines_of(_job(3), select=["GA101", "GA102"])]
    far = [check for line, check in lines_of(_job(85), select=["GA101", "GA102"])]
    assert sorted(near) == ["GA101", "GA102"] and far == []
