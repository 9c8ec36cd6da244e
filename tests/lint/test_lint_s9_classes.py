"""Classes of session 9 (issue 12), each with its must-not twin: a device a run takes from its environment
(``os.getenv("DEVICE", "cpu")``), and a library predictor (Ultralytics ``YOLO``) that places, runs and reads back
its results itself."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("GA103", "os.getenv('DEVICE', 'cpu') may name CUDA: 'cpu' is only the default; another variable says nothing",
     """
import os
import torch
from model import Net
device = os.getenv("DEVICE", "cpu")
model = Net().to(device)
opt = torch.optim.Adam(model.parameters())
for x, y in loader:
    loss = (model(x.to(device)) - y.to(device)).pow(2).mean()
    loss.backward()
    opt.step()
    print(loss.item())
where = os.getenv("DATA_DIR", "cpu")
other = Net().to(where)
for x in loader:
    print(other(x.to(where)).item())
""", [11]),
    ("GA106", "os.environ.get('DEVICE', 'cpu') feeds the loaders' batches to a device that may be CUDA", """
import os
import torch
from torch.utils.data import DataLoader
device = os.environ.get("DEVICE", "cpu")
loader = DataLoader(dataset, batch_size=64)
model = torch.nn.Linear(8, 1).to(device)
for x, y in loader:
    model(x.to(device))
""", [5]),
    ("GA104", "a --device option that defaults to cpu is a switch made to be set to cuda; a constant 'cpu' is not",
     """
import argparse
import torch
parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cpu")
args = parser.parse_args()
DEVICE = "cpu"
noise = torch.randn(64, 100).to(args.device)
table = torch.randn(64, 100).to(DEVICE)
""", [7]),
    ("GA103", "an entry of a table of modules handed CUDA tensors (postprocessors['bbox'](outputs, sizes)) returns "
     "CUDA data; one handed host data does not", """
import torch
from model import Net
model = Net().cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y, sizes in loader:
    outputs = model(x.cuda())
    loss = outputs.pow(2).mean()
    loss.backward()
    opt.step()
    results = postprocessors["bbox"](outputs, sizes)
    for r in results:
        scores = r["scores"].tolist()
    names = formatters["csv"](y)
    print(names.tolist())
""", [12]),
    ("GA103", "tokenizer.batch_decode of CUDA ids copies them back on every batch; decoding host ids does not",
     """
import torch
from transformers import AutoTokenizer, AutoModelForSeq2SeqLM
tokenizer = AutoTokenizer.from_pretrained("t5-small")
model = AutoModelForSeq2SeqLM.from_pretrained("t5-small").cuda()
model.eval()
texts = []
with torch.no_grad():
    for batch in loader:
        ids = batch["input_ids"].cuda()
        out = model(input_ids=ids, labels=ids)
        texts.extend(tokenizer.batch_decode(torch.argmax(out.logits, dim=-1)))
        texts.append(tokenizer.decode(batch["input_ids"][0]))
""", [11]),
    ("GA101", "a timing decorator whose wrapper synchronises after the call and before its closing clock times "
     "right; the same wrapper without the wait is reported at its closing clock", """
import time
import torch
a = torch.rand(4096, 4096, device="cuda")
def show_time(func):
    def wrapper(*args, **kwargs):
        torch.cuda.synchronize()
        start = time.time()
        res = func(*args, **kwargs)
        torch.cuda.synchronize(device="cuda:0")
        print(time.time() - start)
        return res
    return wrapper
def careless(func):
    def wrapper(*args):
        start = time.time()
        res = func(*args)
        print(time.time() - start)
        return res
    return wrapper
@show_time
def run_torch():
    return (a @ a).contiguous()
@careless
def run_again():
    return (a @ a).contiguous()
""", [17]),
    ("GA101", "a timing context manager that synchronises after its yield times right", """
import time
from contextlib import contextmanager
import torch
a = torch.rand(4096, 4096, device="cuda")
@contextmanager
def timer(name):
    torch.cuda.synchronize()
    start = time.perf_counter()
    yield
    torch.cuda.synchronize()
    print(name, time.perf_counter() - start)
with timer("matmul"):
    b = a @ a
""", []),
    ("GA101", "end = time.time() before a loop that restarts it every iteration: the pre-loop clock times only the "
     "first iteration's set-up; a clock that is not restarted still is a region", """
