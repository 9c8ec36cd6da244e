"""Classes of session 18 (issue 12), each with its must-not twin, fixed on the spent corpora r34-r45 while r46 was
gathered: an L-BFGS optimizer runs the closure handed to its step() up to max_iter times in one call, so a read in the
closure waits on every evaluation even when the step is called once (a PINN's `pinn.optimizer.step(pinn.closure)`)."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import GENERATOR_PREVIEW, lines_of

_LBFGS = """
import torch
class PINN:
    def __init__(self, net):
        self.net = net.cuda()
        self.optimizer = torch.optim.LBFGS(self.net.parameters(), {options})
        self.iter = 0
    def closure(self):
        self.optimizer.zero_grad()
        loss = self.net(x_f).pow(2).mean()
        loss.backward()
        self.iter += 1
        print(self.iter, loss.item())
        return loss
pinn = PINN(Net())
pinn.optimizer.step(pinn.closure)
"""

_NESTED_CLOSURE = """
import torch
def train(model, x):
    model = model.cuda()
    opt = torch.optim.{optimizer}
    history = []
    def closure():
        opt.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        history.append(float(loss.detach().cpu()))
        return loss
    opt.step(closure)
"""

_PREVIEW = GENERATOR_PREVIEW + "{caller}\n"

_LABELS = """
import torch
device = "cuda" if torch.cuda.is_available() else "cpu"
model = Net().to(device)
for x, y in loader:
    x, y = x.to(device), y.to(device)
    logits = model(x)
    labels.extend({read})
"""

_TILES = """
import torch
from helpers import build_loaders
def group_tiles(ctr, offsets):
    for y in range(0, offsets.shape[1], 512):
        for x in range(0, offsets.shape[2], 512):
            ctr = ctr + offsets[:, y:y + 512, x:x + 512].sum()
    return ctr
model = Net().cuda().eval()
loaders = build_loaders()
with torch.no_grad():
    for batch in {source}:
        preds = model(batch.cuda())
        for index in range(preds.shape[0]):
            mask = group_tiles(preds[index], preds).squeeze().cpu().numpy()
            results.append(mask)
"""

_SAMPLER = """
import time
import torch
def run_sampling_experiment(diffusion_model, model, images, n_samples=4, device="cpu"):
    preview = images[0].unsqueeze(0).to(device)
    start_time = time.time()
    samples = diffusion_model.sample({handed})
    took = time.time() - start_time
    return samples, took
"""

_SCHEDULE = """
import torch
def linear_beta_schedule(timesteps, start=0.0001, end=0.02):
    return torch.linspace(start, end, timesteps)
T = 1000
device = "cuda"
betas = linear_beta_schedule(T).to(device)
{second}
"""

_REVERSE = """
import torch
device = "cuda"
alpha_bar = torch.linspace(0.9, 0.1, 1000, device=device)
x = torch.randn(4, 3, 32, 32, device=device)
for i, t in enumerate(timesteps):
    t_prev = timesteps[i + 1] if i + 1 < len(timesteps) else -1
    prev = alpha_bar[t_prev] if {test} else torch.tensor(1.0).to(device)
    x = model(x, t) * prev.sqrt()
"""

_MAIN_SWITCH = """
import torch
device = "cuda"
def test(loader, model):
    for data, target in loader:
        output = model(data.to(device))
        print(output.sum().item())
if __name__ == "__main__":
    TEST = {value}
    model = Net().to(device)
    for epoch in range(20):
        train(loader, model)
        if TEST:
            test(test_loader, model)
"""

_YOLO = """
import time
import torch
from ultralytics import YOLO
device = "cuda" if torch.cuda.is_available() else "cpu"
model = {made}
start_time = time.time()
results = model("frame_001.jpg")
end_time = time.time()
print(end_time - start_time)
"""

_DETECTION_EVAL = """
import time
import torch
cpu_device = torch.device("cpu")
model = Detector().cuda()
model.eval()
for images, targets in data_loader:
    images = list(img.cuda() for img in images)
    torch.cuda.synchronize()
    model_time = time.time()
    outputs = model(images)
    outputs = [{k: v.to(cpu_device) for k, v in t.items()} for t in outputs]
    model_time = time.time() - model_time
    evaluator.update(outputs)
"""

_LATENCY = """
import time
import torch
model = Net().cuda()
x = torch.randn(1, 3, 224, 224, device="cuda")
for _ in range(10):
    model(x)
for _ in range(100):
    start = time.time()
    out = model(x)
    out.cpu()
    times.append(time.time() - start)
"""

CASES = [
    ("GA103", "a read in the closure of an L-BFGS step runs on each of its max_iter evaluations (r42 8912)",
     _LBFGS.format(options="max_iter=50000"), [12]),
    ("GA103", "the default max_iter is 20 evaluations", _LBFGS.format(options="lr=1.0"), [12]),
    ("GA103", "twin: max_iter=1 evaluates the closure once per step, called once", _LBFGS.format(options="max_iter=1"),
     []),
    ("GA103", "a nested closure handed to a named L-BFGS optimizer (r44 9507)",
     _NESTED_CLOSURE.format(optimizer="LBFGS(model.parameters(), max_iter=500)"), [10]),
    ("GA103", "twin: Adam's step(closure) evaluates the closure once",
     _NESTED_CLOSURE.format(optimizer="Adam(model.parameters())"), []),
    ("GA103", "twin: a read in the closure only every 100 evaluations", """
