"""Classes of session 17 (issue 12), each with its must-not twin, fixed on the spent corpora r34-r43 before r44 was
scored: each line that runs a model for inference is its own finding (test-time augmentation); a learning-rate
scheduler's step after a validation pass trains nothing; `torch.device(device="cuda:0")` is a CUDA device (the keyword
form); an output copied to the host and then detached (`out.cpu().detach()`) was recorded for nothing; a Dataset class of another file handed `device=` makes its items there; a method a class inherits from a base class of the same file (a mixin's
`self.to_var(x)`, its `device` property) runs the base's code; a module's own Parameter or buffer moved to the input's device in forward is
already there (model.to moved it); a model the loop itself took to the CPU to save it is put back, not
moved again; a buffer's `_batch_size` / `capacity` is a Python int whatever the buffer holds; `generators[i](x)` runs one of a list of models; a `model` parameter called with no backward in a file that names CUDA is the
GPU model its caller hands in; appending to a list is no GPU work; a yolov5 / ultralytics detector runs its own
inference mode and its `results.pandas()` tables are host data; `DEV` imported from a config is a device; an `input()` that pauses before the loop ends
does not make every iteration wait on a person; a metric handed CUDA tensors aggregates on the GPU; DDP's `self.gpu_id` /
`local_rank` is a CUDA device; a NumPy random draw wrapped and copied to the GPU is a fill the GPU can draw itself, as
r40, r43 and r44's labellers set it; anomaly detection in a branch that replays a bad batch is on demand; a class named
like a model, of another module, handed only a device is built there; a module of the file with no parameters records no graph; a preview helper the
training loop calls every few epochs is no per-step inference; `if valid.sum() > 0:` holds on most iterations;
`.to(dtype=float32)` keeps the device; `next(self.parameters()).device` in a module's method can be CUDA; a helper that
calls `model.eval()` on the model it is handed leaves the caller's model in eval mode; `.astype(float)` is NumPy's, never a CUDA tensor's; a deep copy moved to the
device is a new model each round; net.zero_grad() alone trains nothing; building a scheduler over the optimizer trains nothing;
`model_cpu = model.cpu()` moves the module itself; emit_nvtx() around the program's main() annotates the whole run;
`torch.tensor(np.log(args.init_temperature))` is float64; ultralytics' YOLO moved to the GPU gives CUDA results
(read back per frame) but runs its own inference mode; a tiny model, loss and optimizer handed to a train() helper are
sized from the module-level names they are; a float64 dtype chosen by a helper and handed around by name is reported
once, where it is chosen (r44's development half)."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import GENERATOR_PREVIEW, lines_of

_EPOCHS = """
import torch
def train_net(train_loader, val_loader, model, criterion, optimizer, scheduler):
    for epoch in range(20):
        for data, target in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(data.cuda()), target.cuda())
            loss.backward()
            optimizer.step()
        val_loss = []
        for data, target in val_loader:
            output = model(data.cuda())
            val_loss.append(criterion(output, target.cuda()))
        {after}
"""

_LAP = """
import time
import torch
model = Net().cuda()
accs = []
for x, y in loader:
    start = time.perf_counter()
    loss = model(x.cuda()).sum()
    loss.backward()
    {after}
"""

_GATING = """
import torch
def evaluate(loader, gating):
    gating.eval()
    for inputs, labels in loader:
        x = inputs.to(device=DEVICE)
        scores = gating.forward(x=x)
        print(scores.shape)
if __name__ == "__main__":
    DEVICE = {device}
    evaluate(make_loader(), Net().to(DEVICE))
"""

_SPEECH = """
import torch
from dataset import SpeechDataset
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
loader = torch.utils.data.DataLoader(SpeechDataset(split="train", device={device}), batch_size=16, num_workers=4)
def step(model, x, y, opt):
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()
for x, y in loader:
    print(step(model, x, y, opt))