import time
import torch
from model import Net
model = Net().cuda()
end = time.time()
model.half()
for x in loader:
    data_time.update(time.time() - end)
    out = model(x.cuda().half())
    end = time.time()
start = time.time()
for x in loader:
    y = model(x.cuda())
    print(time.time() - start)
""", [14]),
    ("GA103", "a per-batch read before the meter's clock in an evaluation loop that restarts its clock is a read "
     "like any other, not the wait that closes a timing", """
import time
import torch
from model import Net
model = Net().cuda()
model.eval()
correct = 0
end = time.time()
with torch.no_grad():
    for x, y in loader:
        out = model(x.cuda())
        correct += (out.argmax(1) == y.cuda()).sum().item()
        batch_time.update(time.time() - end)
        end = time.time()
""", [11]),
    ("GA103", "the branch that fills an empty accumulator runs on the first batch only; the else branch that "
     "grows it runs on every other batch", """
import numpy as np
import torch
from model import Net
model = Net().cuda().eval()
allpreds = np.array([])
feats = None
with torch.no_grad():
    for x in loader:
        out = model(x.cuda())
        if not allpreds.size:
            allpreds = out.cpu().numpy()
        else:
            allpreds = np.concatenate((allpreds, out.cpu().numpy()))
        if feats is None:
            feats = out.mean().item()
""", [13]),
    ("GA103", "three metric reads before a per-batch clock are reads for their own sake, each reported; a latency "
     "loop's single read before its clock is how it waits for the GPU", """
import time
import torch
from model import Net
model = Net().cuda().eval()
with torch.no_grad():
    for x, y in loader:
        start = time.time()
        out = model(x.cuda())
        loss = out.mean()
        meter.update(loss.item())
        top1.update(out.max().item())
        top5.update(out.min().item())
        took = time.time() - start
    for _ in range(100):
        start = time.time()
        out = model(x.cuda())
        out.sum().item()
        times.append(time.time() - start)
""", [10, 11, 12]),
    ("GA105", "a copy made only every N steps, under a rare branch, or to the GPU the loop walks to is no "
     "per-iteration copy; the same copy on every step is", """
import torch
from model import Net
model = Net().cuda()
opt = torch.optim.Adam(model.parameters())
def evaluate(net, loader):
    net.to("cuda")
    return sum(net(x.cuda()).sum() for x in loader)
for step, (x, y) in enumerate(loader):
    loss = (model(x.cuda()) - y.cuda()).pow(2).mean()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        evaluate(model, val_loader)
    if loss < 0:
        loss = torch.tensor([1000.0]).to("cuda")
    scale = torch.tensor([1000.0]).to("cuda")
for i in range(torch.cuda.device_count()):
    probe = torch.tensor([1.0, 2.0]).cuda(i)
""", [16]),
    ("GA103", "a module imported under a name the loop later binds to its loss (from lightly import loss; loss = "
     "criterion(...)): loss.item() reads the tensor; the module's own attributes are still the module's", """
import torch
from lightly import loss
from model import Net
model = Net().cuda()
criterion = loss.NTXentLoss(temperature=0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x0, x1 in loader:
    loss = criterion(model(x0.cuda()), model(x1.cuda()))
    loss.backward()
    opt.step()
    print(loss.item())
""", [11]),
    ("GA103", "a loop calling the model's own training_step (backward and step inside) is a loop of steps, even "
     "when the metric helpers it calls walk a tensor row by row; its per-step reads count", """
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 5)
        self.optimizer = torch.optim.Adam(self.parameters())
    def forward(self, x):
        return self.fc(x)
    def accuracy(self, out, y):
        pred = out.argmax(1)
        hits = 0.0
        for i in range(out.size(0)):
            hits += (pred[i] == y[i]).float()
        return hits / out.size(0)
    def training_step(self, batch):
        x, y = batch
        self.optimizer.zero_grad()
        out = self(x)
        loss = nn.functional.cross_entropy(out, y)
        loss.backward()
        self.optimizer.step()
        return [loss, self.accuracy(out, y)]
net = Net().cuda()
xs = torch.randn(100, 32, 64, device="cuda").split(1)
ys = torch.randint(0, 5, (100, 32), device="cuda").split(1)
for i in range(len(xs)):
    loss, acc = net.training_step([xs[i][0], ys[i][0]])
    total = loss.item()
