"""Classes of session 15 (issue 12), each with its must-not twin: a parameter that nothing in the file fills (`def
train_agent(agent, env)`) runs the methods of the file's classes named for it (`DQNAgent.choose_action`); a
forward's outputs read only through .detach()/.item() record for nothing; `torch.device(GPU[1])` of a list of device
names is a device; a walk over a model's parameters is not a loop of steps; a loop that waits on input() is paced by
a person; a flag that its own branch clears runs that branch once; a def replaced before anything names it never
runs; torch_directml.device() is not CUDA; a running sum reset per epoch is no repeated copy, a Python number the
loop does not change is; a list made in place (list(ops.keys())[node]) indexed by a CUDA value reads it; a
comparison with text is no tensor read; an update after an episode's rollout runs once per episode; a read after a
long inner loop of training steps runs once per round; a loop whose variable gives the shape of the tensors it fills
is a sweep; CTC greedy / beam decoding returns text; a device that only other functions bind, to "cpu", is the CPU;
a metric module is no model; a loop over a dict of a few settings is a sweep; a blocking copy to the GPU waits for
the stream; a library model's *generate methods run under no_grad, and its processor is no module;
torch.cuda.FloatTensor(np.zeros(...)) copies a fill; Lightning's Trainer(detect_anomaly=True) is a debug switch; `if
mask.any():` holds on most iterations; an Accelerator made in a helper prepares as one made in place does; a handed
loss function's result is read, not the function; a handed-in augmentation keeps its input's device; a Lightning
accelerator taken from a setting whose default can be "gpu" runs on the GPU; a slice bounded by a CUDA value, or min
/ max of CUDA tensors, reads them; an empty torch.Tensor() has nothing to copy; checkpoint['epoch'] / ['steps'] is a
counter; a loader peeked at once feeds no loop; a running best's branch runs now and then; a project's get_device()
and a --device option defaulting to "auto" can be CUDA; enumerate(t) walks t."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA103", "agent.choose_action(obs) of a parameter named like the file's DQNAgent reads the greedy action "
     "back per step; a parameter `runner` that no class is named for is not followed", """
import torch
class DQNAgent:
    def __init__(self):
        self.device = torch.device("cuda")
        self.net = torch.nn.Linear(4, 2).to(self.device)
    def choose_action(self, obs):
        with torch.no_grad():
            return self.net(torch.tensor(obs).to(self.device)).argmax().item()
def train_agent(agent, env, episodes):
    for episode in range(episodes):
        obs, done = env.reset(), False
        while not done:
            action = agent.choose_action(obs)
            obs, reward, done, info = env.step(action)
def run(runner, env, episodes):
    for episode in range(episodes):
        obs, done = env.reset(), False
        while not done:
            action = runner.choose_action(obs)
            obs, reward, done, info = env.step(action)
""", [8]),
    ("GA107", "logits, _ = self.model(obs) whose logits are only read as F.softmax(logits).detach().cpu() (an agent's "
     "action choice) records a graph for nothing; the twin's logits feed a loss that steps back", """
import torch
import torch.nn.functional as F
class Agent:
    def __init__(self, net):
        self.model = net.to(torch.device("cuda"))
        self.optimizer = torch.optim.Adam(self.model.parameters())
    def step(self, state):
        obs = torch.tensor(state, dtype=torch.float32).to("cuda")
        logits, _ = self.model(obs)
        probs = F.softmax(logits, dim=-1).detach().cpu().numpy()
        return probs.argmax()
    def train_step(self, state, target):
        obs = torch.tensor(state, dtype=torch.float32).to("cuda")
        logits, _ = self.model(obs)
        loss = F.cross_entropy(logits, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
""", [9]),
    ("GA104", "torch.device(GPU[1]) of a list of device names is a CUDA device: h0 = torch.zeros(...).to(device) in an "
     "LSTM's forward is made only to be copied; a list of CPU names picks the CPU", """
import torch
import torch.nn as nn
GPU = ['cuda', 'cuda:0', 'cuda:1']
HOSTS = ['cpu']
device = torch.device(GPU[1])
host = torch.device(HOSTS[0])
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, 2, batch_first=True)
    def forward(self, x):
        h0 = torch.zeros(2, x.size(0), 16).to(device)
        out, _ = self.lstm(x, (h0, h0))
        return out
class HostModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, 2, batch_first=True)
    def forward(self, x):
        h0 = torch.zeros(2, x.size(0), 16).to(host)
        out, _ = self.lstm(x, (h0, h0))
        return out
""", [12]),
    ("GA103", "histograms of each parameter logged once per epoch after the batch loop: a walk over the parameters "
     "is no loop of steps; a walk over a CUDA tensor's rows, read one by one, still is", """
import torch
model = Net().cuda()
for epoch in range(100):
    for x, y in loader:
        loss = crit(model(x.cuda()), y.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()
    for name, param in model.named_parameters():
        writer.add_histogram(name, param, epoch)
        if param.grad is not None:
            writer.add_histogram(name + "/grad", param.grad, epoch)
table = torch.randn(1000, 4, device="cuda")
for row in table:
    writer.add_histogram("row", row, 0)
""", [15]),
    ("GA103", "an interactive loop that waits on input() for each request reads its answer back once per request, "
     "no per-step stall; the same loop over a list of sentences is a loop of steps", """
import torch
net = Net().cuda()
while True:
    text = input("Write a sentence:")
    with torch.no_grad():
        audio = net(encode(text).cuda()).cpu().numpy()
    play(audio)
for text in sentences:
    with torch.no_grad():
        audio = net(encode(text).cuda()).cpu().numpy()
    play(audio)
""", [10]),
    ("GA103", "`if debug_first_batch: print(out.min().item()); debug_first_batch = False` prints once; a flag that "
     "another statement clears (after the calibration steps) leaves its branch running on every step until then", """
import torch
model = Net().cuda()
debug_first_batch = True
calibrating = True
for step, (x, y) in enumerate(loader):
    out = model(x.cuda())
    loss = crit(out, y.cuda())
    opt.zero_grad()
    loss.backward()
    opt.step()
    if debug_first_batch:
        print(out.min().item())
        debug_first_batch = False
    if calibrating:
        print(out.max().item())
    if step > 1000:
        calibrating = False
""", [15]),
    ("GA103", "a def replaced by a later def of the same name before anything names it never runs (a notebook's cell "
     "rewritten below); a def called before its replacement does", """
import torch
def inference(model, loader):
    preds = []
    for x in loader:
        preds += model(x.cuda()).argmax(1).cpu().tolist()
    return preds
def evaluate(model, loader):
    scores = []
    for x in loader:
        scores += model(x.cuda()).max(1)[0].cpu().tolist()
    return scores
first = evaluate(net.cuda(), loader)
@torch.no_grad()
def inference(model, loader):
    preds = []
    for x in loader:
        preds.extend(model(x.cuda()).argmax(1).cpu().tolist())
    return preds
@torch.no_grad()
def evaluate(model, loader):
    return [model(x.cuda()).max(1)[0].cpu().tolist() for x in loader]
""", [10, 17, 21]),
    ("GA101", "matmuls timed on torch_directml.device() (another accelerator, not CUDA) get no CUDA timing finding; "
     "the same loop on torch.device('cuda') does", """
import time
import torch
import torch_directml
gpu_device = torch_directml.device()
start = time.time()
for i in range(300):
    c = torch.matmul(torch.randn(2000, 2000, device=gpu_device), torch.randn(2000, 2000, device=gpu_device))
print(time.time() - start)
cuda_device = torch.device("cuda")
start = time.time()
for i in range(300):
    c = torch.matmul(torch.randn(2000, 2000, device=cuda_device), torch.randn(2000, 2000, device=cuda_device))
print(time.time() - start)
""", [13]),
    ("GA105", "total_loss = torch.tensor(0., device=device) at the top of each epoch, summed in place per batch, is a "
     "reset; a scale made from the same literal each epoch and only read is the same copy again", """
import torch
device = torch.device("cuda")
for epoch in range(100):
    total_loss = torch.tensor(0., device=device)
    scale = torch.tensor(0.5, device=device)
    for x, y in loader:
        loss = crit(model(x.to(device)) * scale, y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total_loss += loss.detach()
    print(total_loss.item())
""", [5]),
    ("GA105", "dt = 1.0 / num_steps before the loop, torch.tensor(dt, device=device) in it: the same Python number "
     "turned into a CUDA tensor each step; a number the loop changes (t) is new data each time", """
import torch
def sample(x, num_steps, device):
    dt = 1.0 / num_steps
    t = 0.0
    for step in range(num_steps):
        x = x + torch.randn_like(x) * torch.sqrt(torch.tensor(dt, device=device))
        x = x * torch.tensor(t, device=device)
        t = t + dt
    return x
out = sample(torch.zeros(100, device="cuda"), 1000, torch.device("cuda"))
""", [6]),
    ("GA103", "list(ops.keys())[node] with node a CUDA sample: the list is indexed on the host, so the index is read "
     "back per step; indexed by a Python int, nothing is read", """
import torch
model = Net().cuda()
for x in loader:
    node = model(x.cuda()).argmax()
    tree.append(list(ops.keys())[node])
    tree.append(list(ops.keys())[len(tree) % 3])
""", [5]),
    ("GA103", "`if cfg['name'] == 'pool':` compares a value of a mixed dict with text (never a tensor): no read, "
     "even when the dict holds CUDA tensors; `if cfg['loss'] > 0.5:` of the same dict reads one", """
import torch
cfg = {"name": "pool", "loss": torch.zeros(1, device="cuda")}
model = Net().cuda()
for x, y in loader:
    loss = crit(model(x.cuda()), y.cuda())
    opt.zero_grad()
    loss.backward()
    opt.step()
    if cfg["name"] == "pool":
        cfg["loss"] = loss.detach()
    if cfg["loss"] > 0.5:
        print("high")
""", [11]),
    ("GA103", "A2C: wandb.log of the episode's losses after the rollout loop (env.step per step) and the one update "
     "per episode is once per episode; the rollout's own per-step read is labelled", """
import torch
actor = Actor().cuda()
for episode in range(1000):
    state = env.reset()
    log_probs = []
    for t in range(200):
        dist = actor(torch.as_tensor(state).cuda())
        action = dist.sample()
        state, reward, done, _ = env.step(action.cpu().numpy())
        log_probs.append(dist.log_prob(action))
        if done:
            break
    loss = -torch.stack(log_probs).mean()
    wandb.log({"loss": loss.item()})
    opt.zero_grad()
    loss.backward()
    opt.step()
""", [9]),
    ("GA103", "a condensation step per outer iteration, then a GNN trained for many epochs, then its mean accuracy "
     "read: once per round of steps; after two generator steps per batch, the losses are still read per batch", """
import torch
netD, netG = Disc().cuda(), Gen().cuda()
def condense_step(x_s):
    loss = krr(x_s.cuda())
    cond_opt.zero_grad()
    loss.backward()
    cond_opt.step()
for cond_epoch in range(cond_epochs):
    loss = condense_step(x_s)
    acc = torch.zeros(train_epochs, device="cuda")
    model = GCN().cuda()
    for epoch in range(train_epochs):
        loss = crit(model(x_s), y_s)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc[epoch] = (model(x_t).argmax(1) == y_t).float().mean()
    print(acc.mean().item())
for x, y in loader:
    d_loss = crit(netD(x.cuda()), ones)
    optD.zero_grad()
    d_loss.backward()
    optD.step()
    for _ in range(2):
        g_loss = crit(netD(netG(z)), ones)
        optG.zero_grad()
        g_loss.backward()
        optG.step()
    print(g_loss.item())
""", [29]),
    ("GA103", "for i in range(1, 20): N = 1024 * i; q = torch.rand((B, H, N, D), device='cuda'): each iteration "
     "its own problem size (a sweep), read back once per experiment; a loop of steps on one size reads per step", """
import torch
for i in range(1, 20):
    N = 1024 * i
    q = torch.rand((8, 16, N, 64), device="cuda")
    r = torch.softmax(q @ q.transpose(-1, -2), -1) @ q
    print(r.cpu().float().mean())
q = torch.rand((8, 16, 1024, 64), device="cuda")
for i in range(1, 20):
    r = torch.softmax(q @ q.transpose(-1, -2), -1) @ q
    print(r.cpu().float().mean())
""", [10]),
    ("GA103", "decoders.greedy_decoder(output, labels) turns the CUDA output into text: printing the transcriptions "
     "reads no tensor; a project's decoder network (decoders.decoder(output)) returns CUDA data", """
import torch
model = Net().cuda()
with torch.no_grad():
    for x, y in loader:
        output = model(x.cuda())
        preds, targets = decoders.greedy_decoder(output, y.cuda())
        for j in range(len(preds)):
            print("Transcription: {}".format(preds[j]))
        feats = decoders.decoder(output)
        print("Features: {}".format(feats))
""", [10]),
    ("GA107", "predict() moves its input to a `device` that only another function binds, to 'cpu': the CPU, no GPU "
     "inference; a `device` nothing in the file binds may be CUDA (a snippet's)", """
import torch
def load_model():
    model = Classifier()
    model.eval()
    device = 'cpu'
    model.to(device)
    return model
model = load_model()
def predict(img):
    pred = model(img.unsqueeze(0).to(device))
    return pred.detach().cpu().numpy().argmax()
def predict_gpu(img):
    pred = model(img.unsqueeze(0).to(gpu_device))
    return pred.detach().cpu().numpy().argmax()
""", [13]),
    ("GA107", "a torchmetrics IoU module on CUDA updated per batch is a metric, not a model run for inference; the "
     "segmentation model's own forward in the same loop is", """
import torch
from torchmetrics import JaccardIndex
semantic_map_iou_val = JaccardIndex(task="multiclass", num_classes=4).cuda()
model = Seg().cuda().eval()
for x, y in loader:
    pred = model(x.cuda())
    semantic_map_iou_val(pred.argmax(1), y.cuda())
""", [6]),
    ("GA103", "for name, option in runs.items() of a dict of a few settings: one experiment per setting, read once "
     "each; a dict the loop's data fills is walked per item", """
import torch
x = torch.randn(8192, 512, device="cuda")
runs = {"uniform": None, "shard": 0, "pm1": 1}
for name, option in runs.items():
    y = quantize(x, option) @ x.T
    print(name, float(y.square().sum()))
batches = load_batches()
for name, batch in batches.items():
    y = batch.cuda() @ x.T
    print(name, float(y.square().sum()))
""", [10]),
    ("GA101", "the clock stops after a blocking host-to-GPU copy (torch.cuda.FloatTensor(array), x_cpu.cuda()): "
     "copy_ waits for the stream, so the GPU work before it is done; with the work after the copy it is not", """
import time
import numpy as np
import torch
grid = torch.rand(500, 50, 50, device="cuda")
start = time.time()
grid = grid / grid.sum(0)
grid = torch.cuda.FloatTensor(np.zeros((500, 50, 50)))
print(time.time() - start)
start = time.time()
host = torch.from_numpy(np.ones((500, 50, 50), dtype=np.float32))
grid = host.cuda()
grid = grid / grid.sum(0)
print(time.time() - start)
""", [13]),
    ("GA107", "model.eagenerate(...) of a library's model (EAGLE's decoding loop, built like Hugging Face's generate, "
     "runs under no_grad) and proc = model.processor (a processor, no module) run no recorded forward; the model's "
     "own forward does", """
import torch
from hivis.model import EaModel
model = EaModel.from_pretrained(base_model_path="b", ea_model_path="d").cuda()
model.eval()
proc = model.processor
for img, q in prompts:
    text = proc.apply_chat_template(q, add_generation_prompt=True)
    inputs = proc(text=text, images=[img], return_tensors="pt").to("cuda:0")
    out_ids, new_token, idx, acc = model.eagenerate(inputs, temperature=0.0, max_new_tokens=64)
    logits = model(inputs["input_ids"])
""", [10]),
    ("GA104", "torch.cuda.FloatTensor(np.zeros((b, 3))): a constant NumPy fill copied over by the legacy CUDA "
     "constructor, and so is a NumPy random draw (session 17: r40, r43 and r44's labellers); of loaded data it is a "
     "copy of data", """
import numpy as np
import torch
trans = torch.cuda.FloatTensor(np.zeros((batch_size, 3)))
betas = torch.cuda.FloatTensor(np.random.normal(0, 1, [batch_size, 10]))
data = torch.cuda.FloatTensor(np.load("x.npy"))
""", [3, 4]),
    ("GA108", "pl.Trainer(..., detect_anomaly=True) switches anomaly detection on for the whole run; "
     "detect_anomaly=False, or the Trainer built under `if args.debug:`, does not leave it on", """
import pytorch_lightning as pl
trainer = pl.Trainer(
    accelerator="gpu", max_epochs=100,
    detect_anomaly=True)
quiet = pl.Trainer(accelerator="gpu", detect_anomaly=False)
if args.debug:
    debug_trainer = pl.Trainer(accelerator="gpu", detect_anomaly=True)
trainer.fit(model, datamodule=dm)
""", [2]),
    ("GA103", "per label, `if label_mask.any():` holds on most batches, so the counts read in its branch are read "
     "per label per batch (the conditions are reads too); under a running best (`if acc > best:`) the branch runs "
     "now and then", """
import torch
model = Parser().cuda()
with torch.no_grad():
    for batch in loader:
        gold = batch["labels"].cuda()
        pred = model(batch["ids"].cuda()).argmax(-1)
        for label_idx in labels:
            label_mask = gold == label_idx
            if label_mask.any():
                total[label_idx] += label_mask.sum().item()
            acc = (pred == gold).float().mean()
            if acc > best:
                print(acc.item())
""", [9, 10, 12]),
    ("GA103", "an Accelerator made in a helper method and passed on (accelerator = self._make_accelerator(), "
     "self.accelerator) still prepares the model and loader: the per-step loss.item() reads a CUDA value", """
import torch
from accelerate import Accelerator
class Trainer:
    accelerator = None
    def _make_accelerator(self):
        accelerator = Accelerator(mixed_precision="fp16")
        return accelerator
    def fit(self, model, optimizer, loader):
        accelerator = self._make_accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            loss = model(batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            print(loss.item())
""", [16]),
    ("GA103", "def test(..., loss_fn): loss_fn(pred, y).item() reads what the handed loss computes (a CUDA value) on "
     "every call from the loop, whatever loss_fn itself is; a helper reading its own parameter (float(x)) reads "
     "only what the call hands it", """
import torch
crit = torch.nn.MSELoss()
model = Net().cuda()
def test(x, y, loss_fn):
    with torch.no_grad():
        pred = model(x)
        return loss_fn(pred, y).item()
def show(value):
    return float(value)
for step in range(1000):
    loss = crit(model(xs), ys)
    opt.zero_grad()
    loss.backward()
    opt.step()
    test_loss = test(xt, yt, crit)
    shown = show(3.0)
""", [7]),
    ("GA103", "samples_k = _transforms(samples) of a handed-in augmentation keeps the CUDA batch on the GPU: its .cpu() "
     "per batch reads it back; a handed-in `process(out)` of no such name stays unknown", """
import torch
def guess(model, loader, _transforms, process):
    kept = []
    with torch.no_grad():
        for samples, _ in loader:
            samples = samples.cuda()
            samples_k = _transforms(samples) / 255.
            pred = model(samples_k)
            for s in samples_k.cpu():
                kept.append(s)
            other = process(samples)
            for s in other.cpu():
                kept.append(s)
    return kept
""", [9]),
    ("GA106", "pl.Trainer(accelerator=accelerator) with accelerator = cfg.get('accelerator', 'gpu' if cuda else 'cpu'): "
     "the loaders feed a GPU run (the twin, a setting that can only be the CPU, is its own test below)", """
import torch
import pytorch_lightning as pl
from torch.utils.data import DataLoader
def fit(model, data, cfg):
    accelerator = cfg.get("accelerator", "gpu" if torch.cuda.is_available() else "cpu")
    devices = cfg.get("devices", None)
    trainer = pl.Trainer(accelerator=accelerator, devices=devices)
    trainer.fit(model, DataLoader(data, batch_size=64, num_workers=4))
""", [8]),
    ("GA103", "per sample, img[:, x1:x2] with x1 a 0-d CUDA tensor (argmax // width) reads the bound back; "
     "min(len_, gt_len) of CUDA lengths compares them on the host; Python-int bounds read nothing", """
import torch
grad = torch.rand(64, 32, 32, device="cuda")
images = torch.rand(64, 3, 32, 32, device="cuda")
lens = torch.randint(1, 32, (64,), device="cuda")
for idx in range(64):
    top = grad[idx].argmax()
    x1 = top // 32
    images[idx, :, x1:x1 + 8] = 0
    images[idx, :, 4:12] = 1
    n = min(lens[idx], lens[idx - 1])
""", [8, 10]),
    ("GA103", "device = get_device('cpu' if args.tiny else args.device) with --device defaulting to 'auto': the "
     "project's device picker returns the GPU when there is one, so the per-step loss.item() is a read (before: "
     "the picker's result was unknown and 'cpu' on one branch made the file CPU code)", """
import argparse
import torch
from train import get_device
ap = argparse.ArgumentParser()
ap.add_argument("--device", default="auto")
ap.add_argument("--tiny", action="store_true")
args = ap.parse_args()
device = get_device("cpu" if args.tiny else args.device)
model = Net().to(device)
for x, y in loader:
    loss = crit(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())
""", [15]),
    ("GA103", "for i, value in enumerate(train_labels): value.item() walks a CUDA tensor element by element, as "
     "`for value in train_labels` does; enumerate over a Python list reads nothing", """
import torch
train_labels = torch.tensor(label_list).to("cuda")
cache = {}
for i, value in enumerate(train_labels):
    cache[i] = table[value.item()]
for i, value in enumerate(label_list):
    cache[i] = table[value]
""", [5]),
    ("GA103", "y_true[:batch.batch_size] of a PyG batch moved to the GPU: an attribute of the batch is its metadata "
     "(a number), no CUDA bound to read", """
import torch
model = GNN().cuda()
for batch in loader:
    batch = batch.to("cuda")
    y_pred = model(batch.x, batch.edge_index)[:batch.batch_size]
    loss = crit(y_pred, batch.y[:batch.batch_size])
    opt.zero_grad()
    loss.backward()
    opt.step()
""", []),
    ("GA104", "predicted = torch.Tensor().to(device) each epoch, grown with torch.cat: an empty tensor has nothing to "
     "copy; torch.Tensor(64, 10).to(device) allocates on the CPU only to copy", """
import torch
device = torch.device("cuda")
for epoch in range(10):
    predicted = torch.Tensor().to(device)
    scratch = torch.Tensor(64, 10).to(device)
    for x in loader:
        predicted = torch.cat((predicted, model(x.to(device)) + scratch))
""", [5]),
    ("GA103", "steps = state['steps'] + 1 of a checkpoint loaded onto the GPU is a counter (a Python number): "
     "`if steps % log_steps == 0:` reads nothing; state['loss'] of the same checkpoint is a tensor", """
import torch
device = torch.device("cuda")
state = load_checkpoint("ckpt.pt", device)
steps = state["steps"] + 1
best = state["loss"]
for x, y in loader:
    loss = crit(model(x.cuda()), y.cuda())
    opt.zero_grad()
    loss.backward()
    opt.step()
    if steps % log_steps == 0:
        print(steps)
    if best > 0.1:
        print("still high")
    steps += 1
""", [13]),
    ("GA106", "notebook cells peeking at one batch (gen = iter(DataLoader(...)); next(gen)) or at a loader's attribute "
     "feed no loop; the loader the training loop iterates does", """
import torch
from torch.utils.data import DataLoader
model = Net().cuda()
gen = iter(DataLoader(train_ds, batch_size=16))
x, y = next(gen)
print(x.shape, y.shape)
DataLoader(train_ds).collate_fn
for x, y in DataLoader(train_ds, batch_size=16):
    loss = crit(model(x.cuda()), y.cuda())
""", [8]),
    ("GA103", "if out.total.item() < best_loss: best_loss = ...; save(..., out.pred.item()): the test reads per step, "
     "the branch runs on improvement only; a branch on a fixed threshold (`if loss.item() > 10:`) runs any step", """
import torch
model = Net().cuda()
best_loss = float("inf")
for epoch in range(1000):
    out = loss_fn(model(graph.cuda()))
    opt.zero_grad()
    out.total.backward()
    opt.step()
    if out.total.item() < best_loss:
        best_loss = out.total.item()
        save(model, out.pred.item())
    if out.total.item() > 10:
        print(out.pred.item())
""", [9, 12, 13]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s15_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected


def test_a_lightning_accelerator_setting_that_can_only_be_the_cpu_feeds_no_gpu():
    code = """
import pytorch_lightning as pl
from torch.utils.data import DataLoader
def fit(model, data, cfg):
    accelerator = cfg.get("accelerator", "cpu")
    trainer = pl.Trainer(accelerator=accelerator, devices=cfg.get("devices"))
    trainer.fit(model, DataLoader(data, batch_size=64, num_workers=4))
"""
    assert lines_of(code, select=["GA106"]) == []