"""

_PREVIEW = GENERATOR_PREVIEW + """for epoch in range(100):
    for real in loader:
        loss = netD(real.cuda()).mean() - netD(netG(torch.randn(64, 100, 1, 1, device="cuda"))).mean()
        loss.backward()
        optD.step()
    if {guard}:
        show_generated_img()
"""

CASES = [
    ("GA107", "test-time augmentation: each flipped forward of the eval model is its own line to fix (r42)", """
import torch
def validate(model, loader):
    model.eval()
    for x, y in loader:
        x = x.cuda()
        logit = model(x).softmax(1)
        logit += model(x.flip(dims=(2,))).flip(dims=(2,)).softmax(1)
        logit += model(x.flip(dims=(3,))).flip(dims=(3,)).softmax(1)
        print(logit.argmax(1).sum())
""", [6, 7, 8]),
    ("GA107", "other methods of the model on the same iteration are not forwards of their own", """
import torch
def rollout(model, env):
    model.eval()
    for step in range(100):
        out = model(env.observe().cuda())
        preds = model.extract_preds(out)
        if model.has_interaction(preds):
            env.act(preds)
""", [5]),
    ("GA107", "scheduler.step(val_loss) after the validation pass trains nothing: the pass records for nothing (r42)",
     _EPOCHS.format(after="scheduler.step(sum(val_loss))"), [11]),
    ("GA107", "torch.device(device=...) chosen at the module's run: the evaluation loop's inputs can be on CUDA (r43)",
     _GATING.format(device='torch.device(device="cuda:0") if torch.cuda.is_available() else torch.device(device="cpu")'),
     [6]),
    ("GA107", "twin: the same evaluation with the device the CPU only", _GATING.format(device='torch.device(device="cpu")'),
     []),
    ("GA107", "an embedding helper whose output is copied to the host and detached records a graph for nothing (r42)", """
import torch, torchvision
net = torchvision.models.mobilenet_v2(pretrained=True).cuda()
def embed(image):
    predictions = net(image.unsqueeze(0).cuda())
    return predictions.cpu().detach().numpy().ravel()
""", [4]),
    ("GA107", "twin: the same helper under torch.no_grad()", """
import torch, torchvision
net = torchvision.models.mobilenet_v2(pretrained=True).cuda()
@torch.no_grad()
def embed(image):
    predictions = net(image.unsqueeze(0).cuda())
    return predictions.cpu().detach().numpy().ravel()
""", []),
    ("GA103", "a Dataset of another module handed device=DEVICE yields CUDA batches: the step's loss.item() reads "
     "back (r43, r40)", _SPEECH.format(device="DEVICE"), [10]),
    ("GA103", "twin: the same Dataset handed the CPU", _SPEECH.format(device='"cpu"'), []),
    ("GA103", "self.to_var(x) inherited from a mixin of the same file moves the batch to the mixin's device (r42)", """
import torch
class TorchUtils:
    def __init__(self, gpu):
        self.gpu = gpu
    @property
    def device(self):
        return torch.device(f"cuda:{self.gpu}" if torch.cuda.is_available() and self.gpu is not None else "cpu")
    def to_var(self, t):
        return t.to(self.device)
class Detector(TorchUtils):
    def __init__(self, gpu=None):
        TorchUtils.__init__(self, gpu)
        self.net = torch.nn.Linear(3, 3)
    def fit(self, loader):
        for x in loader:
            out = self.net(self.to_var(x))
            print(out.sum().item())
""", [17]),
    ("GA103", "twin: a mixin whose device is always the CPU", """
import torch
class TorchUtils:
    @property
    def device(self):
        return torch.device("cpu")
    def to_var(self, t):
        return t.to(self.device)
class Detector(TorchUtils):
    def __init__(self):
        self.net = torch.nn.Linear(3, 3)
    def fit(self, loader):
        for x in loader:
            out = self.net(self.to_var(x))
            print(out.sum().item())
""", []),
    ("GA105", "self.weights (an nn.Parameter of this module) .to(x.device) in forward copies nothing: model.to moved "
     "it (r43)", """