""", [29]),
    ("GA103", "a method of the file's own model class that the loop calls runs its reads on every step, reported "
     "where they are", """
import torch
import torch.nn as nn
class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
    def forward(self, x):
        return self.fc(x)
    def act(self, state):
        probs = torch.softmax(self(state), dim=-1)
        return torch.multinomial(probs, 1).item()
policy = Policy().cuda()
opt = torch.optim.Adam(policy.parameters())
for episode in range(1000):
    action = policy.act(torch.randn(1, 4, device="cuda"))
    loss = policy(torch.randn(8, 4, device="cuda")).sum()
    loss.backward()
    opt.step()
""", [11]),
    ("GA103", "a loss held in a lambda that closes over a CUDA weight (criterion = lambda x, y: focal_loss(x, y, "
     "alpha=alpha)) fed CUDA tensors returns a CUDA tensor; a lambda fed host numbers does not", """
import torch
import torch.nn as nn
from torchvision import models
def focal_loss(inputs, targets, alpha=None, gamma=2.0):
    ce = nn.functional.cross_entropy(inputs, targets, weight=alpha, reduction="none")
    return ((1 - torch.exp(-ce)) ** gamma * ce).mean()
def main():
    device = torch.device("cuda")
    alpha = torch.ones(5).to(device)
    model = models.resnet50().to(device)
    criterion = lambda inputs, targets: focal_loss(inputs, targets, alpha=alpha, gamma=2.0)
    scale = lambda v: v * 2
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for x, y in loader:
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        opt.step()
        print(loss.item(), scale(3))
""", [18]),
    ("GA103", "an instance of a library class (pdist = distances.CosineSimilarity()) called on CUDA embeddings "
     "returns CUDA data; called on host arrays it does not", """
import torch
from pytorch_metric_learning import distances
from model import Net
model = Net().cuda().eval()
pdist = distances.CosineSimilarity()
with torch.no_grad():
    for a, b in loader:
        d = pdist(model(a.cuda()), model(b.cuda())).cpu().numpy()
        e = pdist(a, b).cpu().numpy()
""", [8]),
    ("GA103", "decoding what generate() made waits for nothing (generate read every step's tokens already); "
     "decoding argmax ids computed in the loop does", """
import torch
from transformers import AutoTokenizer, AutoModelForSeq2SeqLM
tokenizer = AutoTokenizer.from_pretrained("t5-small")
model = AutoModelForSeq2SeqLM.from_pretrained("t5-small").cuda().eval()
with torch.no_grad():
    for batch in loader:
        ids = batch["input_ids"].cuda()
        beams = model.generate(input_ids=ids, num_beams=4, num_return_sequences=4)
        for beam in beams:
            text = tokenizer.decode(beam, skip_special_tokens=True)
        first = tokenizer.batch_decode(beams[:1])
        logits = model(input_ids=ids, labels=ids).logits
        guess = tokenizer.batch_decode(logits.argmax(-1))
""", [13]),
    ("GA107", "the model's own training_step (backward and step inside) is a training step, not an inference "
     "forward; its own predict() run in a loop with autograd on is", """
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 5)
        self.optimizer = torch.optim.Adam(self.parameters())
    def forward(self, x):
        return self.fc(x)
    def training_step(self, x, y):
        self.optimizer.zero_grad()
        loss = nn.functional.cross_entropy(self(x), y)
        loss.backward()
        self.optimizer.step()
        return loss
    def predict(self, x):
        return self(x).argmax(1)
net = Net().cuda()
xs = torch.randn(100, 32, 64, device="cuda")
ys = torch.randint(0, 5, (100, 32), device="cuda")
for i in range(100):
    loss = net.training_step(xs[i], ys[i])
net.eval()
for i in range(100):
    pred = net.predict(xs[i])
""", [25]),
    ("GA104", "class weights computed from counts the program spells out (torch.tensor of a list, then divided) "
     "are data, not a fill the GPU could make; a constant fill times a number still is", """
import torch
counts = torch.tensor([labels.count(i) for i in range(5)], dtype=torch.float)
total = counts.sum()
alpha = total / (len(counts) * counts)
alpha = alpha.to(torch.device("cuda"))
ones = torch.ones(5) * 2.0
ones = ones.to(torch.device("cuda"))
""", [6]),
    ("GA103", "a read in the index of an augmented assignment (counts[t.item()] += 1) runs every iteration", """
