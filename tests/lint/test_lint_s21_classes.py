"""Classes of session 21 (issue 12), each with its must-not twin, fixed on spent corpora while r54 was gathered."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import context_of, lines_of

_PREPARED = """
import torch
from accelerate import Accelerator
class Trainer:
    def __init__(self, model, loader):
        self.accelerator = Accelerator()
        (self.model, self.train_loader, self.optimizer, self.scheduler) = self.accelerator.prepare(
            model, {loader}, *make_optimizer(model))
    def run(self):
        for batch in self.train_loader:
            loss = self.model(**batch).loss
            total = loss.item()
            self.accelerator.backward(loss)
            self.optimizer.step()
"""

_SUBCLASS_STEP = """
import torch
class Trainer:
    def __init__(self, model, loader):
        self.model, self.loader, self.phases = model, loader, ["train", "val"]
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    def run(self):
        {loop}
            self.step(x.to(self.device), y.to(self.device))
    def step(self, x, y):
        pass
class ClassifierTrainer({base}):
    def step(self, x, y):
        loss = self.model(x).sub(y).pow(2).mean()
        loss.backward()
        self.optimizer.step()
        self.history.append(loss.item())
"""

_NOISE_PLACED = """
import numpy as np
import torch
device = torch.device("cuda")
for i in range(100):
    z = torch.tensor(np.random.normal(0, 1, (64, 8)), dtype=torch.float32, device={device})
    out = step(z)
"""

_GET_ARGS = """
import argparse
import torch as th
def args():
    parser = argparse.ArgumentParser()
    parser.add_argument('--device', type=int, default=0)
    return {parsed}
def run():
    net = Net().to(device)
    for x in loader:
        loss = net(x.to(device)).mean()
        print(loss.item())
if __name__ == "__main__":
    flags = args()
    device = th.device(flags.device) if flags.device >= 0 else th.device('cpu')
    run()
"""

_KNOWN_ARGS = """
import argparse
import torch
parser = argparse.ArgumentParser()
parser.add_argument("--repeats", type=int, default=3)
{parsed}
model = Net().cuda()
for i in range(args.repeats):
    print(model(x.cuda()).mean().item())
"""

_COPY_BACK = """
import torch
model = Net().cuda()
host = torch.empty(64, 10{device})
for x, y in loader:
    out = model(x.cuda())
    host.copy_(out)
    loss = out.mean()
    loss.backward()
"""

_PHASES = """for i in range(n):
          for phase in self.phases:
            self.model.train(phase == "train")
            x, y = batch()"""

_RUNNING = """
import torch
model = Net().cuda()
avg_loss = 0.0
for i, (x, y) in enumerate(loader):
    loss = model(x.cuda()).mean()
    if {test}:
        avg_loss = avg_loss * 0.9 + loss.item() * 0.1
    else:
        avg_loss = 0.0
    loss.backward()
"""

_SCHEDULE = """
import torch
from transformers import AdamW, get_linear_schedule_with_warmup
model = Model().cuda()
optimizer = AdamW([{{"params": [p for n, p in model.named_parameters()]}}], lr=1e-5)
scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=0, num_training_steps=100)
for x, y in loader:
    loss = model(x.cuda()).mean()
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"lr is {{{shown}}}")
"""

_CONFIG_DEVICE = """
import torch
configs = {{"gamma": 0.99}}
configs["device"] = {device}
class Trainer:
    def __init__(self, configs):
        self.model = Net().to(configs["device"])
    def act(self, state):
        return self.model(state).argmax()
learner = Trainer(configs)
for step in range(1000):
    action = learner.act(state)
    state = env.step(action.item())
"""

_ROLLOUT_THEN_UPDATE = """
import torch
device = "cuda"
actor = Actor().to(device)
opt = torch.optim.Adam(actor.parameters())
def play_episode(env, actor):
    obs, done = env.reset(), False
    while not done:
        obs, reward, done, info = env.step(actor(torch.as_tensor(obs, device=device)).cpu().numpy())