import torch
class Layer(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weights = torch.nn.Parameter(torch.Tensor(n, n))
        self.register_buffer("scale", torch.ones(n))
    def forward(self, x):
        return torch.cdist(x, self.weights.to(device=x.device)) * self.scale.to(x.device)
model = Layer(8).cuda()
for x in loader:
    print(model(x.cuda()).shape)
""", []),
    ("GA105", "twin: a plain tensor attribute (no Parameter, no buffer) stays on the CPU and is copied every call", """
import torch
class Layer(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.linear = torch.nn.Linear(n, n)
        self.mask = torch.ones(n, n)
    def forward(self, x):
        return self.linear(x) * self.mask.to(x.device)
model = Layer(8).cuda()
for x in loader:
    print(model(x.cuda()).shape)
""", [8]),
    ("GA105", "net.cpu(); torch.save(...); net.to(device) in the epoch loop puts the model back (r43)", """
import torch
device = "cuda"
net = Net().to(device)
for epoch in range(100):
    train(net)
    net.cpu()
    torch.save(net.state_dict(), "best.pt")
    net.to(device)
""", []),
    ("GA105", "twin: net.to(device) on every epoch with nothing taking it off the GPU", """
import torch
device = "cuda"
net = Net().to(device)
for epoch in range(100):
    train(net)
    torch.save(net.state_dict(), "best.pt")
    net.to(device)
""", [7]),
    ("GA103", "len(buffer._storage) < buffer._batch_size of a replay buffer of CUDA tensors compares Python ints (r43)",
     """
import torch
class Agent:
    def __init__(self, device="cuda"):
        self.buffer = ReplayBuffer(batch_size=64)
        self.buffer.extend({"obs": torch.zeros(4, device=device)})
    def replay(self):
        if len(self.buffer._storage) < self.buffer._batch_size:
            return
        batch = self.buffer.sample()
    def run(self, env):
        for step in range(10000):
            self.replay()
""", []),
    ("GA107", "generators[i](frame) of a list of unpickled CUDA models, per webcam frame, inference only (r42)", """
import torch
generator_a = torch.load("a.pt").cuda()
generator_b = torch.load("b.pt").cuda()
generators = [generator_a, generator_b]
while True:
    frame = torch.from_numpy(camera.read()).cuda()
    out = generators[choice](frame)
    show(out.data.cpu().numpy())
""", [7]),
    ("GA107", "twin: the same loop under torch.no_grad()", """
import torch
generator_a = torch.load("a.pt").cuda()
generator_b = torch.load("b.pt").cuda()
generators = [generator_a, generator_b]
with torch.no_grad():
    while True:
        frame = torch.from_numpy(camera.read()).cuda()
        out = generators[choice](frame)
        show(out.data.cpu().numpy())
""", []),
    ("GA107", "warm-up forwards of a handed-in model in a helper that profiles CUDA activity (r43)", """
import torch
def inference_time(model, inputs, warm_up):
    for _ in range(warm_up):
        _ = model(inputs)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = model(inputs)
    return prof
""", [4]),
    ("GA107", "twin: the same helper in a file with no sign of CUDA", """
import torch
def inference_time(model, inputs, warm_up):
    for _ in range(warm_up):
        _ = model(inputs)
    with torch.profiler.profile() as prof:
        out = model(inputs)
    return prof
""", []),
    ("GA101", "a clock closed after a host read and a list append: the append launches nothing (r44 dev)",
     _LAP.format(after="value = loss.item()\n    accs.append(value)\n    accs.append(loss.detach())\n    "
                       "print(time.perf_counter() - start)"), []),
    ("GA101", "twin: the clock closed right after the backward pass",
     _LAP.format(after="print(time.perf_counter() - start)\n    accs.append(loss.item())"), [9]),
    ("GA107", "a yolov5 hub model on camera frames: AutoShape runs under inference mode; its pandas tables are host data "
     "(r44 dev)", """
import torch
model = torch.hub.load("ultralytics/yolov5", "custom", path="best.pt")
model.to(torch.device("cuda:0"))
while camera.isOpened():
    ok, img = camera.read()
    results = model(img)
    df = results.pandas().xyxy[0]
    for i in df.index:
        if df["class"][i] == 0:
            print(df["name"][i])
""", []),
    ("GA107", "twin: a torchvision detector on CUDA frames records a graph", """
import torch, torchvision
model = torchvision.models.detection.fasterrcnn_resnet50_fpn(weights="DEFAULT").cuda().eval()
while camera.isOpened():
    ok, img = camera.read()
    results = model([torch.from_numpy(img).cuda()])
    print(results[0]["boxes"].shape)
""", [5]),
    ("GA103", "from config import DEV: .to(DEV) can be CUDA, the step's loss.item() reads back (r44 dev)", """
import torch
from volume.config import DEV, EPOCHS
def train(loader, model, crit, opt):
    for e in range(EPOCHS):
        epoch_loss = 0.0
        for x, y in loader:
            opt.zero_grad()
            loss = crit(model(x.to(DEV)), y.to(DEV))
            loss.backward()
            opt.step()
            epoch_loss += loss.item()
""", [11]),
    ("GA103", "an input() in the branch that ends the loop is a pause before it stops, not a wait per step (r44 dev)",
     """
import torch
device = torch.device("cuda")
running = True
while running:
    for x, y in loader:
        loss = model(x.to(device)).sum()
        loss.backward()
        optimizer.step()
        value = loss.item()
        if demo:
            running = False
            input("Press enter to quit.")
""", [9]),
    ("GA103", "twin: a chat loop that waits on the user every iteration reads its answer back", """
import torch
device = torch.device("cuda")
while True:
    text = input("Say something: ")
    ids = tokenizer(text).to(device)
    print(model(ids).argmax(-1).item())
""", []),
    ("GA103", "dice_metric(y_pred=out, y=y) then dice_metric.aggregate().item() on every step (MONAI; r44 dev, r42)", """
import torch
from monai.metrics import DiceMetric
dice_metric = DiceMetric(include_background=True, reduction="mean")
for images, labels in loader:
    images, labels = images.cuda(), labels.cuda()
    outputs = model(images)
    loss = loss_fn(outputs, labels)
    loss.backward()
    optimizer.step()
    dice_metric(y_pred=outputs, y=labels)
    dice = dice_metric.aggregate().item()
    dice_metric.reset()
""", [11]),
    ("GA103", "twin: the metric fed host copies aggregates on the CPU", """
import torch
from monai.metrics import DiceMetric
dice_metric = DiceMetric(include_background=True, reduction="mean")
for images, labels in loader:
    outputs = model(images.cuda())
    dice_metric(y_pred=outputs.detach().cpu(), y=labels)
    dice = dice_metric.aggregate().item()
""", [6]),
    ("GA103", "x.to(self.gpu_id) in a DDP trainer: the step's loss.item() returned per batch reads back (r44 dev)", """
import numpy as np
import torch
class Trainer:
    def __init__(self, model, loader, optimizer, gpu_id):
        self.gpu_id = gpu_id
        self.model = model.to(gpu_id)
        self.loader, self.optimizer = loader, optimizer
    def _on_batch(self, batch):
        x, y = batch
        loss = torch.nn.functional.l1_loss(self.model(x.to(self.gpu_id)), y.to(self.gpu_id))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
    def _on_epoch(self):
        losses = []
        for batch in self.loader:
            losses.append(self._on_batch(batch))
        return np.mean(losses)
""", [14]),
    ("GA104", "torch.from_numpy(np.random.normal(...)).float().requires_grad_(True).to(device) every step (r44 dev)",
     """
import numpy as np
import torch
device = "cuda"
def latent(batch_size):
    return torch.from_numpy(np.random.normal(0, 1, (batch_size, 128))) \\
        .float().requires_grad_(True).to(device)
for real in loader:
    alpha = torch.from_numpy(np.random.random((real.size(0), 1))).float().to(device)
    fake = generator(latent(real.size(0)))
""", [5, 8]),
    ("GA104", "twin: NumPy random data that the CPU also uses is not made only to be copied", """
import numpy as np
import torch
noise = np.random.normal(0, 1, (64, 128))
np.save("noise.npy", noise)
z = torch.from_numpy(noise).float().to("cuda")
""", []),
    ("GA108", "detect_anomaly around the replay of a batch whose gradients were not finite: on demand (r44 dev)", """
import os
import torch
replay_bad_batch = os.environ.get("REPLAY_BAD_BATCH", "1") != "0"
for batch in loader:
    loss = model(batch.cuda()).sum()
    loss.backward()
    if not all(torch.isfinite(p.grad).all() for p in model.parameters()) and replay_bad_batch:
        optimizer.zero_grad(set_to_none=True)
        with torch.autograd.detect_anomaly(check_nan=True):
            model(batch.cuda()).sum().backward()
    optimizer.step()
""", []),
    ("GA108", "twin: detect_anomaly around every step", """
import torch
for batch in loader:
    with torch.autograd.detect_anomaly(check_nan=True):
        loss = model(batch.cuda()).sum()
        loss.backward()
    optimizer.step()
""", [3]),
    ("GA106", "SpeakerEncoder(device, loss_device) of another module is a model on the device: its loader feeds a GPU "
     "(r44 dev)", """
import torch
from speaker.model import SpeakerEncoder
loader = torch.utils.data.DataLoader(dataset, batch_size=4, num_workers=8)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = SpeakerEncoder(device, torch.device("cpu"))
for batch in loader:
    embeds = model(batch)
""", [3]),
    ("GA106", "twin: a Trainer of another module handed the device is no model", """
import torch
from speaker.train import Trainer
loader = torch.utils.data.DataLoader(dataset, batch_size=4, num_workers=8)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
trainer = Trainer(device)
for batch in loader:
    trainer.step(batch)
""", []),
    ("GA107", "a benchmark of the file's parameter-free attention module (settings only) records nothing (r44 dev)", """
import torch
import torch.nn as nn
import torch.nn.functional as F
class AttnProcessor(nn.Module):
    def __init__(self, use_flash_attn=False):
        super().__init__()
        self.use_flash_attn = use_flash_attn
        self.max_head_dim = 256 if use_flash_attn else None
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)
model = AttnProcessor().to("cuda")
q = torch.randn(2, 8, 128, 64, device="cuda")
for _ in range(100):
    out = model(q, q, q)
""", []),
    ("GA107", "twin: a module with a projection layer records its graph", """
import torch
import torch.nn as nn
import torch.nn.functional as F
class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(64, 64)
    def forward(self, q, k, v):
        return self.proj(F.scaled_dot_product_attention(q, k, v))
model = Attn().to("cuda")
q = torch.randn(2, 8, 128, 64, device="cuda")
for _ in range(100):
    out = model(q, q, q)
""", [13]),
    ("GA107", "a preview helper the GAN's epoch loop calls every 5 epochs (r44 dev)",
     _PREVIEW.format(guard="epoch % 5 == 0"), []),
    ("GA107", "twin: the same helper called on every epoch records a graph for nothing each time",
     _PREVIEW.format(guard="True"), [5]),
    ("GA103", "a read under `if valid.sum() > 0:` (the mask selects something: most iterations) counts (r44 dev)", """
import torch
total = 0.0
for batch in loader:
    out = model(batch.to("cuda"))
    valid = out > 0
    if valid.sum() > 0:
        total += out[valid].sum().item()
""", [6, 7]),
    ("GA103", "twin: a read under a running best's test runs only on improvement", """
import torch
best = 1e9
for batch in loader:
    loss = model(batch.to("cuda")).mean()
    if loss < best:
        best = loss.item()
""", [5]),
    ("GA103", "from_numpy(x).to(next(self.parameters()).device).to(dtype=float32) in predict: per-window .cpu() "
     "(r44 dev)", """
import numpy as np
import torch
from torch import float32, from_numpy, no_grad
class AutoEncoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(8, 8)
    def forward(self, x):
        return self.net(x)
    def predict(self, windows):
        predictions = []
        with no_grad():
            for window in windows:
                x = from_numpy(window).unsqueeze(0).to(next(self.parameters()).device).to(dtype=float32)
                predictions.append(self.forward(x).cpu().numpy())
        return np.array(predictions)
""", [15]),
    ("GA107", "evaluate(model, ...) calls model.eval(): the script's final top-level prediction records a graph (r44 dev)",
     """
import torch
model = torch.nn.Sequential(torch.nn.Linear(1, 5), torch.nn.Linear(5, 1)).to("cuda")
def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x).sum().item()
print(evaluate(model, torch.ones(3, 1, device="cuda")))
result = model(torch.Tensor([[4]]).to("cuda"))
print(result.item())
""", [8]),
    ("GA107", "twin: a helper that switches eval mode only under a flag leaves the caller's model as it was", """
