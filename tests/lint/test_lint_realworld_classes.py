"""The classes of mistake the real-world scripts corpus found missed or misreported (issue 12, round 3).

Each case is a small example of our own, not a corpus file: several ways people write the same thing, the
ones that must be reported (at exact lines) and the ones that must not.
"""

from __future__ import annotations

import pytest
from lint_helpers import lines_of

HEAD = "import os\nimport time\nimport numpy as np\nimport torch\nfrom torch import nn\n" \
       "from torch.utils.data import DataLoader\n"
H = HEAD.count("\n")  # snippets below start on line H + 1

CASES = [
    # ---- GA108: anomaly detection in an entry point that hands the work elsewhere --------------------
    ("GA108", "module level, before a __main__ block that calls the trainer", """
import torch.multiprocessing as mp
from mypkg.training import run_training
torch.autograd.set_detect_anomaly(True)
if __name__ == "__main__":
    mp.set_start_method("spawn")
    run_training()
""", [3]),
    ("GA108", "inside main(), as a context, keyword form", """
from mypkg import train
def main():
    torch.autograd.set_detect_anomaly(mode=True)
    with torch.autograd.detect_anomaly():
        train(config="a.yaml")
if __name__ == "__main__":
    main()
""", [3, 4]),
    ("GA108", "an entry point that switches it off or ties it to a flag", """
from mypkg import train, parse_args
args = parse_args()
torch.autograd.set_detect_anomaly(args.debug)
torch.autograd.set_detect_anomaly(False)
train(args)
""", []),
    ("GA108", "a program that builds its model and trains it here, on the CPU", """
from mypkg import report
torch.autograd.set_detect_anomaly(True)
model = nn.Linear(4, 1)
x = torch.randn(16, 4)
for _ in range(10):
    model(x).sum().backward()
report(model)
""", []),
]


CASES += [
    # ---- GA107: inference over TorchScript / traced / scripted models --------------------------------
    ("GA107", "jit.load(...).cuda() run in a loop, result dropped", """
net = torch.jit.load("model.pt").cuda()
image = torch.ones(1, 3, 224, 224, device="cuda")
for i in range(1000):
    net(image)
""", [4]),
    ("GA107", "jit.load with map_location, outputs collected and read back", """
scripted = torch.jit.load("m.pt", map_location="cuda")
preds = []
for batch in batches:
    out = scripted(batch.cuda())
    preds.append(out.cpu().numpy())
""", [4]),
    ("GA107", "traced and scripted models, forward() called directly", """
model = nn.Linear(8, 2).cuda()
x = torch.randn(4, 8, device="cuda")
traced = torch.jit.trace(model, x)
scripted = torch.jit.script(model)
for _ in range(100):
    y = traced.forward(x)
for _ in range(100):
    feats = scripted(x).detach()
""", [6, 8]),
    ("GA107", "the same under no_grad / inference_mode, or trained with backward", """
net = torch.jit.load("model.pt").cuda()
x = torch.ones(1, 8, device="cuda")
with torch.no_grad():
    for _ in range(100):
        net(x)
@torch.inference_mode()
def predict(batches):
    return [net(b.cuda()) for b in batches]
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(100):
    loss = net(x).sum()
    loss.backward()
    opt.step()
""", []),
]


CASES += [
    # ---- GA103: a training loop with a hand-written update over the parameters -----------------------
    ("GA103", "print / f-string / accumulator / tqdm per step, SGD by hand over model.parameters()", """
import logging
from tqdm import tqdm
model = nn.Linear(8, 1).cuda()
x = torch.randn(64, 8, device="cuda")
running = 0.0
bar = tqdm(range(500))
for t in bar:
    loss = model(x).pow(2).sum()
    print(t, loss.item())
    logging.info(f"step {t}: {loss.item():.3f}")
    running += loss.item()
    bar.set_postfix(loss=loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= 1e-3 * param.grad
""", [9, 10, 11, 12]),
    ("GA103", "the update walks named_parameters / zip(params, grads) / param_groups, or runs in a helper", """
model = nn.Linear(8, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
params = list(model.parameters())
x = torch.randn(64, 8, device="cuda")
def clip(model):
    for name, p in model.named_parameters():
        p.grad.clamp_(-1, 1)
for t in range(100):
    loss = model(x).sum()
    loss.backward()
    clip(model)
    for p, g in zip(params, [q.grad for q in params]):
        p.data.add_(g, alpha=-0.1)
    for group in opt.param_groups:
        group["lr"] = group["lr"] * 0.99
    print(f"{t}: {loss.item()}")
""", [16]),
    ("GA103", "a step loop inside is still per epoch; a log under step % N; a loop that stops after one batch", """
model = nn.Linear(8, 1).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(list(range(10)), batch_size=2)
x = torch.randn(64, 8, device="cuda")
for epoch in range(10):
    for batch in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
for t in range(100):
    loss = model(x).sum()
    loss.backward()
    if t % 50 == 0:
        print(t, loss.item())
for images in loader:
    loss = model(x).sum()
    loss.backward()
    opt.step()
    print("Loss:", loss.item())
    break
""", []),
]