import torch
model = Net().cuda()
opt = torch.optim.LBFGS(model.parameters(), max_iter=1000)
count = 0
def closure():
    global count
    opt.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    count += 1
    if count % 100 == 0:
        print(loss.item())
    return loss
opt.step(closure)
""", []),
    ("GA101", "YOLO(...).to(device) reads its results back itself: its clock needs no synchronize (r44 9704)",
     _YOLO.format(made='YOLO("yolov8n.pt").to(device)'), []),
    ("GA102", "YOLO(...).to(device): its one timed call is the program's first CUDA computation (r44 9704)",
     _YOLO.format(made='YOLO("yolov8n.pt").to(device)'), [7]),
    ("GA102", "the same predictor moved on its own line", _YOLO.format(made='YOLO("yolov8n.pt")\nmodel.to(device)'),
     [8]),
    ("GA102", "twin: a YOLO model left on the CPU runs no CUDA work", _YOLO.format(made='YOLO("yolov8n.pt")'), []),
    ("GA103", "an entry read with a text default holds names: formatting it reads nothing (r44 9429)", """
import torch
model = Net().cuda()
for batch in loader:
    targets = {k: v.cuda() for k, v in batch.items()}
    scene = targets.get("scene_name", ["unknown"])[0]
    out = model(targets["x"])
    print(f"{scene}")
""", []),
    ("GA103", "twin: an entry read with a tensor default is the tensor", """
import torch
model = Net().cuda()
for batch in loader:
    targets = {k: v.cuda() for k, v in batch.items()}
    weight = targets.get("weight", None)
    out = model(targets["x"])
    print(f"{weight}")
""", [7]),
    ("GA107", "samples drawn once after training from a generator in training mode, detached (r44 9785)",
     _PREVIEW.format(caller="for epoch in range(10):\n    train_epoch(netG)\nshow_generated_img()"), []),
    ("GA107", "twin: the same preview called on every batch of a loop",
     _PREVIEW.format(caller="for batch in loader:\n    show_generated_img()"), [5]),
    ("GA107", "twin: one detached forward after model.eval() is an evaluation", """
import torch
model = Net().cuda()
train(model)
model.eval()
pred = model(torch.ones(1, 4, device="cuda")).detach().cpu()
""", [5]),
    ("GA105", "an array of zeros filled item by item in the loop holds new data each time (r44 9659, r39 7672)", """
import numpy as np
import torch
model = Net().cuda()
for path in files:
    data = load(path)
    batch_x = np.zeros((4, 1, 32, 32))
    for i in range(4):
        batch_x[i, 0] = data[i]
    batch_x = torch.from_numpy(batch_x).float().to("cuda")
    loss = model(batch_x).sum()
    loss.backward()
""", []),
    ("GA105", "twin: the same zeros copied unfilled are the same bytes each iteration", """
import numpy as np
import torch
model = Net().cuda()
for path in files:
    data = load(path)
    batch_x = np.zeros((4, 1, 32, 32))
    batch_x = torch.from_numpy(batch_x).float().to("cuda")
    loss = model(batch_x + data).sum()
    loss.backward()
""", [7]),
    ("GA101", "the clock after torchvision's per-batch copies to the CPU: they waited (r44 9582)", _DETECTION_EVAL, []),
    ("GA103", "those copies are the evaluation pass's per-batch reads (r44 9582)", _DETECTION_EVAL, [11]),
    ("GA103", "twin: a latency loop's read right before its clock is how it waits", _LATENCY, []),
    ("GA103", "y.numpy() with no .cpu() only works where y is on the CPU: no read (r36 6613, r34 6319)",
     _LABELS.format(read="y.numpy()"), []),
    ("GA103", "twin: y.cpu().numpy() copies it back every batch", _LABELS.format(read="y.cpu().numpy()"), [7]),
    ("GA103", "reads in the branch of a NaN test run when training breaks (r39 7625); the test itself is reported", """
import torch
model = Net().cuda()
for x, y in loader:
    loss = model(x.cuda()).sum()
    loss.backward()
    for param in model.parameters():
        if torch.isnan(param.grad).any():
            print(param, param.grad)
""", [7]),
    ("GA103", "twin: a branch under mask.any() runs on most steps (a label present in the batch)", """
import torch
model = Net().cuda()
for x, y in loader:
    out = model(x.cuda())
    mask = y.cuda() > 0
    if mask.any():
        print(out[mask].mean().item())
""", [6, 7]),
    ("GA107", "a Sequential of a CUDA model's children run per client with autograd on (r44 9759)", """
import torch
import torch.nn as nn
from torchvision.models import resnet18
net1 = resnet18().to("cuda")
dummy = torch.rand(8, 3, 28, 28, device="cuda")
for w in w_locals:
    net1.load_state_dict(w)
    pro1 = nn.Sequential(*list(net1.children())[:-1])(dummy).squeeze()
    scores.append(pro1)