import torch
model = torch.nn.Sequential(torch.nn.Linear(1, 5), torch.nn.Linear(5, 1)).to("cuda")
def evaluate(model, x, switch):
    if switch:
        model.eval()
    with torch.no_grad():
        return model(x).sum().item()
print(evaluate(model, torch.ones(3, 1, device="cuda"), True))
result = model(torch.Tensor([[4]]).to("cuda"))
print(result.item())
""", []),
    ("GA109", "show_image.astype(float) of a helper's output is a NumPy array, not float64 on the GPU (r44 dev)", """
import torch
from utils import show4tb_2d
for x, y in loader:
    out = model(x.cuda())
    show_image = show4tb_2d(x.cuda(), out)
    writer.add_image("img", show_image.astype(float))
""", []),
    ("GA105", "copy.deepcopy(net_glob).to(device) per federated round is a new model each time (r44 dev)", """
import copy
import torch
net_glob = Net().to("cuda")
for rnd in range(100):
    local = copy.deepcopy(net_glob).to("cuda")
    train(local)
""", []),
    ("GA105", "twin: the global model itself moved again every round", """
import torch
net_glob = Net().to("cuda")
for rnd in range(100):
    local = net_glob.to("cuda")
    train(local)
""", [4]),
    ("GA107", "an accuracy pass that calls net.zero_grad() but never backward records a graph per batch (r44 dev)", """