def update(actor, opt, batch):
    loss = actor(batch.to(device)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()
while True:
    {collect}
    update(actor, opt, buffer.sample())
"""

_FULL_GRAPH = """
import torch
model = GCN().cuda()
data = data.cuda()
opt = torch.optim.Adam(model.parameters())
def train():
    opt.zero_grad()
    loss = model(data)[data.train_mask].sum()
    loss.backward()
    opt.step()
def evaluate():
    pred = model(data).argmax(1)
    accs = []
    for mask in {masks}:
        accs.append(int((pred[mask] == data.y[mask]).sum()))
    return accs
print(evaluate())
for epoch in range(200):
    train()
    accs = evaluate()
"""

_EPSILON = """
import torch
def gradient_penalty(critic, data, fake):
    epsilon = torch.rand(data.size(0), 1, 1, 1)
    epsilon = epsilon.{shape}(data)
    epsilon = epsilon.cuda()
    return critic(epsilon * data + (1 - epsilon) * fake)
for x in loader:
    gradient_penalty(critic, x.cuda(), fake)
"""

_SAMPLER = """
import torch
def sample(model, x_T, T):
    x_t = x_T
    for t in reversed(range(T)):
        if t > 1:
            z = torch.randn_like(x_t)
        else:
            z = {last}
        z = z.to(x_t.device)
        x_t = model(x_t, t) + z
    return x_t
for batch in loader:
    sample(model, batch.cuda(), 1000)
"""

_RESHAPED_CAST = """
import torch
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
for i, data in enumerate(trainloader):
    inputs = data
    inputs = inputs.{cast}()
    inputs = inputs.unsqueeze(0)
    inputs = inputs.to(device)
    outputs = model(inputs)
"""

_HANDED_BACK = """
import torch
from shared_functions import training_loop
DEVICE = "cuda"
model = FraudMLP(16, 100).to(DEVICE)
{targets} = training_loop(model, train_loader, valid_loader)
predictions = []
for x_batch, y_batch in valid_loader:
    predictions.append(model(x_batch).detach().cpu().numpy())
"""

_TARGET_LABELS = """
import numpy as np
import torch
device = "cuda"
for x, y in loader:
    labels = torch.from_numpy(np.array({values})).float().to(device)
    loss = criterion(model(x.to(device)), labels)
"""

_PIPELINE_DEVICE = """
import torch
from torch.utils.data import DataLoader
def finetune(pipe, dataset):
    device = pipe.{holder}.device
    loader = DataLoader(dataset, batch_size=4, shuffle=True)
    opt = torch.optim.AdamW(pipe.unet.parameters())
    for lr_batch in loader:
        loss = pipe.unet(lr_batch.to(device)).mean()
        loss.backward()
        opt.step()
        print(loss.item())
"""

_HANDED_DEVICE = """
from time import time
import torch
from mrobo_torch.core import TorchKinematics
def benchmark(device):
    kinematics = TorchKinematics(M, Slist, device)
    for i in range(20):
        thetalist = torch.rand(2 ** i, 5, device=kinematics.M.device)
        start = time()
        _ = kinematics.forward(thetalist)
        took = time() - start
benchmark({device})
"""

_WRAPPED_F64 = """
import numpy as np
import torch
values_numpy = {draw}
values_torch = torch.from_numpy(values_numpy)
values_cuda = values_torch.cuda()
values_cuda_2 = values_torch.cuda()
"""

_EPOCH_CLOCK = """
import time
import torch
from dataloader import create_dataloader
DEVICE = torch.device("cuda")
model = Net().to(DEVICE)
optimizer = torch.optim.Adam(model.parameters())
train_loader = create_dataloader(mode="train")
{name} = create_dataloader(mode="valid")
runner = make_runner(cfg)
for epoch in range(100):
    start_time = time.time()
    train_loss = runner.train(model, optimizer, train_loader, DEVICE)
    vali_loss = runner.evaluate(model, {name}, DEVICE)
    print("takes {{:.2f}} seconds".format(time.time() - start_time))
"""

_USEGPU = """
import torch
def train(args, model, loader, optimizer):
    if args.{flag}:
        model.cuda()
    for pos in loader:
        if args.{flag}:
            pos = pos.cuda()
        loss = model(pos)
        if args.{flag}:
            value = loss.cpu().item()
        else:
            value = loss.item()
        loss.backward()
        optimizer.step()
"""

_ALTERNATING = """
import torch
def d_step(batch):
    loss = discriminator(batch.cuda()).mean()
    loss.backward()
    optimizer_d.step()
    return loss.item()
for epoch in range(100):
    d_steps_left, g_steps_left = 2, 1
    for batch in train_loader:
        if {test}:
            losses_d = d_step(batch)
            d_steps_left -= 1
        elif g_steps_left > 0:
            g_steps_left -= 1
        if d_steps_left > 0 or g_steps_left > 0:
            continue
        d_steps_left, g_steps_left = 2, 1
"""

_METRIC_OBJECTS = """
import torch
class Acc:
    def accumulate(self, preds, tgts):
        self.correct += preds.argmax(1).eq(tgts).sum().item()
class Dice:
    def accumulate(self, preds, gts):
        self.inter += (preds * gts).sum()
def train_one_epoch(model, loader, optimizer, metrics):
    for images, masks in loader:
        preds = model(images.cuda())
        loss = (preds - masks.cuda()).pow(2).mean()
        loss.backward()
        optimizer.step()
        for idx, metric_fn in enumerate(metrics):
            if {test}:
                metric_fn.accumulate(preds, masks.cuda())
metrics = [Acc(), Dice()]
train_one_epoch(Net().cuda(), train_loader, opt, metrics)
"""

_LANG_IDS = """
import torch
for batch in loader:
    inputs = {{"input_ids": batch[0].to(opt.device)}}
    inputs["langs"] = (torch.ones(batch[0].shape, dtype=torch.int64) * {scale}).to(opt.device)
    out = model(**inputs)
"""

_FEATURES = """
import torch
class Evaluator:
    def __init__(self, features):
        self.features = features
    def run(self, loader):
        for batch in loader:
            outputs = self.model(batch[0].cuda())
            example_indices = batch[3].cuda()
            for i, example_index in enumerate(example_indices):
                {first}
                tokens = self.features[example_index].tokens
"""

_MEL_DATASET = """
import torch
from torch.utils.data import DataLoader
from meldataset import MelDataset
device = torch.device("cuda:0")
trainset = MelDataset(files, segment_size, device=device)
train_loader = DataLoader(trainset, batch_size=16{options})
for x, y in train_loader:
    out = generator(x.to(device, non_blocking=True))
"""

_ROUNDS = """
import torch
for epoch in range(100):
    d_steps_left = 2
    for batch in train_loader:
        if d_steps_left > 0:
            d_steps_left -= 1
        else:
            loss = generator(batch.cuda()).mean()
            loss.backward()
            print(loss.item())
            {reset}
"""

_DISTRIBUTION = """
import torch
import torch.distributions as td
device = torch.device("cuda")
for x in loader:
    eps = td.Normal(loc={loc}, scale=1).sample(x.size()).to(device)
    loss = model(x.to(device) + eps).mean()
"""

_STFT = """
import torch
class Trainer:
    def __init__(self):
        self.device = torch.device("cuda")
        self.model = Net().to(self.device)
    def validate(self, loader):
        for mixture, clean in loader:
            spec = self.model(mixture.to(self.device))
            enhanced = self.stft.{method}(spec)
            speeches = enhanced.detach().cpu().numpy()
"""

_MOVED_BATCH = """
import torch
from utils import {helper}
device = torch.device("cuda:0")
model = Model().to(device)
def eval_error(step):
    model.eval()
    batch = next(eval_samples)
    {helper}(batch, device)
    feature = model.get_encoder(batch["img"])
    return feature.mean()
"""

_SPECTRO = """
import torch
import torchaudio
class Model(torch.nn.Module):
    def forward(self, batch):
        x = torchaudio.transforms.{transform}().cuda()(batch["audio"])
        return self.convs(x)
"""

_QUADRATURE = """
import torch
device = torch.device("cuda")
triangle_weights = torch.tensor({rows}, device=device)
line_weights = torch.tensor([1.0, 1.0], device=device)
for i in range(len(triangle_weights)):
    for j in range(len(line_weights)):
        weight = triangle_weights[i] * line_weights[j]
        weights.append(weight)
"""

_STAR_LOSS = """
import torch
from model_utils import *
device = "cuda"
weights = torch.ones(10, device=device)
for batch, labels in train_loader:
    preds = model(batch.to(device))
    mse_loss = {call}
    losses.append(mse_loss.item())
"""

_SLOT_CLOCK = """
import torch
from timeit import default_timer as timer
a = torch.randn(512, 512, device="cuda")
b = torch.randn(512, 512, device="cuda")
add_timer = [0, 0]
add_timer[0] = timer()
for _ in range(1000):
    a += b
{sync}
add_timer[1] = timer()
print(add_timer[1] - add_timer[0])
"""

_IMPORTED_LOSS = """
import torch
from lib.models.siamese_ema import SiameseEMA, infoNCELoss
device = torch.device("cuda")
model = SiameseEMA().to(device)
queue = torch.randn(128, 4096, device=device)
for x1, x2 in loader:
    q, k = model(x1.to(device), x2.to(device))
    loss = {call}
    print(loss.item())
"""

_TIMED_PREDICT = """
from time import time
import torch
from torch.utils.data import DataLoader, TensorDataset
from lib.utils import predict
device = torch.device("cuda")
net = STGCN().to(device)
test_loader = DataLoader(TensorDataset(x.to(device)), batch_size=32)
test_batch = x.to(device)
start_time_test = time()
prediction = predict(net, {loader}, device)
end_time_test = time()
print(end_time_test - start_time_test)
"""

CASES = [
    ("GA103", "self.x, self.loader, ... = self.accelerator.prepare(model, self.load(...), *opt_and_sched): the loader's "
     "batches are on the device (r53 held-out 11856, after scoring)", _PREPARED.format(loader="self.load('train')"),
     [11]),
    ("GA103", "twin: a plain accelerate-free file says nothing of the loader's device", _PREPARED.replace(
        "from accelerate import Accelerator", "from mylib import Accelerator").format(loader="self.load('train')"), []),
    ("GA103", "self.step(...) of a base class runs the step the file's subclass defines: its read is per batch (r53 "
     "dev 12009, after scoring)", _SUBCLASS_STEP.format(base="Trainer", loop="for x, y in self.loader:"), [16]),
    ("GA103", "twin: a class that does not derive from Trainer is not what self.step runs",
     _SUBCLASS_STEP.format(base="object", loop="for x, y in self.loader:"), []),
    ("GA103", "a loop over training phases calling self.step(...) is a loop of steps, not of epochs, when the "
     "subclass's step trains (r53 dev 12008, after scoring)", _SUBCLASS_STEP.format(base="Trainer", loop=_PHASES), [19]),
    ("GA103", "flags = args() of a function returning parser.parse_args(): flags.device is the option, GPU 0 by "
     "default (r53 dev 12015, 12017, after scoring)", _GET_ARGS.format(parsed="parser.parse_args()"), [11]),
    ("GA103", "twin: the function hands back something else, which says nothing of the device",
     _GET_ARGS.format(parsed="load_settings(parser)"), []),
    ("GA103", "args, _ = parser.parse_known_args(): args is the namespace of the options (--repeats 3 by default: "
     "three reads, nothing to win)", _KNOWN_ARGS.format(parsed="args, _ = parser.parse_known_args()"), []),
    ("GA103", "also parser.parse_known_args()[0]", _KNOWN_ARGS.format(parsed="args = parser.parse_known_args()[0]"),
     []),
    ("GA103", "twin: a namespace of the program's own says nothing of the count",
     _KNOWN_ARGS.format(parsed="args, _ = settings.load()"), [8]),
    ("GA103", "host.copy_(out) reads the GPU data back into host memory, like out.cpu()", _COPY_BACK.format(device=""),
     [6]),
    ("GA103", "twin: a copy between two CUDA tensors stays on the GPU", _COPY_BACK.format(device=', device="cuda"'), []),
    ("GA103", "`if avg_loss:` of a running value its branch updates from itself (and its else seeds) holds on every "
     "iteration once seeded (r53 dev 11801, after scoring)", _RUNNING.format(test="avg_loss"), [7]),
    ("GA103", "twin: a flag the loop sets per iteration holds now and then", _RUNNING.replace(
        "    if {test}:", "    log_now = i in report_steps\n    if {test}:").format(test="log_now"), []),
    ("GA103", "transformers' AdamW is an optimizer and get_linear_schedule_with_warmup a schedule of numbers: "
     "get_last_lr() reads no tensor (r53 held-out 12152, after scoring)", _SCHEDULE.format(shown="scheduler.get_last_lr()"),
     []),
    ("GA103", "twin: the loss itself, formatted per step", _SCHEDULE.format(shown="loss"), [11]),
    ("GA103", "cfg['device'] that the file itself only ever sets to the CPU is the CPU (r53 dev 12059, after scoring)",
     _CONFIG_DEVICE.format(device='torch.device("cpu")'), []),
    ("GA103", "twin: set to CUDA", _CONFIG_DEVICE.format(device='torch.device("cuda")'), [12]),
    ("GA103", "twin: a key the file never sets comes from a configuration: can be CUDA",
     _CONFIG_DEVICE.format(device='torch.device("cpu")').replace('configs["device"] =', 'configs["other"] ='), [12]),
    ("GA103", "an update helper (backward and step) after an episode a helper plays is once per round, not per step "
     "(r53 dev 11812, after scoring)", _ROLLOUT_THEN_UPDATE.format(collect="play_episode(env, actor)"), [8]),
    ("GA103", "twin: no episode played in the loop: each iteration is one update step",
     _ROLLOUT_THEN_UPDATE.format(collect="buffer.add(env.sample())"), [8, 14]),
    ("GA103", "a walk over a handful of masks written out runs on every call of the per-epoch evaluate() of full-graph "
     "training; its first call before training is no loop's (r52 11761, 11662, r51 11102, after scoring)",
     _FULL_GRAPH.format(masks="[data.train_mask, data.val_mask, data.test_mask]"), [14]),
    ("GA103", "twin: evaluate() called from two loops: each calling line is where to change",
     _FULL_GRAPH.format(masks="[data.train_mask, data.val_mask, data.test_mask]")
     + "for epoch in range(100):\n    train()\n    evaluate()\n", [19, 22]),
    ("GA104", "eps.expand_as(data) takes data's shape, not its device: the draw is still on the CPU when copied (r44 "
     "9452, 9607)", _EPSILON.format(shape="expand_as"), [3]),
    ("GA104", "twin: eps.type_as(data) moves it to data's device itself", _EPSILON.format(shape="type_as"), [3]),
    ("GA104", "a name CUDA on one path and a fill just made on the CPU on the other: that path copies the fill (r40 "
     "8002, after scoring)", _SAMPLER.format(last="torch.zeros(x_t.shape)"), [8]),
    ("GA104", "twin: the other path makes its zeros on the batch's device", _SAMPLER.format(
        last="torch.zeros_like(x_t)"), []),
    ("GA109", "x = x.double(); x = x.unsqueeze(0); x.to(device): the float64 survives the reshape, reported at the "
     "cast (r39 7766, after scoring)", _RESHAPED_CAST.format(cast="double"), [5]),
    ("GA109", "twin: a float32 cast", _RESHAPED_CAST.format(cast="float"), []),
    ("GA103", "model, secs, losses = training_loop(model, ...) of a function the file does not show: the model handed "
     "in and bound back to its own name is still the CUDA model (r49 10876, after scoring)",
     _HANDED_BACK.format(targets="model, secs, losses"), [8]),
    ("GA103", "twin: bound to another name, what comes back is unknown", _HANDED_BACK.format(targets="result, secs, losses")
     .replace("predictions.append(model(", "predictions.append(result("), []),
    ("GA105", "torch.from_numpy(np.array([0.9] * batch_size)).to(device): one number written out, repeated, copied on "
     "every step (r50 10914, after scoring)", _TARGET_LABELS.format(values="[0.9] * batch_size"), [5]),
    ("GA105", "twin: the batch's own labels", _TARGET_LABELS.format(values="y"), []),
    ("GA103", "pipe.unet.device: where a model the file did not place lives, can be CUDA (r39 7670, after scoring)",
     _PIPELINE_DEVICE.format(holder="unet"), [11]),
    ("GA103", "twin: the device of something not named like a model says nothing", _PIPELINE_DEVICE.format(
        holder="scheduler"), []),
    ("GA101", "obj = Cls(..., device) of another module handed a CUDA device: obj.M.device is that device (r53 held-out "
     "11918, after scoring)", _HANDED_DEVICE.format(device="'cuda:0'"), [10]),
    ("GA101", "twin: handed the CPU", _HANDED_DEVICE.format(device="'cpu'"), []),
    ("GA109", "t = torch.from_numpy(a) of a float64 array, then t.cuda() on another line (twice): one finding, at the "
     "from_numpy (the session-20 placement; r54 dev 12308)", _WRAPPED_F64.format(draw="np.random.normal(size=8)"), [4]),
    ("GA109", "also np.fft.rfftfreq, float64 whatever its input", _WRAPPED_F64.format(draw="np.fft.rfftfreq(8, 1 / 8)"),
     [4]),
    ("GA109", "twin: a float32 array", _WRAPPED_F64.format(draw="np.random.normal(size=8).astype(np.float32)"), []),
    ("GA103", "the else of `if args.usegpu:` is the CPU path: its loss.item() waits for no GPU (r54 dev 12568)",
     _USEGPU.format(flag="usegpu"), [10]),
    ("GA103", "twin: the flag spelled use_gpu, as before", _USEGPU.format(flag="use_gpu"), [10]),
    ("GA103", "`if d_steps_left > 0:` counting down the discriminator's steps of each round is no new best: its step "
     "runs on its share of every round (Social GAN's loop, r54 dev 12466)", _ALTERNATING.format(test="d_steps_left > 0"),
     [6]),
    ("GA103", "twin: a running best, updated in its branch, runs now and then",
     _ALTERNATING.format(test="d_steps_left > best").replace("d_steps_left -= 1", "best = d_steps_left"), []),
    ("GA103", "metric objects of the file's own classes walked with enumerate(metrics): metric_fn.accumulate(...) runs "
     "their methods; `if idx == 0:` picks one of the metrics, on every batch (r54 dev 12561)",
     _METRIC_OBJECTS.format(test="idx == 0"), [4]),
    ("GA103", "twin: metric objects of another module say nothing of what accumulate() does",
     _METRIC_OBJECTS.format(test="idx == 0").replace("metrics = [Acc(), Dice()]", "metrics = make_metrics()"), []),
    ("GA104", "torch.ones(shape) * self.opt.lang_id: a fill times a setting of the run's options, still made on the "
     "CPU only to be copied (r54 dev 12212)", _LANG_IDS.format(scale="self.opt.lang_id"), [4]),
    ("GA104", "twin: times a value of the batch, data", _LANG_IDS.format(scale="batch.lang_ids"), []),
    ("GA103", "self.features[example_index] of a container the file also indexes with example_index.item(): a host "
     "list indexed by the CUDA tensor itself, a hidden read (r54 dev 12212)",
     _FEATURES.format(first="feature = self.features[example_index.item()]"), [10, 11]),
    ("GA103", "twin: nothing shows self.features is host data", _FEATURES.format(first="pass"), []),
    ("GA106", "a Dataset of another module handed device= whose loader pins memory with workers: its items are on "
     "the CPU (pinning CUDA items fails), whatever device= is for (HiFi-GAN's MelDataset, r54 dev 12201)",
     _MEL_DATASET.format(options=", num_workers=4, pin_memory=True"), []),
    ("GA106", "twin: default options, the items taken to be on the GPU as device= says", _MEL_DATASET.format(options=""),
     [6]),
    ("GA103", "the else of a countdown the loop starts over (d_steps_left = 2 when a round ends) runs on its share of "
     "every round: the generator's steps (r54 dev 12466)", _ROUNDS.format(reset="d_steps_left = 2"), [10]),
    ("GA103", "twin: a countdown never started over: its else stays the branch taken once it ran out (the existing "
     "rule for t_prev >= 0 of a reverse loop, unchanged)", _ROUNDS.format(reset="pass"), []),
    ("GA104", "td.Normal(loc=0, scale=1).sample(shape).to(device): a distribution of Python numbers draws on the CPU, "
     "the draw is copied (r54 dev 12220)", _DISTRIBUTION.format(loc="0"), [5]),
    ("GA104", "twin: a distribution of the batch's own tensors draws where they are", _DISTRIBUTION.format(
        loc="x.mean()"), []),
    ("GA104", "torch.tensor(np.random.randn(...).astype(np.float32)).to(DEVICE): the draw, cast on the CPU, still made "
     "only to be copied (r54 dev 12254)", """
import numpy as np
import torch
DEVICE = "cuda"
noisy = torch.tensor(np.random.randn(1, 64, 100).astype(np.float32)).to(DEVICE)
""", [4]),
    ("GA104", "twin: data loaded from a file and cast", """
import numpy as np
import torch
DEVICE = "cuda"
noisy = torch.tensor(np.load(path).astype(np.float32)).to(DEVICE)
""", []),
    ("GA103", "self.stft.inverse(spec) of a CUDA spectrogram hands back CUDA audio: its .cpu() per validation batch is a "
     "read (r54 dev 12457)", _STFT.format(method="inverse"), [10]),
    ("GA103", "twin: a method named for nothing computed", _STFT.format(method="describe"), []),
    ("GA107", "to_device(batch, device) on its own line moves the batch's entries in place: the model's method handed "
     "batch['img'] afterwards is a forward (r54 dev 12465)", _MOVED_BATCH.format(helper="to_device"), [9]),
    ("GA107", "twin: a helper not named for moving data says nothing of where the entries are",
     _MOVED_BATCH.format(helper="normalize"), []),
    ("GA104", "a helper returning torch.from_numpy of a NumPy fill cast on the CPU (np.triu(np.ones(...)).astype('bool')) "
     "copied by its caller (r54 dev 12555, r34 6320)", """
import numpy as np
import torch
def future_mask(seq_length):
    future_mask = np.triu(np.ones((seq_length, seq_length)), k=1).astype('bool')
    return torch.from_numpy(future_mask)
def forward(x, device):
    return attend(x, mask=future_mask(x.size(0)).to(device))
forward(batch.cuda(), "cuda")
""", [4]),
    ("GA104", "twin: a NumPy draw the benchmark also computes with is its data, cast or not", """
import numpy as np
import torch
np_a = np.random.rand(64, 64).astype(np.float16)
a = torch.tensor(np_a).cuda()
t = np_matmul(np_a, np_a)
""", []),
    ("GA104", "torch.bernoulli(p) of a tensor whose device the file does not show draws where p is: nothing known to "
     "be copied (r54 dev 12379)", """
import torch
def context_mask(c, drop, device):
    return torch.bernoulli(torch.ones_like(c).float() - drop).to(device)
""", []),
    ("GA104", "twin: drawn from a fill made on the CPU", """
import torch
def context_mask(n, drop, device):
    return torch.bernoulli(torch.ones(n) - drop).to(device)
context_mask(8, 0.1, "cuda")
""", [3]),
    ("GA110", "for L in Ls: rebinds L to the sizes listed (Ls = [256, 1024, 4096]): an earlier L = 8 is not its only "
     "size, so the loop's tensors are not known to be tiny (r54 dev 12308)", """
import torch
L = 8
Ls = [256, 1024, 4096]
for L in Ls:
    a = torch.randn(L, device="cuda")
    b = torch.randn(L, device="cuda")
    for i in range(1000):
        mask = a > b
        a[mask] = b[mask]
""", []),
    ("GA110", "twin: L = 8 only", """
import torch
L = 8
a = torch.randn(L, device="cuda")
b = torch.randn(L, device="cuda")
for i in range(1000):
    mask = a > b
    a[mask] = b[mask]
""", [6]),
    ("GA109", "v = torch.ones(n, dtype=torch.float64) built into a sparse tensor moved on a later line: one finding, "
     "where float64 was chosen (r54 dev 12421)", """
import torch
def interactions(i, n, shape, device):
    v = torch.ones(n, dtype={dtype})
    dense = torch.sparse.FloatTensor(i, v, shape).to_dense().to(device)
    return dense
interactions(idx, 10, (4, 4), "cuda")
""".replace("{dtype}", "torch.float64"), [3]),
    ("GA109", "twin: float32 values", """
import torch
def interactions(i, n, shape, device):
    v = torch.ones(n, dtype=torch.float32)
    dense = torch.sparse.FloatTensor(i, v, shape).to_dense().to(device)
    return dense
interactions(idx, 10, (4, 4), "cuda")
""", []),
    ("GA105", "torchaudio's Spectrogram() built with no arguments still holds a Hann window: rebuilt and moved on every "
     "forward, it is copied every step (r54 dev 12371)", _SPECTRO.format(transform="Spectrogram"), [5]),
    ("GA105", "twin: AmplitudeToDB() holds nothing to copy", _SPECTRO.format(transform="AmplitudeToDB"), []),
    ("GA110", "a quadrature set-up loop over the rows of tensors written out (torch.tensor([[...], [...], [...]])): "
     "six iterations, no launch-bound loop (r54 dev 12503)", _QUADRATURE.format(rows="[[0.5, 0.5], [0.2, 0.6], [0.6, 0.2]]"),
     []),
    ("GA109", "net.to(device).type(torch.double): nn.Module.type casts every parameter to float64 on the GPU (r54 "
     "held-out 12464, after scoring)", """
import torch
device = torch.device("cuda")
policy_net = PolicyNetwork(8, 2, 64).to(device).type({dtype})
out = policy_net(torch.randn(4, 8, device=device, dtype={dtype}))
""".replace("{dtype}", "torch.double"), [3, 4]),
    ("GA109", "twin: cast to float32", """
import torch
device = torch.device("cuda")
policy_net = PolicyNetwork(8, 2, 64).to(device).type(torch.float32)
out = policy_net(torch.randn(4, 8, device=device, dtype=torch.float32))
""", []),
    ("GA103", "MaskedMSELoss(preds, labels) of a star import, handed two CUDA tensors, is a loss value, not a loss module "
     "built (r55 held-out 12605, after scoring)", _STAR_LOSS.format(call="MaskedMSELoss(preds, labels.to(device))"), [8]),
    ("GA103", "twin: FocalLoss(weights) built from one tensor is a module; calling it once outside the loop reads nothing",
     _STAR_LOSS.format(call="FocalLoss(weights)"), []),
    ("GA101", "a clock pair kept in the slots of a list (add_timer[0] = timer() ... add_timer[1] = timer(), subtracted "
     "later) times queued kernels with no sync (r54 held-out 12309, after scoring)", _SLOT_CLOCK.format(sync="pass"), [10]),
    ("GA101", "twin: synchronized before the second reading", _SLOT_CLOCK.format(sync="torch.cuda.synchronize()"), []),
    ("GA103", "infoNCELoss(q, k, queue, T) imported from the project, handed CUDA tensors: a loss value (r55 dev 12602, "
     "after scoring)", _IMPORTED_LOSS.format(call="infoNCELoss(q, k, queue, 0.07)"), [9]),
    ("GA103", "twin: an imported Loss class built from one tensor is a module", _IMPORTED_LOSS.format(
        call="infoNCELoss(queue)"), []),
    ("GA101", "a timed predict(net, test_loader) of another module hands back its results, read back before it "
     "returns (r55 STGCN trainers, after scoring)", _TIMED_PREDICT.format(loader="test_loader"), []),
    ("GA101", "twin: handed no loader, the call is not known to read anything back", _TIMED_PREDICT.format(
        loader="test_batch"), [11]),
    ("GA104", "torch.tensor(np.random.normal(...), device=cuda) draws on the CPU and copies (r53 dev 12009, after "
     "scoring)", _NOISE_PLACED.format(device="device"), [5]),
    ("GA104", "twin: wrapped on the CPU, nothing is copied", _NOISE_PLACED.format(device='"cpu"'), []),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s21_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected


@pytest.mark.parametrize("loader,runs", [("train_loader", True), ("train_set", False)])
def test_a_training_function_handed_a_loader_by_name_is_a_training_run(loader, runs):
    """trainer(model, optimizer, train_loader, DEVICE) of another module, train_loader made by the project's own
    create_dataloader(): a whole run over data (GA101 and GA102 leave its epoch clock alone; r54 dev 12562)."""
    ctx = context_of(_EPOCH_CLOCK.format(name="validation_loader").replace("train_loader", loader))
    [region] = [r for r in ctx.timed_regions() if r.close is not None and r.close.lineno == 14]
    assert ctx.region_calls_training_run(region) is runs


@pytest.mark.parametrize("rows,count", [("[[0.5, 0.5], [0.2, 0.6], [0.6, 0.2]]", 3), ("load_rule(path)", None)])
def test_a_loop_over_the_rows_of_a_tensor_written_out_is_counted(rows, count):
    """for i in range(len(t)) with t = torch.tensor([[...], [...], [...]]): three iterations, as for a list literal."""
    ctx = context_of(_QUADRATURE.format(rows=rows))
    [outer] = [loop for loop in ctx.index.loops if loop.lineno == 5]
    assert ctx.loop_iterations(outer) == count