""", [8]),
    ("GA107", "twin: a layer built on the spot to apply a function is no model run", """
import torch
import torch.nn as nn
from torchvision.models import resnet18
net1 = resnet18().to("cuda").eval()
dummy = torch.rand(8, 3, 28, 28, device="cuda")
with torch.no_grad():
    feats = net1(dummy)
for w in w_locals:
    probs = nn.Softmax(dim=1)(feats * w)
    scores.append(probs)
""", []),
    ("GA106", "a loader and a CUDA device handed together to another module's function feed the GPU (r40 8113)", """
import torch
from torch.utils.data import DataLoader
from bench import train
device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
loader = DataLoader(dataset, batch_size=64, num_workers=8)
train("fp16", device, loader, args)
""", [5]),
    ("GA106", "twin: a loader handed on with no device, in a file that only names one", """
import torch
from torch.utils.data import DataLoader
from bench import train
device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
print(device)
loader = DataLoader(dataset, batch_size=64, num_workers=8)
train("fp16", loader, args)
""", []),
    ("GA103", "dis(x) of CUDA tensors is on the GPU: the loss it returns is read every batch (r44 9483)", """
import torch
import torch.nn.functional as F
def train_dis(models, opt, inputs, outputs):
    gen, dis = models["gen"], models["dis"]
    fake = dis(gen(inputs).detach(), inputs)
    loss = torch.mean(F.softplus(fake))
    loss.backward()
    opt.step()
    return loss
for inputs, outputs in loader:
    loss = train_dis(models, opt, inputs.cuda(), outputs.cuda())
    total += loss.item()
""", [12]),
    ("GA103", "twin: d(x) in lower case is no discriminator by name", """
import torch
def step(d, inputs):
    return d(inputs)
for inputs in loader:
    value = step(scale, inputs.cuda())
    total += value
""", []),
    ("GA103", "torch.is_tensor(x) in a move-to-device helper reads nothing (r46 dev 10170)", """
import torch
def move_to_device(x, device):
    if torch.is_tensor(x):
        return x.to(device)
    return {k: move_to_device(v, device) for k, v in x.items()}
model = Net().cuda()
for inputs, labels in loader:
    inputs = move_to_device(inputs, "cuda")
    loss = model(inputs).sum()
    loss.backward()
""", []),
    ("GA103", "twin: torch.count_nonzero(x) is a CUDA tensor, and `if` of it reads it", """
import torch
def has_any(x):
    if torch.count_nonzero(x):
        return True
    return False
model = Net().cuda()
for inputs, labels in loader:
    out = model(inputs.cuda())
    if has_any(out):
        out.sum().backward()
""", [3]),
    ("GA103", "a loop over loaders['test'] is a loop of batches: per-item reads in it run every batch (r46 dev 10151)",
     _TILES.format(source='loaders["test_0"]'), [14]),
    ("GA103", "twin: a loop over a dict of records that calls a helper with a hot loop of its own is no loop of steps",
     _TILES.format(source='records["test_0"]'), []),
    ("GA101", "sampler.sample(model, n, device): the model runs on the device; the clock needs a sync (r46 dev 10157)",
     _SAMPLER.format(handed="model, n_samples, device"), [7]),
    ("GA101", "twin: handed no device, the sampler's work is not known to be on the GPU",
     _SAMPLER.format(handed="model, n_samples"), []),
    ("GA104", "rows of an identity picked by the labels, then copied: a one-hot made on the CPU (r46 dev 10176)", """
import torch
device = "cuda"
model = Net().to(device)
for x, y in loader:
    target = torch.eye(10)[y].to(device)
    loss = (model(x.to(device)) - target).pow(2).mean()
    loss.backward()
""", [5]),
    ("GA104", "twin: rows picked from data loaded from a file are data", """
import torch
device = "cuda"
model = Net().to(device)
table = torch.load("table.pt")
for x, y in loader:
    target = table[y].to(device)
    loss = (model(x.to(device)) - target).pow(2).mean()
    loss.backward()
""", []),
    ("GA104", "a helper's returned fill that every caller moves at once: made only to be copied (r46 dev 10156)",
     _SCHEDULE.format(second=""), [3]),
    ("GA104", "twin: the same schedule also used on the CPU", _SCHEDULE.format(second="cpu_betas = linear_beta_schedule(T)"),
     []),
    ("GA105", "the else of a counter >= 0 runs on the last step only (r46 dev 10154)",
     _REVERSE.format(test="t_prev >= 0"), []),
    ("GA105", "twin: the else of a test that fails on most steps runs on most of them",
     _REVERSE.format(test="t_prev == 0"), [7]),
    ("GA103", "test() called only under `if TEST:` with TEST = False set in the main block never runs (r46 10162)",
     _MAIN_SWITCH.format(value="False"), []),
    ("GA103", "twin: TEST = True runs it every epoch", _MAIN_SWITCH.format(value="True"), [6]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s18_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
