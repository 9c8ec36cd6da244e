"""Classes of session 25 (issue 12), each with its must-not twin, fixed on r60-r62's spent held-out halves."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

_SYNTHETIC_BATCH = """
import torch
device = torch.device("cuda")
def make_batch(batch_size, vocab=1000):
    ids = torch.randint(1, vocab, (batch_size, 20))
    mask = torch.ones_like(ids).float()
    {fill}
    return ids, mask
def train(model, opt):
    for epoch in range(5):
        ids, mask = make_batch(64)
        ids = ids.to(device)
        mask = mask.to(device)
        loss = model(ids, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
"""

_IDENTITY_IN_LOSS = """
import torch
def orthogonality_loss(transform):
    identity = torch.eye(transform.size(1)){index}
    if transform.is_cuda:
        identity = identity.cuda()
    diff = torch.bmm(transform, transform.transpose(1, 2)) - identity
    return torch.norm(diff)
"""

_RANK_DEVICE = """
import torch
def main(rank, loader, model, opt):
    device = rank {op} torch.cuda.device_count()
    model = model.to(device)
    for x, y in loader:
        x = x.to(device, non_blocking=True)
        loss = model(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
"""

_OLD_TORCH_READ = """
import torch
def test(model, loader):
    correct = 0
    for x, y in loader:
        out = model(x.cuda())
        num = {value}.data[0]
        correct += num
    return correct
"""

_TIMED_EVAL_BATCH = """
import time
import torch
def test(model, loader):
    accs = []
    with torch.no_grad():
        for x, y in loader:
            tic = time.time()
            pred = model(x.cuda()).argmax(-1)
            {read}
            toc = time.time()
            print(toc - tic)
    return accs
"""

_PROJECT_DEVICE = """
{head}
def test(model, all_users, u_batch_size):
    model.eval()
    top_k = max(world.topks)
    ratings = []
    with torch.no_grad():
        for users in utils.minibatch(all_users, batch_size=u_batch_size):
            users = torch.Tensor(users).long().to(world.device)
            rating = model.getUsersRating(users)
            ratings.append(rating.cpu())
    return ratings
"""

_GRAPH_LOADER = """
import torch
from dgl.dataloading import {loader}
def train(dataset, model, opt, device):
    loader = {loader}(dataset, batch_size=32, shuffle=True)
    for graphs, labels in loader:
        loss = model(graphs.to(device), labels.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
"""

_DTYPE_CONSTANT = """
import torch
from torch.autograd import grad
dtype = torch.double
device = torch.device("cuda")
def dfx(x, f{param}):
    return grad([f], [x], grad_outputs=torch.ones(x.shape, dtype=dtype, device=device), create_graph=True)[0]
def d2fx(x, f{param}):
    return grad(dfx(x, f), [x], grad_outputs=torch.ones(x.shape, dtype=dtype, device=device), create_graph=True)[0]
"""

_FLOAT64_METHOD = """
import torch
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 1)
    def losses(self, x):
        w = torch.ones(x.shape[0], dtype=torch.float64, device=x.device)
        return (w * self.fc(x).squeeze()).mean()
model = Net().cuda()
x = torch.rand(10, 3, device="cuda")
for step in range(100):
    loss = {call}
    loss.backward()
"""

_PASS_PER_EPOCH = """
import torch
from train import train_fn
from metrics import calculate_metrics
def main(model, loss_fn, train_loader, val_loader, x, y, epochs=50):
    model = model.to("cuda")
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    weight = torch.tensor([3.0]).to("cuda")
    for epoch in range(epochs):
        train_loss = train_fn({handed}, model, optimizer, weight)
        metric_dict = calculate_metrics({handed}, model, weight)
        print(f"loss {{train_loss:.4f}} f1 {{metric_dict['f1']:.3f}}")
"""

_FLAGGED_HELPER = """
import torch
class Exp:
    def _forward(self, x, y, flag):
        out = self.model(x.to("cuda"))
        if flag in ["valid", "test"]:
            out = out.detach().cpu()
        return out
    def train(self, loader, opt):
        for x, y in loader:
            out = self._forward(x, y, flag="train")
            loss = self.criterion(out, y.to("cuda"))
            opt.zero_grad()
            loss.backward()
            opt.step()
    def valid(self, loader, mode):
        with torch.no_grad():
            for x, y in loader:
                out = self._forward(x, y, flag={flag})
                self.preds.append(out)
"""

_PICKED_DEVICE = """
import numpy as np
import torch
from common.torch.ops import {picker}
def trainer(model, training_set, iterations):
    model = model.to({picker}())
    optimizer = torch.optim.Adam(model.parameters())
    for i in range(iterations):
        x, y = next(training_set)
        loss = ((model(x) - y) ** 2).mean()
        if np.isnan(float(loss)):
            break
        loss.backward()
        optimizer.step()
"""

_CALLED_METRICS = """
import torch
{define}
def evaluate(loader, model):
    metric = Metrics()
    totals = {{}}
    with torch.no_grad():
        for x, y in loader:
            preds = (torch.sigmoid(model(x.to("cuda"))) > 0.5).float()
            scores = metric(y.to("cuda"), preds)
            for name, value in scores.items():
                totals[name] = totals.get(name, 0.0) + value.item()
    return totals
"""
_METRICS_CLASS = """
class Metrics:
    def __call__(self, y_true, y_pred):
        tp = (y_true * y_pred).sum()
        return {"tp": tp, "precision": tp / (y_pred.sum() + 1e-6)}
"""
_METRICS_ON_HOST = """
class Metrics:
    def __call__(self, y_true, y_pred):
        return {"tp": int((y_true * y_pred).sum())}
"""

_STAR_CUDA = """
import torch
from jtnn import *
model = JTNNVAE(vocab, 450, 56, 3)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
model = {mover}(model)
def test(loader):
    for batch in loader:
        loss, kl = model(batch, 1.0)
        print(kl)
"""

_TYPE_AS = """
import torch
def validation(model, loader, criterion):
    accuracy = 0
    for images, labels in loader:
        images, labels = images.to("cuda"), labels.to("cuda")
        output = model.forward(images)
        equality = labels == output.max(1)[1]
        accuracy += equality.type_as({other}).mean()
    return accuracy
"""

_BITS_PER_DIM = """
import numpy as np
import torch
def vq_loss(x_prime, x):
    nll = ((x_prime - x) ** 2).mean(){cast}
    return nll / np.log(2.)
def train(loss_func, model, loader, opt):
    for x in loader:
        x = x.cuda()
        bpd = loss_func(model(x), x)
        bpd.backward()
        opt.step()
model = Net().cuda()
train(vq_loss, model, loader, torch.optim.Adam(model.parameters()))
"""

_PYCUDA_TIMING = """
import time
import numpy as np
import torch
{library}
def inference(context, inputs, out_cpu, in_gpu, out_gpu):
    cuda.memcpy_htod(in_gpu, inputs)
    context.execute(1, [int(in_gpu), int(out_gpu)])
    cuda.memcpy_dtoh(out_cpu, out_gpu)
    return out_cpu
for i in range(10):
    t1 = time.time()
    res = inference(context, inputs, out_cpu, in_gpu, out_gpu)
    print(time.time() - t1)
"""

_TIMED_LOAD = """
from time import time
import torch
from resnet import resnet20
def load_pretrained():
    global model, device
    device = torch.device("cuda")
    model = resnet20()
    model.load_state_dict(torch.load("resnet20.pth"))
    model.to(device){extra}
start_time = time()
load_pretrained()
print(f"loaded in {{time() - start_time:.3f}}s")
"""

_LAYER_WALK = """
import torch
import torch.nn as nn
from base import BaseRecommender
class MultVAE(BaseRecommender):
    def __init__(self):
        super().__init__()
        self.encoder = nn.ModuleList([nn.Linear(100, 50), nn.Linear(50, 20)])
        self.to("cuda")
    def {method}(self, x):
        h = x.cuda()
        for layer in self.encoder:
            h = layer(h)
        return h
"""

_DTYPE_DEFAULT = """
import torch
def create_poisson_2d(grid_n, device="cuda", dtype=torch.float64):
    n = grid_n * grid_n
    diagonal = torch.full((n,), 4.0, dtype=dtype, device=device)
    off = torch.full((n - 1,), -1.0, dtype=dtype, device=device)
    return diagonal, off
def run_benchmark(args):
    device = "cuda"
    dtype = {dtype}
    for grid_n in [100, 200]:
        diagonal, off = create_poisson_2d(grid_n, device, dtype)
        b = torch.randn(grid_n * grid_n, dtype=dtype, device=device)
"""

_FOUR_PREDICTIONS = """
import torch
model = Net().cuda().eval()
images, labels = next(iter(test_loader))
with torch.no_grad():
    _, predicted = torch.max(model(images.cuda()), 1)
print(" ".join(f"{{CLASSES[predicted[j].item()]}}" for j in range({count})))
"""

_LR_LOGGED = """
import torch
from utils import init_optimizer
model = Net().cuda()
optimizer = init_optimizer(model.parameters(), lr=1e-3)
for x, y in loader:
    loss = criterion(model(x.cuda()), y.cuda())
    loss.backward()
    optimizer.step()
    writer.add_scalar("lr", optimizer.param_groups[0][{key}], step)
"""

_PROJECT_LOADER = """
import torch
from utils import DataLoader
model = Net().cuda()
data["train_loader"] = DataLoader({handed}, args.batch_size, shuffle=True)
"""

_HELPER_CHAIN = """
import torch
model = Net().cuda().eval()
def predict(path):
    with torch.no_grad():
        out = model(load(path).cuda())
    return out.argmax().item()
def visualize(path):
    label = predict(path)
    plot(path, label)
for path in files:
    visualize(path)
{second}
"""

_PREDICT_BATCHES = """
import numpy as np
import torch
import torch.nn as nn
from base import BaseRecommender
class MultVAE(BaseRecommender):
    def __init__(self, device):
        super().__init__()
        self.device = device
        self.encoder = nn.ModuleList([nn.Linear(100, 50), nn.Linear(50, 20)])
        self.to(self.device)
    def {method}(self, x):
        h = x
        for layer in self.encoder:
            h = layer(h)
        return h
    def predict(self, rows):
        with torch.no_grad():
            return self.{method}(torch.Tensor(rows).to(self.device)).cpu().numpy()
    def get_output(self, batches):
        return [self.predict(rows) for rows in batches]
model = MultVAE(torch.device("cuda"))
for rows in DataBatcher(users, batch_size=1024):
    out = model.predict(rows)
"""

_WARMUP_FLAG = """
import time
import torch
def test_matmul(m, n, iterations, warmup=False):
    a = torch.randn(m, n).cuda().half()
    torch.cuda.synchronize()
    start = time.time()
    c = torch.matmul(a, a)
    torch.cuda.synchronize()
    first = time.time() - start
    if warmup:
        return
    print(first)
test_matmul(8192, 8192, 10{flag})
test_matmul(512, 512, 10000)
"""

_PYTHON_FLOAT = """
import time
import torch
class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0, 0
    def update(self, val, n=1):
        self.sum += val * n
        self.count += n
def to_python_float(t):
    if {test}:
        return t.item()
    else:
        return t[0]
model = Net().cuda()
losses = AverageMeter()
for x, y in loader:
    t0 = time.time()
    loss = (model(x.cuda()) - y.cuda()).pow(2).mean()
    losses.update(to_python_float(loss), x.size(0))
    print(time.time() - t0)
"""

_ASK_AND_GENERATE = """
import torch
model = LSTM_LM(5000, 128).cuda()
def generate(word):
    model.eval()
    with torch.no_grad():
        lens = torch.tensor([1]).to("cuda")
        print(model(encode(word).cuda(), lens))
while True:
    {source}
    generate(word)
"""

_EVENT_TIMED_STEP = """
import numpy as np
import torch
m = torch.rand(10, 3, device="cuda")
trajectory = np.zeros((5000, 3))
start = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
for i in range(5000):
    {open}
    m = m + 0.01 * torch.sin(m)
    trajectory[i] = m[0, :].cpu().numpy()
    {close}
"""

_STARRED_SHAPE = """
import torch
class CycleGAN:
    def __init__(self, batch_size, channels, height, width):
        self.shape_A = (batch_size, channels, height, width)
        self.input_A = torch.Tensor({args})
        if torch.cuda.is_available():
            self.input_A = self.input_A.cuda()
"""

_GAN_TENSOR_ALIAS = """
import numpy as np
import torch
cuda = torch.cuda.is_available()
Tensor = {alias}
for i, batch in enumerate(dataloader):
    valid = Tensor(np.ones((batch.size(0), 1)))
    loss = criterion(D(batch.type(Tensor)), valid)
    loss.backward()
"""

_SOMETIMES_HELPER = """
import torch
def save_images(net, batch):
    sobel = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]).cuda()
    save(net(batch.cuda()), sobel)
