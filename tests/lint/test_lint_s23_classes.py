"""Classes of session 23 (issue 12), each with its must-not twin, fixed on spent corpora while r58 was gathered."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

_CAPITAL_DEVICE = """
import torch
def train_fn(model, loader, optimizer, {device}):
    total = 0.0
    for images, labels in loader:
        loss = model(images.to({device}), labels.to({device}))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total
"""

_FIRST_GPU = """
import torch
class Trainer(BaseTrainer):
    def _train_epoch(self, epoch):
        total = 0.0
        for audio, target in self.train_data_loader:
            audio = audio.to({where})
            loss = self.loss_function(self.model(audio), target.to({where}))
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total
"""

_WGAN_BAR = """
import torch
from tqdm import tqdm
device = torch.device("cuda")
G, D = Generator().to(device), Critic().to(device)
for epoch in range(epochs):
    pbar = tqdm(range({count}))
    for _ in pbar:
        for _crit in range(critic_iters):
            d_loss = D(G(torch.randn(8, 4, device=device)).detach()).mean() - D(next_real().to(device)).mean()
            opt_D.zero_grad()
            d_loss.backward()
            opt_D.step()
        g_loss = -D(G(torch.randn(8, 4, device=device))).mean()
        opt_G.zero_grad()
        g_loss.backward()
        opt_G.step()
        pbar.set_postfix(d=f"{{d_loss.item():.3f}}")
"""

_DATASET_DEVICE = """
import torch
def train(dataset, iterations):
    model = DecisionTransformer().to(device={holder}.device)
    for iteration in range(iterations):
        states, actions = dataset.get_batch()
        loss = ((model(states) - actions) ** 2).mean()
        loss.backward()
        optimizer.step()
        train_losses.append(loss.item())
"""

_DATASET_ON_DEVICE = """
import torch
from torch.utils.data import DataLoader
def evaluate(config, model, samples):
    dataset = FLATDataset(samples, config.max_len, {device})
    model.to(config.device)
    for lattice, labels in DataLoader(dataset, batch_size=32, collate_fn=dataset.collate_fn):
        loss, predicted = model(lattice, labels)
        labels = labels.cpu().numpy()
        metric.update(predicted, labels)