import torch
net = Net().to("cuda")
accs = []
for k in range(num_batches):
    data = x_train[k * 64:(k + 1) * 64].to("cuda")
    net.zero_grad()
    log_probs = net(data)
    accs.append(log_probs.argmax(1))
""", [7]),
    ("GA107", "a generation loop after training, at the top level where the schedulers were built (r44 dev)", """
import torch
netG = Generator().cuda()
optimizerG = torch.optim.Adam(netG.parameters())
lr_schedulerG = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(optimizerG, T_0=10)
for epoch in range(10):
    for real in loader:
        loss = netD(netG(torch.randn(64, 100, device="cuda"))).mean()
        loss.backward()
        optimizerG.step()
    lr_schedulerG.step()
for i_batch in range(0, 10000, 50):
    gen_images = netG(torch.randn(50, 100, device="cuda"))
    save(gen_images.to("cpu").clone().detach())
""", [12]),
    ("GA107", "model_cpu = model_conv.cpu() moves the module: its later forwards run on the CPU (r42)", """
import torch
model_conv = Net().cuda()
train(model_conv)
model_cpu = model_conv.cpu()
model_cpu.train(False)
for inputs, _ in val_loader:
    decoded = torch.sigmoid(model_conv(inputs).data)
""", []),
    ("GA108", "with torch.cuda.profiler.profile(): with emit_nvtx(): main() -- the whole run annotated (r44 dev)", """