import torch
model = torch.nn.Linear(4, 3).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
counts = [0, 0, 0]
for x, labels in loader:
    out = model(x.cuda())
    labels = labels.cuda()
    out.sum().backward()
    opt.step()
    for t in labels:
        counts[t.item()] += 1
    for a, b in zip(labels, labels):
        matrix[b.item()][0] += 1
    counts[0] += 1
""", [11, 13]),
    ("GA104", "a fill reshaped on the CPU before its copy (torch.arange(n).unsqueeze(1).to(device)) is still the "
     "fill; data loaded from a file and reshaped is not", """
import torch
import numpy as np
device = torch.device("cuda")
position = torch.arange(0, 512, dtype=torch.float).unsqueeze(1).to(device)
grid = torch.zeros(64, 64).view(-1).to(device)
table = torch.from_numpy(np.load("t.npy")).unsqueeze(0).to(device)
""", [4, 5]),
    ("GA103", "the parts of a list of CUDA tensors a helper returns are tensors: `if loss < best:` reads one; "
     "testing the list itself does not", """
import torch
model = torch.nn.Linear(8, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
def step(x):
    loss = model(x).pow(2).mean()
    loss.backward()
    opt.step()
    return [loss, loss.detach() * 2]
best = 1e9
for x in loader:
    outs = step(x.cuda())
    loss, scaled = outs
    if loss < best:
        best = loss
    if outs:
        pass
""", [13]),
    ("GA107", "a validation forward after model.eval() at the end of each epoch records a graph; a GAN's preview "
     "sample after the epoch's training pass (no eval()) is left alone", """
import torch
model = torch.nn.Linear(8, 1).cuda()
netG = torch.nn.Linear(8, 8).cuda()
opt = torch.optim.SGD(list(model.parameters()) + list(netG.parameters()), lr=0.1)
for epoch in range(100):
    model.train()
    for x, y in loader:
        loss = (model(x.cuda()) - y.cuda()).pow(2).mean() + netG(x.cuda()).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    sample = netG(noise)
    model.eval()
    y_pred = model(x_val)
    history.append(float((y_pred - y_val).pow(2).mean()))
""", [14]),
    ("GA104", "a legacy sized constructor zeroed or filled in place on the CPU, then copied, is a fill the GPU could "
     "make; data wrapped and copied is not", """
import torch
n = 1000
v = torch.DoubleTensor(n, 3).zero_().cuda()
w = torch.FloatTensor(n).fill_(0.9).cuda()
x = torch.DoubleTensor(positions).cuda()
""", [3, 4]),
    ("GA106", "DataLoader(...) with an Ellipsis placeholder (a course template) is no loader to tune; a real one is",
     """
import torch
from torch.utils.data import DataLoader
model = Net().cuda()
train_loader = DataLoader(...)
test_loader = DataLoader(test_set, batch_size=64)
for x, y in test_loader:
    model(x.cuda())
""", [5]),
    ("GA103", "a device held deeper in a configuration (config.optimization.device) is a configured device, can "
     "be CUDA; a batch's own .device is not a guess", """
import torch
from model import Net
def train(config, loader):
    model = Net().to(config.optimization.device)
    opt = torch.optim.Adam(model.parameters())
    for batch in loader:
        loss = model(batch.to(config.optimization.device)).mean()
        loss.backward()
        opt.step()
        print(loss.item())
""", [10]),
    ("GA103", "a helper called twice inside one loop is reported at each call (session 12's placement: two call "
     "sites, two places the program chose to read); one called once in the loop and once outside any loop is reported "
     "inside, at its read (one loop calls it: the session-12 convention as written; session 21)", """
import torch
model = torch.nn.Linear(16, 4).cuda().eval()
def transcribe(x):
    return model(x.cuda()).argmax(-1).cpu()
def score(x):
    return model(x.cuda()).max().item()
with torch.no_grad():
    for ref, hyp in pairs:
        a = transcribe(ref)
        b = transcribe(hyp)
        s = score(ref)
    total = score(last)
""", [6, 9, 10]),
    ("GA109", "torch.device('cuda:{}'.format(args.cuda)) is a CUDA device: the model moved there and cast to "
     "float64 is reported at the cast; a text format is no device", """
import torch
from model import Net
device = torch.device("cuda:{}".format(args.cuda)) if args.cuda >= 0 else torch.device("cpu")
name = "run-{}".format(args.cuda)
model = Net()
model.to(device).double()
""", [6]),
    ("GA104", "a fill made only to be handed to the file's own helper that copies it (to_var(torch.ones(n))) is "
     "reported at the factory; data handed to the same helper is not", """
import torch
from torch.autograd import Variable
def to_var(x):
    x = x.cuda()
    return Variable(x)
for images, _ in loader:
    images = to_var(images.view(images.size(0), -1))
    real_labels = to_var(torch.ones(images.size(0)))
    z = to_var(torch.randn(64, 100))
""", [8, 9]),
    ("GA103", "swanlab.log handed a CUDA tensor reads it on every step, as wandb.log does", """
import torch
import swanlab
model = torch.nn.Linear(3, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    loss = (model(x.cuda()) - y.cuda()).pow(2).mean()
    loss.backward()
    opt.step()
    swanlab.log({"loss": loss})
""", [9]),
    ("GA103", "an evaluation helper that imports nothing of torch but moves batches with .to(device) is GPU code; "
     "a gnn handed in is a model", """
def evaluate(loader, gnn, device):
    gnn.eval()
    correct = 0
    for batch in loader:
        batch = batch.to(device)
        pred = gnn(batch.x, batch.edge_index, batch.batch).argmax(dim=1)
        correct += int((pred == batch.y).sum())
    return correct / len(loader.dataset)
""", [7]),
    ("GA108", "sync debug mode switched on around one call and back to default after it (a test that no sync sneaks "
     "in) is not left on; switched on for the whole run it is", """
import torch
def check_no_sync(ids, table):
    torch.cuda.set_sync_debug_mode("error")
    try:
        paged_indices(ids, table)
    finally:
        torch.cuda.set_sync_debug_mode("default")
def main():
    torch.cuda.set_sync_debug_mode("warn")
    train(torch.zeros(4, device="cuda"))
""", [9]),
    ("GA101", "a diffusers pipeline moved to CUDA returns PIL images: the clock after it waits for nothing queued",
     """
import time
import torch
from diffusers import StableDiffusionPipeline
pipe = StableDiffusionPipeline.from_pretrained("sd-2-1", torch_dtype=torch.float16)
pipe = pipe.to("cuda")
for i in range(20):
    start = time.time()
    image = pipe(prompt="a panda").images[0]
    times.append(time.time() - start)
""", []),
    ("GA107", "a feature transform with fixed kernels (nnAudio STFT, torchaudio Spectrogram) records no graph when "
     "timed; a model timed the same way does", """
import time
import torch
import torchaudio
from nnAudio import Spectrogram
from model import Net
y = torch.randn(16000, device="cuda")
spec_layer = Spectrogram.STFT(device="cuda")
net = Net().cuda()
for e in range(20):
    t0 = time.time()
    spec = spec_layer(y)
    mel = torchaudio.transforms.MelSpectrogram().to("cuda")(y)
    out = net(y)
    torch.cuda.synchronize()
    times.append(time.time() - t0)
""", [13]),
    ("GA106", "MONAI's DataLoader is a torch DataLoader: with no workers and no pinned memory feeding a GPU it "
     "is reported", """
import torch
from monai.data import DataLoader
model = Net().cuda()
loader = DataLoader(dataset, batch_size=4)
for batch in loader:
    model(batch["image"].cuda())
""", [4]),
    ("GA107", "an Ultralytics YOLO moved to CUDA runs its own inference mode: calling it records no graph, its "
     "results are host objects; a torchvision model moved the same way is a forward", """
import torch
import torchvision
from ultralytics import YOLO
detector = YOLO("yolo11s.pt").to("cuda")
net = torchvision.models.resnet18().to("cuda")
net.eval()
for frame, batch in frames:
    results = detector(frame)
    logits = net(batch.to("cuda"))
    boxes = results[0].boxes.xyxy.cpu().numpy()
""", [9]),
    ("GA101", "a clock around a YOLO call bound to a name first, then moved: the library synchronises itself",
     """
import time
from ultralytics import YOLO
model = YOLO("best.pt")
model.to("cuda")
start = time.time()
results = model(frame, verbose=False)
print(time.time() - start)
""", []),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s9_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