"""

_LOG_STD = """
import torch
import torch.nn as nn
from torch.distributions import Normal
class ActorCritic(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.mean_head = nn.Linear(64, n)
        self.log_std = {log_std}
    def forward(self, obs):
        mean = self.mean_head(obs)
        return mean, self.log_std.expand_as(mean)
    def evaluate(self, obs, actions):
        mean, log_std = self.forward(obs)
        dist = Normal(mean, log_std.exp())
        return dist.log_prob(actions).sum(dim=-1), dist.entropy().sum(dim=-1)
model = ActorCritic(2).to("cuda")
for step in range(1000):
    log_prob, entropy = model.evaluate(obs, actions)
    total += entropy.mean().item()
"""

_SCHEMA_LOSS = """
import torch
import torch.nn.functional as F
class Imputer:
    def __init__(self, model, variables):
        self.model = model.to("cuda")
        self.variables = variables
    def fit(self, data, bs):
        for epoch in range(100):
            for i in range(0, data.shape[0], bs):
                loss = self.{train_loss}(data[i:i + bs])
                loss.backward()
                self.optimizer.step()
    def validate(self, data, bs):
        total = 0.0
        with torch.no_grad():
            for i in range(0, data.shape[0], bs):
                loss = self.calc_loss(data[i:i + bs].cuda())
                total += loss.item()
        return total
    def calc_loss(self, batch):
        parts = {{}}
        for j, var in enumerate(self.variables):
            parts[var["name"]] = F.one_hot(batch[:, j].long(), var["classes"]).float()
        return self.model(parts).mean()
"""

_SHORT_UPDATE = """
import torch
device = torch.device("cuda")
def ppo_update(policy, optimizer, states, ppo_epochs=4):
    states_t = torch.stack(states).to(device)
    total = 0.0
    for _ in range(ppo_epochs):
        loss = policy(states_t).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total
{caller}
"""

_NORMALISED_FILL = """
import torch
device = torch.device("cuda")
for x, labels in loader:
    fool = torch.ones(labels.shape)
    fool = fool / {scale}
    fool = fool.to(device)
    loss = crit(model(x.to(device)), fool)
"""

_TO_VAR = """
import torch
from utils import {helper}
device = torch.device("cuda")
for it in range(1000):
    x = {helper}(next(loader))
    loss = torch.mean(torch.abs(encoder(x) - x))
    loss.backward()
    opt.step()
    print(loss.item())
"""

_ROLLOUT_JOIN = """
import torch
device = torch.device("cuda")
with torch.no_grad():
    for i, (data, targets) in enumerate(test_loader):
        enc_in = data
        dec_in = torch.zeros([enc_in.shape[0], 1, enc_in.shape[-1]])
        dec_in = torch.cat([{first}, dec_in], dim=1)
        output = model(enc_in.to(device), dec_in.to(device))
"""

_GPU_REPORT = """
import time
import torch
from helpers import {helper}
device = torch.device("cuda")
start = time.time()
try:
    trainer.run()
except torch.cuda.OutOfMemoryError:
    logger.critical({helper}(device, used_memory_only=False))
print(time.time() - start)
"""

_SCRIPTED_TRANSFORM = """
import torch
import torchaudio
def prepare(device):
    waveform = torch.randn(1, 16000).to(device)
    transform_fn = {made}.to(device)
    return waveform, transform_fn
for device in [torch.device("cpu"), torch.device("cuda:0")]:
    for jitted in [False, True]:
        waveform, transform_fn = prepare(device)
        if jitted:
            transform_fn = torch.jit.script(transform_fn)
        def run_fn(waveform, number=1):
            for _ in range(number):
                transform_fn(waveform)
        usage = memory_usage((run_fn, [], {{"waveform": waveform}}))
"""

_FORCED_WORKERS = """
import os
import torch
from torch.utils import data
device = torch.device("cuda")
nw = min([os.cpu_count(), 8])
{override}
loader = data.DataLoader(dataset, batch_size=32, pin_memory=True, num_workers=nw)
model = Net().to(device)
for x, y in loader:
    model(x.to(device))
"""

_PHASE = """
import torch
from tqdm import tqdm
device = torch.device("cuda")
step_count = 0
for epoch in range(100):
    for wave in loader:
        d_join = ({threshold})
        loss = model(wave.to(device)).mean()
        loss.backward()
        opt.step()
        if d_join:
            tqdm.write(f"{{loss.item():.4f}}")
        step_count += 1
"""

_SCALE_LOSSES = """
import torch
device = torch.device("cuda")
discriminator = MultiScaleDiscriminator().to(device)
for wave in loader:
    wave = wave.to(device)
    {outputs}
    loss_d = 0
    for logit in logits:
        loss_d += (logit ** 2).mean() / len(logits)
    loss_d.backward()
    opt.step()
"""

_PREPROCESS = """
import torch
class TestNet():
    def __init__(self, device, net, preprocess):
        self.device = device
        self.net = net
        self.{attr} = preprocess
    def test(self, loader):
        with torch.no_grad():
            for img, lbl in loader:
                out = self.{attr}(img.to(self.device))
                out_cpu = out.to('cpu')
"""

_PAIR_MOVE = """
import torch
from torch.utils.data import DataLoader, TensorDataset
device = torch.device("cuda")
train_loader = DataLoader(TensorDataset(torch.randn(64, 2, 8), torch.randn(64)), batch_size=8)
for data, target in train_loader:
    for i in range(len(data)):
        data[i] = {value}
    loss = model(data[0], data[1]).mean()
"""

_TO_ARRAY = """
import time
import torch
from utils.vis import {helper}
device = torch.device("cuda")
net = UNet().to(device)
image = torch.randn(1, 1, 64, 64, device=device)
with torch.no_grad():
    net(image)
    for _ in range(100):
        start = time.perf_counter()
        pred = net(image)
        out = {helper}(pred) * 255
        print(time.perf_counter() - start)
"""

_WARMUP_CALL = """
import time
import numpy as np
import torch
from src.boilerplate import get_model
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
def exp(model, repetitions):
    dummy_input = torch.randn((repetitions, 3, 96, 96), dtype=torch.float).to(device)
    timings = np.zeros((repetitions, 1))
    with torch.no_grad():
        for rep in range(repetitions):
            start = time.time()
            _ = model(torch.unsqueeze(dummy_input[rep], dim=0))
            timings[rep] = time.time() - start
    return timings
def benchmark(model):
    model.to(device)
    {first} = exp(model, 200)
    experiment_timings = exp(model, 200)
    return experiment_timings
benchmark(get_model())
"""

_EVERY_ONE = """
import torch
device = torch.device("cuda")
print_interval = {every}
for step, (x, y) in enumerate(loader):
    loss = model(x.to(device), y.to(device))
    loss.backward()
    opt.step()
    if step % print_interval == 0:
        print(loss.item())
"""

CASES = [
    ("GA103", "a parameter spelled Device is a device like device: the per-step .item() of the loss it computed on "
     "waits for the GPU (r57 held-out 13592)", _CAPITAL_DEVICE.format(device="Device"), [9]),
    ("GA103", "twin: a parameter named for something else (Dest) says nothing of where the batch goes",
     _CAPITAL_DEVICE.format(device="Dest"), []),
    ("GA103", "x.to(self.gpu_ids[0]): the first of the GPUs a trainer was given is a CUDA device, so the loss read per "
     "step waits for it (r55 held-out 12852)", _FIRST_GPU.format(where="self.gpu_ids[0]"), [10]),
    ("GA103", "twin: an entry of a list of dtypes moves nothing to a GPU", _FIRST_GPU.format(where="self.dtypes[0]"),
     []),
    ("GA103", "pbar = tqdm(range(len(loader))); for _ in pbar: one iteration per batch, so the WGAN's generator step "
     "after its critic steps is a step and its progress-bar read runs per step (r57 dev 13451)",
     _WGAN_BAR.format(count="len(loader)"), [17]),
    ("GA103", "twin: a bar over rounds of unknown length after critic steps is a round of steps (the WGAN rule of "
     "earlier corpora)", _WGAN_BAR.format(count="n_rounds"), []),
    ("GA103", "model.to(device=dataset.device): a dataset that holds its batches on a device says where to train, can "
     "be CUDA, so the per-step loss read waits (r56 dev 13205)", _DATASET_DEVICE.format(holder="dataset"), [9]),
    ("GA103", "twin: the device of a tensor handed in is wherever it is, nothing known",
     _DATASET_DEVICE.format(holder="states_seen"), []),
    ("GA103", "FLATDataset(samples, ..., config.device): a Dataset handed a CUDA device positionally makes its items "
     "there, so the per-batch copy of its labels back to the host waits (r56 dev 13194)",
     _DATASET_ON_DEVICE.format(device="config.device"), [8]),
    ("GA103", "twin: handed no device, its items are made on the CPU and .cpu() copies nothing",
     _DATASET_ON_DEVICE.format(device="config.vocab"), []),
    ("GA103", "self.log_std = nn.Parameter(torch.zeros(1, n)) in an nn.Module lives where the module goes, not on the "
     "CPU it was made on: the entropy of a Normal built from it and CUDA means is a CUDA tensor (r56 held-out 13255)",
     _LOG_STD.format(log_std="nn.Parameter(torch.zeros(1, n))"), [19]),
    ("GA103", "twin: a plain tensor attribute is not moved with the module: it stays on the CPU, and mixed with CUDA "
     "data nothing sure is read", _LOG_STD.format(log_std="torch.zeros(1, n)"), []),
    ("GA103", "calc_loss, which the training loop calls in the body that runs the update, computes one step: its walk "
     "over the schema's variables is part of that step, so the validation loop calling it per batch is a loop of "
     "batches and its per-batch read counts (r56 held-out 13258)", _SCHEMA_LOSS.format(train_loss="calc_loss"),
     [18]),
    ("GA103", "twin: a helper no training step calls, with a loop computing on CUDA data per variable, keeps its own "
     "loop of steps -- the validation loop around it is taken per epoch", _SCHEMA_LOSS.format(train_loss="other_loss"),
     []),
    ("GA103", "a loop of ppo_epochs=4 in a helper that the training loop calls after every rollout reads four times per "
     "rollout, not four times in all (r57 dev 13459)", _SHORT_UPDATE.format(
         caller="for episode in range(1000):\n    states = rollout(policy)\n    ppo_update(policy, optimizer, states)"),
     [11]),
    ("GA103", "twin: called once, outside any loop, the four reads are a handful of waits",
     _SHORT_UPDATE.format(caller="ppo_update(policy, optimizer, rollout(policy))"), []),
    ("GA104", "fool = fool / fool.sum(): a fill normalised by a number it gives itself is still a constant the GPU "
     "could make (r56 held-out 13064)", _NORMALISED_FILL.format(scale="fool.sum()"), [4]),
    ("GA104", "twin: divided by class weights loaded as a tensor it is computed from data",
     _NORMALISED_FILL.format(scale="torch.as_tensor(class_weights)"), []),
    ("GA103", "from utils import to_var: the project's pre-0.4 helper (Variable(x.cuda())) puts the batch on the GPU, "
     "so the per-step loss read waits (r58 dev 13809)", _TO_VAR.format(helper="to_var"), [9]),
    ("GA103", "twin: a project helper named for something else (to_list) says nothing of the device",
     _TO_VAR.format(helper="to_list"), []),
    ("GA104", "torch.cat([enc_in[:, 1:], zeros]): a join with a loader's data is data, not a fill made only to be "
     "copied (r58 dev 14051, r57 dev 13669)", _ROLLOUT_JOIN.format(first="enc_in[:, 1:, :]"), []),
    ("GA104", "twin: joined with another fill only, it is still a fill", _ROLLOUT_JOIN.format(
        first="torch.ones(8, 3, 2)"), [6]),
    ("GA107", "get_gpu_usage(device) reports on the device (text, numbers): handing it to a logger inside a timed "
     "region runs no model (r50 held-out 10675)", _GPU_REPORT.format(helper="get_gpu_usage"), []),
    ("GA103", "twin: get_batch(device) of another module fetches data placed on that device",
     _GPU_REPORT.format(helper="get_batch").replace("logger.critical(get_batch(device, used_memory_only=False))",
                                                    "for step in range(100):\n        print(get_batch(device).sum())"),
     [10]),
    ("GA107", "transform_fn of a helper that makes torchaudio's Spectrogram, scripted under `if jitted:` and called "
     "inside a nested run_fn: a transform with no parameter records nothing (r52 held-out 11503, r55 held-out 12703)",
     _SCRIPTED_TRANSFORM.format(made="torchaudio.transforms.Spectrogram(n_fft=400)"), []),
    ("GA107", "twin: the helper makes a network, whose forward records a graph",
     _SCRIPTED_TRANSFORM.format(made="AudioNet()"), [14]),
    ("GA106", "nw = min([...]) then nw = 0 before DataLoader(..., num_workers=nw): the override reaches the loader, "
     "which loads in the main process (r58 held-out 13805)", _FORCED_WORKERS.format(override="nw = 0"), [7]),
    ("GA106", "twin: without the override the worker count is computed, not known to be 0",
     _FORCED_WORKERS.format(override=""), []),
    ("GA103", "d_join = (args.discriminator_join <= step_count): past the threshold the flag holds on every step (a "
     "phase of training), so the read under it runs per step (r58 held-out 13815)",
     _PHASE.format(threshold="args.discriminator_join <= step_count"), [12]),
    ("GA103", "twin: a flag for the first few steps only is a guard", _PHASE.format(threshold="step_count < 5"), []),
    ("GA110", "logits, feats = discriminator(wave): a multi-scale discriminator's outputs, one per scale, are no buffer "
     "of time steps -- summing their losses is part of one step (r58 held-out 13815)",
     _SCALE_LOSSES.format(outputs="logits, feats = discriminator(wave)"), []),
    ("GA110", "logits = D.logits(a) + D.logits(b): two model outputs joined are still one output per scale (r58 "
     "held-out 13811)", _SCALE_LOSSES.format(outputs="logits = discriminator.logits(wave) + discriminator.logits(wave)"),
     []),
    ("GA110", "twin: a list of one-number CUDA tensors is a buffer of steps, and the running sum over it is a "
     "recurrence", _SCALE_LOSSES.format(outputs="logits = []\n    for r in rewards:\n        logits.append("
                                               "torch.tensor(r, device=device))"), [11]),
    ("GA103", "self.preprocess(img) of a transform handed in hands back the CUDA input transformed: copied back per "
     "batch, it waits (r59 dev 14574, 14575)", _PREPROCESS.format(attr="preprocess"), [11]),
    ("GA103", "twin: a stored callable named for something else (self.callback) says nothing of its result",
     _PREPROCESS.format(attr="callback"), []),
    ("GA103", "from utilities.utils import to_cuda_if_available: a project helper that moves what it is handed to the "
     "GPU when there is one (r59 dev 14219)", _TO_VAR.format(helper="to_cuda_if_available"), [9]),
    ("GA103", "data[i] = data[i].to(device): each item of a siamese batch replaced by its own GPU copy -- a list of "
     "tensors, nothing stored back into host memory (r59 dev 14206, 14207)",
     _PAIR_MOVE.format(value="data[i].to(device)"), []),
    ("GA103", "twin: another item's GPU copy stored into a CPU tensor's slot is a copy back",
     _PAIR_MOVE.format(value="target[i].to(device)"), [7]),
    ("GA101", "tensor2array(pred) of the project's utils copies the prediction to host data, so the GPU work is done "
     "before the clock closes (r59 dev 14362, 14366)", _TO_ARRAY.format(helper="tensor2array"), []),
    ("GA101", "twin: a helper named for something else (postprocess) may queue more GPU work: the clock closes "
     "unsynchronized", _TO_ARRAY.format(helper="postprocess"), [13]),
    ("GA102", "warmup_timings = exp(model, 200) before experiment_timings = exp(model, 200): the first call, kept "
     "under a warm-up's name, is the warm-up (r59 dev 14378)", _WARMUP_CALL.format(first="warmup_timings"), []),
    ("GA102", "twin: two measured calls both kept: the first holds the cold start",
     _WARMUP_CALL.format(first="first_timings"), [12]),
    ("GA103", "if step % print_interval == 0 with print_interval = 1: an interval of one holds on every step (r53 dev "
     "11971, r54 held-out 12464)", _EVERY_ONE.format(every="1"), [9]),
    ("GA103", "twin: an interval of ten reads now and then", _EVERY_ONE.format(every="10"), []),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s23_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