import torch
with torch.cuda.profiler.profile():
    with torch.autograd.profiler.emit_nvtx():
        main()
""", [3]),
    ("GA108", "twin: emit_nvtx() around one forward to inspect", """
import torch
with torch.autograd.profiler.emit_nvtx():
    out = model(x)
""", []),
    ("GA109", "SAC's log_alpha = torch.tensor(np.log(args.init_temperature)).to(device): a float64 parameter on the "
     "GPU (r44 dev)", """
import numpy as np
import torch
class Agent:
    def __init__(self, args, device="cuda"):
        self.log_alpha = torch.tensor(np.log(args.init_temperature)).to(device)
        self.log_alpha.requires_grad = True
""", [5]),
    ("GA109", "twin: np.log of an array the file does not show may be float32", """
import numpy as np
import torch
def move(weights, device="cuda"):
    return torch.tensor(np.log(weights)).to(device)
""", []),
    ("GA103", "ultralytics' YOLO on the GPU: the boxes read back per frame, and no GA107 for its call (r44 dev)", """
import torch
from ultralytics import YOLO
class Tracker:
    def __init__(self, device="cuda"):
        self.detector = self._build(device)
    def _build(self, device):
        detector = YOLO("yolov8n.pt")
        detector.to(device)
        return detector
    def run(self, camera):
        while camera.isOpened():
            ok, frame = camera.read()
            detections = self.detector(frame, classes=[0])
            boxes = detections[0].boxes.xyxy.cpu().numpy()