CASES += [
    # ---- GA105: the same model moved, or the same host data copied, on every iteration ------------
    ("GA105", "model = model.to(device) per batch, in the loop or in a helper called per batch", """
device = "cuda" if torch.cuda.is_available() else "cpu"
def train_fn(loader, model, optimizer):
    for image, mask in loader:
        image = image.to(device)
        model = model.to(device)
        model = model.cuda().train()
        loss = (model(image) - mask.to(device)).pow(2).mean()
        loss.backward()
        optimizer.step()
def step(model, x):
    model.to(device)
    return model(x.to(device)).sum()
net = nn.Linear(8, 1)
for xb in DataLoader(list(range(8))):
    step(net, xb)
""", [5, 6, 11]),
    ("GA105", "a new model each iteration, or each call gets another model", """
device = "cuda"
def step(model, x):
    model.to(device)
    return model(x.to(device)).sum()
for xb in DataLoader(list(range(8))):
    model = nn.Linear(8, 1).to(device)
    model = torch.load("m.pt").to(device)
for model in [nn.Linear(8, 1), nn.Linear(8, 2)]:
    model = model.to(device)
for net in (nn.Linear(8, 1) for _ in range(3)):
    step(net, torch.ones(8))
""", []),
    ("GA105", "the same host array or literal rebuilt and copied every iteration", """
MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
rgba = np.zeros((256, 256, 4), dtype=np.uint8)
x = torch.randn(8, 3, device="cuda")
while True:
    rgb = np.ascontiguousarray(rgba[..., 0:3])
    rgb = torch.from_numpy(rgb).to(device="cuda:0").to(dtype=torch.float32)
    norm = MEAN.reshape(1, 3).astype(np.float32) * 2
    y = x - torch.from_numpy(norm).cuda()
    scale = torch.tensor([0.5, 2.0, 1.0]).cuda()
    shift = torch.from_numpy(MEAN).to("cuda")
""", [6, 8, 9, 10]),
    ("GA105", "new host data each iteration: the loop's item, a buffer filled in place, random or read data", """
frames = [np.zeros((4, 4, 4), dtype=np.uint8)]
buf = np.zeros((4, 4), dtype=np.float32)
out = np.zeros((4, 4), dtype=np.float32)
for obs in frames:
    rgb = np.ascontiguousarray(obs[..., :3])
    a = torch.from_numpy(rgb).cuda()
for step in range(100):
    buf[:] = np.random.rand(4, 4)
    b = torch.from_numpy(buf).cuda()
    env.render(out=out)
    c = torch.from_numpy(out).cuda()
    noise = np.random.rand(4, 4).astype(np.float32)
    d = torch.from_numpy(noise).cuda()
    img = cam.read()
    e = torch.from_numpy(np.asarray(img)).cuda()
scale = torch.tensor([0.5, 2.0]).cuda()
""", []),
]