for i, batch in enumerate(loader):
    loss = net(batch.cuda()).mean()
    loss.backward()
{call}
"""

_FRAMEWORK_EPOCHS = """
import torch
model = LanguageModel(10000, 650).cuda()
for epoch in range(40):
    train_loss = model.train_epoch(iter=train_iter, optimizer=optimizer)
    valid_loss = model.{call}
    print(train_loss, valid_loss)
"""

_ENUM_DEV = """
import torch
from utils_ner import NerDataset, Split
model = Net()
def evaluate(loader):
    for batch in loader:
        out = model(batch["x"].to({where}))
        print(out.argmax(-1).tolist())
dev_set = NerDataset(mode=Split.dev)
"""

_HAND_STEPPED_LOADER = """
import torch
from helpers import sample_validation_data
net = SocialLSTM().cuda()
for batch in range(dataloader.num_batches):
    x = dataloader.next_batch()
    out, loss = sample_validation_data(x.cuda(), net, dataloader)
    results.append(out.cpu().numpy())
"""

CASES = [
    ("GA104", "ids, mask = make_batch(64) then .to(device): the fills are made in the file's own helper, and reported "
     "there, where they are made (the fifth corpus's rule across a return; r60 held-out 14808, after scoring)",
     _SYNTHETIC_BATCH.format(fill="pass"), [4, 5]),
    ("GA104", "twin: a fill written into on the CPU before the return is data, not a fill the GPU could make; the mask "
     "is still reported where it is made",
     _SYNTHETIC_BATCH.format(fill="ids[:, 0] = vocab_ids[0]"), [5]),
    ("GA104", "torch.eye(n)[None, :, :] then .cuda(): new axes are a view of the fill, reported where it is made "
     "(r60 held-out 14711, after scoring)", _IDENTITY_IN_LOSS.format(index="[None, :, :]"), [3]),
    ("GA104", "twin: one row picked by a constant index is no longer the fill (a pick, not a view): not reported",
     _IDENTITY_IN_LOSS.format(index="[0]"), []),
    ("GA103", "device = rank % torch.cuda.device_count(): the GPU a distributed process takes (DiT's idiom), so the batch "
     "and the loss are on the GPU and loss.item() reads back every step (r61 held-out 15177, after scoring)",
     _RANK_DEVICE.format(op="%"), [11]),
    ("GA103", "twin: rank // device_count() is a node number, not a GPU: nothing known to be on the GPU",
     _RANK_DEVICE.format(op="//"), []),
    ("GA103", "(a.sum() + b.sum()).data[0]: torch 0.3's read of a whole reduction (one element), per batch (r60 held-out "
     "14602, after scoring)", _OLD_TORCH_READ.format(value="((out > 0.5).float().sum() + (y.cuda() == 1).sum())"), [6]),
    ("GA103", "twin: out.data[0] of a batch's output is its first row, still on the GPU: no read",
     _OLD_TORCH_READ.format(value="out"), []),
    ("GA103", "accs.extend((pred == y).cpu().tolist()) just before a per-batch clock closes: the flags are collected "
     "for later, the program's own per-batch read, not a latency test's wait (r60 held-out 14623, after scoring)",
     _TIMED_EVAL_BATCH.format(read="accs.extend((pred == y.cuda()).cpu().tolist())"), [9]),
    ("GA103", "twin: a read whose value is dropped just before the clock is how the clock waits for the GPU",
     _TIMED_EVAL_BATCH.format(read="pred.cpu()"), []),
    ("GA103", "users.to(world.device) with `import world`: a device the project configures in its own module, can be "
     "CUDA, so the per-batch rating.cpu() reads back (r60 held-out 14925, after scoring)",
     _PROJECT_DEVICE.format(head="import torch\nimport utils\nimport world"), [12]),
    ("GA103", "the same in an excerpt that dropped its imports: world is bound nowhere in the file and several of its "
     "settings are read (world.device, world.topks): a module of the project",
     _PROJECT_DEVICE.format(head="import torch\nimport utils"), [11]),
    ("GA103", "twin: world bound in the file to something of its own says nothing of a device",
     _PROJECT_DEVICE.format(head="import torch\nimport utils\nworld = Grid(10)"), []),
    ("GA106", "DGL's GraphDataLoader subclasses torch's DataLoader (batches of whole graphs collated on the host): with "
     "default options it loads in the main process, unpinned (r63 dev 15951; torchmeta's BatchMetaDataLoader too)",
     _GRAPH_LOADER.format(loader="GraphDataLoader"), [4]),
    ("GA106", "twin: DGL's own DataLoader samples subgraphs its own way (often on the GPU): its options mean other things",
     _GRAPH_LOADER.format(loader="DataLoader"), []),
    ("GA109", "dtype = torch.double at module level, handed to every factory as dtype=dtype: reported once, at the constant "
     "where float64 is chosen (the session-25 placement; r63 dev 16065)", _DTYPE_CONSTANT.format(param=""), [3]),
    ("GA109", "twin: a dtype parameter of the function is the caller's choice, not the constant's: at each factory",
     _DTYPE_CONSTANT.format(param=", dtype=torch.float32"), []),
    ("GA109", "model.losses(x), a method of the file's own class that makes float64 inside: reported inside, where the "
     "float64 is chosen, not again at the call (r63 dev 16065; r58-r62 lose six such reports)",
     _FLOAT64_METHOD.format(call="model.losses(x)"), [7]),
    ("GA109", "twin: the model's forward under the float64 choice made in losses() is not reported a second time",
     _FLOAT64_METHOD.format(call="model.losses(x) + model(x).mean()"), [7]),
    ("GA103", "self._forward(x, y, flag=\"valid\") whose `if flag in [\"valid\", \"test\"]: out = out.cpu()` runs for the "
     "constant this call passes: reported at this calling line, not at the flag=\"train\" one (the session-12 placement "
     "for a helper called from two loops; r63 dev 16010)", _FLAGGED_HELPER.format(flag='"valid"'), [18]),
    ("GA103", "twin: a flag the call does not spell out (flag=mode) leaves the branch unknown: nothing reported",
     _FLAGGED_HELPER.format(flag="mode"), []),
    ("GA103", "model.to(default_device()): N-BEATS's project helper that picks the device (like get_device(), "
     "get_default_device()) can pick CUDA, so float(loss) reads back every step (r63 dev 16021)",
     _PICKED_DEVICE.format(picker="default_device"), [10]),
    ("GA103", "the Jovian courses' get_default_device()", _PICKED_DEVICE.format(picker="get_default_device"), [10]),
    ("GA103", "twin: a helper named for the CPU picks no GPU", _PICKED_DEVICE.format(picker="cpu_device"), []),
    ("GA103", "metric(y, preds) of a class of the file's own with a __call__ hands back what __call__ returns (a dict "
     "of CUDA sums), so value.item() per batch reads back (r63 dev 16124; r62 held-out 15403, spent)",
     _CALLED_METRICS.format(define=_METRICS_CLASS), [16]),
    ("GA103", "twin: a __call__ that hands back Python numbers reads inside (reported there, once); the loop's "
     "value.item() then reads nothing", _CALLED_METRICS.format(define=_METRICS_ON_HOST), [5]),
    ("GA107", "model = cuda(model) of a star import (DGL's JTNN helper): a helper named for the move puts the model "
     "on the GPU, so the test loop's forward without no_grad records (r63 dev 16365)",
     _STAR_CUDA.format(mover="cuda"), [8]),
    ("GA107", "twin: a helper named for something else says nothing of where the model is",
     _STAR_CUDA.format(mover="prepare"), []),
    ("GA103", "equality.type_as(torch.FloatTensor()) of a CUDA comparison: the other's type is a CPU one, so the "
     "flags are copied back on every batch (the Udacity projects' idiom; r64 dev 16518)",
     _TYPE_AS.format(other="torch.FloatTensor()"), [8]),
    ("GA103", "twin: type_as(output), a CUDA tensor: a cast on the GPU, nothing read back",
     _TYPE_AS.format(other="output"), []),
    ("GA109", "nll / np.log(2.): a NumPy float64 scalar is a Python float to torch (np.float64 subclasses float) and "
     "promotes nothing, so the CUDA result stays float32 (r64 dev 16303)", _BITS_PER_DIM.format(cast=""), []),
    ("GA109", "twin: a float64 tensor in the division does make it float64, reported where it is chosen",
     _BITS_PER_DIM.format(cast=".double()"), [4]),
    ("GA101", "in_gpu / out_gpu in a file that drives the GPU through pycuda (TensorRT's samples): that library's "
     "buffers, not torch tensors, so no torch timing finding (r64 dev 16456)",
     _PYCUDA_TIMING.format(library="import pycuda.driver as cuda"), []),
    ("GA101", "twin: without pycuda the *_gpu names are read as CUDA tensors, as before",
     _PYCUDA_TIMING.format(library="from buffers import cuda"), [13]),
    ("GA101", "a clock around the file's own load_pretrained(), whose only GPU work is model.to(device): copies from "
     "pageable memory, no kernel -- the copies-only rule through a call (r64 dev 16260)", _TIMED_LOAD.format(extra=""),
     []),
    ("GA101", "twin: the same helper warming the model up with a forward queues kernels the clock does not wait for",
     _TIMED_LOAD.format(extra="\n    model(torch.randn(1, 3, 32, 32, device=device))"), [13]),
    ("GA107", "for layer in self.encoder: h = layer(h) in a model's own forward (its base class from another file): one "
     "forward pass walking its layers, not a loop of inferences (r63 dev 15962)", _LAYER_WALK.format(method="forward"),
     []),
    ("GA107", "twin: the same walk in another method that nothing trains is a loop of forwards without no_grad",
     _LAYER_WALK.format(method="embed"), [12]),
    ("GA109", "dtype=torch.float64 as a helper's parameter default, and dtype = torch.float64 in the caller that hands it "
     "on: reported at those two choices, not at each factory using dtype=dtype (the session-25 placement; r65 dev "
     "16858-16860)", _DTYPE_DEFAULT.format(dtype="torch.float64"), [2, 9]),
    ("GA109", "twin: a caller handing a dtype the file does not spell out (a command-line choice): each factory as before",
     _DTYPE_DEFAULT.format(dtype="args.dtype"), [4, 5]),
    ("GA103", "a caption of four predictions read once (for j in range(4)), outside any loop: four waits, nothing to "
     "win (r65 dev 16615, 16616)", _FOUR_PREDICTIONS.format(count="4"), []),
    ("GA103", "twin: a walk of a thousand elements reads a thousand times", _FOUR_PREDICTIONS.format(count="1000"), [6]),
    ("GA103", "optimizer.param_groups[0][\"lr\"] logged every step: a Python number, even when the pass took the "
     "optimizer (built by a helper over CUDA parameters) for a tensor (r65 dev 16958)", _LR_LOGGED.format(key='"lr"'), []),
    ("GA103", "twin: the group's \"params\" are the CUDA parameters themselves", _LR_LOGGED.format(key='"params"'), [9]),
    ("GA106", "DataLoader(data['x_train'], data['y_train'], batch_size) of the project's utils: its own loader over "
     "inputs and targets (torch's takes one dataset, then a batch size) -- no workers or pinning to ask of it (r65 dev "
     "16752, STSSL/DCRNN's idiom)", _PROJECT_LOADER.format(handed="data['x_train'], data['y_train']"), []),
    ("GA106", "twin: a re-export handed one dataset is torch's loader passed on", _PROJECT_LOADER.format(
        handed="data['train_set']"), [4]),
    ("GA103", "loop -> visualize() -> predict() whose .item() another loop also reaches: each loop's calling line, "
     "nothing inside the helpers (the session-25 rule for chains; r65 dev 16602, r62 dev 15613, r61 held-out 15363)",
     _HELPER_CHAIN.format(second="for path in more_files:\n    print(predict(path))"), [11, 13]),
    ("GA103", "twin: one loop reaching the read through the chain: at the read's own line",
     _HELPER_CHAIN.format(second=""), [6]),
    ("GA103", "a batch loop calling predict(), whose forward walks the model's layers (a class of a base from another "
     "file): the walk is part of one forward, so the batch loop is the hot one and predict's .cpu() reads per batch "
     "(r63 dev 15962)", _PREDICT_BATCHES.format(method="forward"), [18]),
    ("GA103", "twin: a loop of steps inside a method other than forward makes the calling loop a loop of rounds",
     _PREDICT_BATCHES.format(method="encode_all"), []),
    ("GA102", "test_matmul(..., warmup=True) called first: the call says it is the warm-up, its cold time is dropped "
     "(r63 dev 16061)", _WARMUP_FLAG.format(flag=", warmup=True"), []),
    ("GA102", "twin: without the warm-up call the first measured call runs cuBLAS cold", _WARMUP_FLAG.format(flag=""),
     [7]),
    ("GA101", "apex's to_python_float: `if hasattr(t, \"item\")` sends tensors to .item(); the else branch's t[0] is "
     "no tensor, so the meter update after the read queues nothing and the step clock waits (r63 dev 16162)",
     _PYTHON_FLOAT.format(test='hasattr(t, "item")'), []),
    ("GA101", "twin: a test that says nothing of the type leaves t[0] a CUDA tensor handed on after the read",
     _PYTHON_FLOAT.format(test="t.dim() == 0"), [20]),
    ("GA105", "generate() called once per line a person types (while True: word = input(...)): one copy per request, "
     "nothing to hoist out of a hot loop (r65 dev 16967)", _ASK_AND_GENERATE.format(
        source='word = input("Input the first word: ")'), []),
    ("GA105", "twin: the same loop fed from a list of words copies the literal on every iteration",
     _ASK_AND_GENERATE.format(source="word = words.pop()"), [6]),
    ("GA103", "a per-step .cpu() read just before end.record(): CUDA events time the stream, so the read is no wait a "
     "clock needs -- a per-step read like any other (r65 dev 16660)",
     _EVENT_TIMED_STEP.format(open="start.record()", close="end.record()\n    torch.cuda.synchronize()\n"
                              "    s0 += start.elapsed_time(end)"), [10]),
    ("GA103", "twin: the same read just before a host clock closes is the latency test's wait",
     _EVENT_TIMED_STEP.format(open="t0 = time.time()", close="print(time.time() - t0)"), []),
    ("GA104", "torch.Tensor(*self.shape_A): an unpacked shape is sizes, an empty fill made on the CPU only to be moved "
     "(r66 dev 17302)", _STARRED_SHAPE.format(args="*self.shape_A"), [5]),
    ("GA104", "twin: torch.Tensor(data) of one sequence is data, copied as it must be",
     _STARRED_SHAPE.format(args="self.shape_A"), []),
    ("GA104", "Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor (PyTorch-GAN's idiom), then "
     "Tensor(np.ones(...)) per step: a NumPy fill copied to the GPU by the alias (r66 dev 17362)",
     _GAN_TENSOR_ALIAS.format(alias="torch.cuda.FloatTensor if cuda else torch.FloatTensor"), [6]),
    ("GA104", "twin: an alias of the CPU constructor only makes host data",
     _GAN_TENSOR_ALIAS.format(alias="torch.FloatTensor"), []),
    ("GA105", "a helper rebuilding a literal kernel on the GPU, called under `if i % 100 == 0:`: now and then, not per "
     "step (r66 dev 17265; r59 dev 14416 and r60 held-out 14824 lose their false reports too)",
     _SOMETIMES_HELPER.format(call="    if i % 100 == 0:\n        save_images(net, batch)"), []),
    ("GA105", "twin: called on every step, the same copy is repeated per step",
     _SOMETIMES_HELPER.format(call="    save_images(net, batch)"), [3]),
    ("GA107", "model.train_epoch(...) is a whole epoch of training, model.validate(valid_iter, loss) a whole pass over "
     "an iterator the object runs itself: no forward of the loop's to report (r66 dev 17014, 17308)",
     _FRAMEWORK_EPOCHS.format(call="validate(valid_iter, loss)"), []),
    ("GA107", "twin: a method handed one batch is a forward the loop runs without no_grad",
     _FRAMEWORK_EPOCHS.format(call="score(batch.cuda())"), [5]),
    ("GA103", "twin of world.device: Split.dev of a project's enum is a dataset split, not a device (r65 held-out 16606, "
     "after scoring: tuned, not a measure)", _ENUM_DEV.format(where="Split.dev"), []),
    ("GA103", "the same loop moving its batches to the project config's device reads per batch",
     _ENUM_DEV.format(where="config.device").replace("from utils_ner import NerDataset, Split",
                                                     "import config\nfrom utils_ner import NerDataset, Split"), [8]),
    ("GA103", "a loop that steps its loader by hand (dataloader.next_batch()) and hands it to a helper for lookups is "
     "still the batch loop: its per-batch .cpu() reads (r65 held-out 16907, after scoring: tuned, not a measure)",
     _HAND_STEPPED_LOADER, [7]),
    ("GA103", "train_fn(train_loader, model, ...) of another module is handed a whole loader: one iteration is an epoch, "
     "and the epoch's metric reads are per epoch (r63 dev 16123)", _PASS_PER_EPOCH.format(handed="train_loader"), []),
    ("GA103", "twin: handed one batch, the same calls are a step, and reading their results every iteration waits",
     _PASS_PER_EPOCH.format(handed="(x, y)"), [11, 11]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s25_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