""", [14]),
    ("GA110", "100 epochs of train(model, criterion, optimizer, x, y) on a 3x1 CUDA tensor and a tiny Sequential "
     "(r44 dev)", """
import numpy as np
import torch
import torch.nn as nn
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.FloatTensor(np.array([1, 2, 3])).unsqueeze(1).to(DEVICE)
y = torch.FloatTensor(np.array([1, 2, 3])).unsqueeze(1).to(DEVICE)
model = nn.Sequential(nn.Linear(1, 5), nn.Linear(5, 3), nn.Linear(3, 1)).to(DEVICE)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
def train(model, criterion, optimizer, x, y):
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    return loss
for epoch in range(1, 101):
    loss = train(model, criterion, optimizer, x, y)
""", [17]),
    ("GA110", "twin: the same loop over a model the file does not size", """
import torch
from models import BigNet
DEVICE = torch.device("cuda")
x = torch.randn(3, 1, device=DEVICE)
model = BigNet().to(DEVICE)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
def train(model, optimizer, x):
    optimizer.zero_grad()
    loss = model(x).sum()
    loss.backward()
    optimizer.step()
for epoch in range(1, 101):
    train(model, optimizer, x)
""", []),
    ("GA109", "dtype = get_dtype(config) handed to every factory: one finding, at the return that chooses float64 "
     "(r44 dev)", """
import torch
def get_dtype(config):
    if config.dtype_name == "float64":
        return torch.float64
    return torch.float32
def make_grid(n, device, dtype):
    x = torch.linspace(0.0, 1.0, n, device=device, dtype=dtype)
    w = torch.ones(n, device=device, dtype=dtype)
    return x, w
def run(config, device="cuda"):
    dtype = get_dtype(config)
    x, w = make_grid(100, device, dtype)
    b = torch.zeros(10, device=device, dtype=dtype)
""", [4]),
    ("GA109", "twin: a dtype spelled at each factory is reported at each", """
import torch
def make_grid(n, device):
    x = torch.linspace(0.0, 1.0, n, device=device, dtype=torch.float64)
    w = torch.ones(n, device=device, dtype=torch.float64)
    return x, w
make_grid(100, "cuda")
""", [3, 4]),
    ("GA101", "a clock around yolov5's hub model on a frame: AutoShape runs NMS and reads back itself (r44 dev)", """
import time
import torch
model = torch.hub.load("ultralytics/yolov5", "yolov5s")
def use_gpu(capture, model):
    model = model.cuda()
    start = time.time()
    _, frame = capture.read()
    outputs = model(frame)
    image = outputs.imgs[0]
    print(time.time() - start)
""", []),
    ("GA107", "twin: a training step after the validation loop in the same epoch makes it a training step's forward",
     _EPOCHS.format(after="optimizer.step()"), []),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s17_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