CASES += [
    # ---- GA102: a snippet whose work the file does not show, in a region closed by synchronize() ----
    ("GA102", "a model made elsewhere, timed in a loop, or in a function nobody here calls", """
torch.cuda.synchronize()
start = time.time()
for i in range(100):
    with torch.no_grad():
        outputs = model(inputs)
torch.cuda.synchronize()
print("fps =", 100 / (time.time() - start))
def bench(net, x):
    t0 = time.perf_counter()
    y = net.forward(x)
    torch.cuda.synchronize()
    return time.perf_counter() - t0
""", [5, 10]),
    ("GA102", "warmed up first, no synchronize, CUDA computed before, or only bookkeeping timed", """
for _ in range(3):
    model(inputs)
torch.cuda.synchronize()
start = time.time()
outputs = model(inputs)
torch.cuda.synchronize()
print(time.time() - start)
t0 = time.time()
out = encoder(batch)
print(time.time() - t0)
a = torch.randn(64, 64, device="cuda")
b = a @ a
t1 = time.time()
res = decoder(b_host)
torch.cuda.synchronize()
print(time.time() - t1)
def log_times(results, x):
    t2 = time.time()
    results.append(x)
    print(len(results), x)
    torch.cuda.synchronize()
    return time.time() - t2
""", []),
]


CASES += [
    ("GA105", "a literal rebuilt and copied in forward() or in a helper called per step", """
class Scale(nn.Module):
    def forward(self, x):
        return x * torch.tensor([0.5, 2.0]).to(x.device)
model = Scale().cuda()
def prep(x):
    return x - torch.tensor(0.5).cuda()
for step in range(10):
    y = model(prep(torch.ones(2, device="cuda")))
""", [3, 6]),
    # ---- GA108: reproducibility settings are not debug switches (the check's definition) -----------
    ("GA108", "cudnn.deterministic with benchmark, and switches turned off", """
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = True
os.environ["CUDA_LAUNCH_BLOCKING"] = "0"
# torch.autograd.set_detect_anomaly(True)
model = nn.Linear(8, 8).cuda()
""", []),
]


def test_messages_say_what_was_copied():
    code = HEAD + "for step in range(10):\n    scale = torch.tensor([0.5, 2.0]).cuda()\n"
    from advisor.lint import lint_text
    (finding,) = lint_text(code, path="s.py", select=["GA105"])
    assert "the same host data `[0.5, 2.0]`" in finding.message and "CPU tensor" not in finding.message


CASES += [
    ("GA105", "the same data converted on the way to the GPU, every epoch", """
device = torch.device("cuda")
x_train = np.load("x.npy")
x_t = torch.from_numpy(np.load("t.npy"))
model = nn.Linear(3, 1).to(device)
for epoch in range(100):
    inputs = torch.from_numpy(x_train).float().to(device)
    targets = x_t.view(-1, 1).float().cuda()
    loss = (model(inputs) - targets).pow(2).mean()
    loss.backward()
""", [6, 7]),
    ("GA105", "each batch converted on the way to the GPU", """
device = torch.device("cuda")
model = nn.Linear(3, 1).to(device)
for xb, batch in DataLoader(list(range(8))):
    inputs = xb.float().to(device)
    targets = batch["y"].float().cuda()
    frames = torch.from_numpy(np.stack(batch["frames"])).float().to(device)
""", []),
]


CASES += [
    ("GA108", "switches on only when a debug flag asks for them", """
from mypkg import train, args
DEBUG = os.environ.get("MY_DEBUG") == "1"
if args.debug:
    torch.autograd.set_detect_anomaly(True)
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
def main(cfg):
    if cfg.detect_anomaly:
        torch.autograd.set_detect_anomaly(True)
    if DEBUG or cfg.profile:
        with torch.profiler.profile() as prof:
            for _ in range(10):
                train()
    train()
""", []),
    ("GA108", "on in the other branch of a flag, or under a condition that is not a flag", """
from mypkg import train, args
if args.debug:
    pass
else:
    torch.autograd.set_detect_anomaly(True)
if torch.cuda.is_available():
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
train()
""", [5, 7]),
]


CASES += [
    ("GA102", "a snippet warmed up through a helper that is handed the model", """
warmup(model, inputs, steps=10)
torch.cuda.synchronize()
start = time.time()
outputs = model(inputs)
torch.cuda.synchronize()
print(time.time() - start)
""", []),
]


@pytest.mark.parametrize("check_id,title,code,lines", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_case(check_id, title, code, lines):
    found = lines_of(HEAD + code.lstrip("\n"), select=[check_id])
    assert [line - H for line, _ in found] == lines, found
