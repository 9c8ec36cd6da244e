"""Classes of session 20 (issue 12), each with its must-not twin, fixed on spent corpora while r51 was gathered.

complex128 is double precision: each element is a pair of float64 and its arithmetic runs on the float64 units, so
it costs on the GPU what float64 costs (labelled GA109 by most earlier corpora; the session-20 brief settles it)."""

from __future__ import annotations

import pytest

from advisor.lint import lint_text
from tests.lint.lint_helpers import lines_of

_COMPLEX = """
import numpy as np
import torch
device = torch.device("cuda")
def steer(n):
    return {make}
"""

_NOISE = """
import numpy as np
import torch
device = torch.device("cuda:0")
for i in range(100):
    {draw}
    fake = g(z)
    {after}
"""

_EVALUATE = """
import torch
model = Net().cuda()
disabled = torch.tensor([1, 2, 3], device="cuda")
y_true = torch.zeros(1000, 10)
for batch_id, (x, y) in enumerate(loader):
    out = model(x.cuda())
    {line}
"""

_STEPS = """
import torch
model = Net().cuda()
losses = 0.0
for batch, (x, y) in enumerate(loader):
    loss = model(x.cuda()).mean()
    {check}
        losses += loss.item()
    loss.backward()
"""

_DECODE = """
import torch
model = Model().cuda()
for data in loader:
    ids = data["ids"].to("cuda")
    generated_ids = model.generate(input_ids=ids)
    preds = [tokenizer.decode(g) for g in {drawn}]
"""

_CPU_AGENT = """
import torch
def train(agent, env{default}):
    device = next(agent.parameters()).device
    for step in range(1000):
        state = torch.from_numpy(env.state()).float().to(device)
        action = agent(state)
        env.step(action.item())
def main():
    {main_device}
    train(Agent().to(device), Env())
"""

_SWITCH = """
import torch
HSIOnly = False
class MFT(torch.nn.Module):
    def __init__(self, HSIOnly):
        super().__init__()
        self.HSIOnly = HSIOnly
        self.fc = torch.nn.Linear(8, 2)
    def forward(self, x, y=None):
        return self.fc(x)
model = MFT(HSIOnly).cuda()
model.eval()
for x, y in loader:
    x = x.cuda()
    if HSIOnly:
        out = model(x)
    else:
        with torch.no_grad():
            out = model(x, y.cuda())
"""

_OWN_MODE = """
import torch
class Net(torch.nn.Module):
    def forward(self, x):
        return self.fc(x)
    def predict(self, x, train):
        if train:
            return self.fc(x)
        {evaluation}
model = Net().cuda()
class Tester:
    def __init__(self, model):
        self.model = model
    def run(self, batches):
        for x in batches:
            scores = self.model.predict(x.cuda(), train=False)
            P.append(scores)
Tester(model).run(loader)
"""

_DISCRIMINATORS = """
import torch
D = MultiScaleDiscriminator().cuda()
for wave in loader:
    wave = wave.cuda()
    {logits}
    loss_d = 0
    for logit in logits_fake:
        loss_d += ((logit - 1) ** 2).mean()
    loss_d.backward()
"""

_REPORTED = """
import time
import torch
model = Net().cuda()
x = torch.randn(8, 8, device="cuda")
def report(name, start):
    {wait}
    elapsed = time.time() - start
    print(name, elapsed)
with torch.no_grad():
    for _ in range(3):
        model(x)
    torch.cuda.synchronize()
    start = time.time()
    for i in range(50):
        y = model(x)
    report("forward", start)
"""

_ARGV = """
import sys
import torch
model = Net().to({device})
for x, y in loader:
    loss = model(x).mean()
    loss.backward()
    print(loss.item())
"""

_TYPE_AS = """
import torch
model = Generator().cuda()
def training_step(imgs):
    z = torch.randn(imgs.shape[0], 100)
    z = z.type_as(imgs)
    valid = torch.ones(imgs.size(0), 1){valid}
    return model(z), valid
"""

_EINOPS = """
import torch
from einops import repeat
device = "cuda"
model = Net().cuda()
def prepare(batch, n):
    dyn_v = repeat({fill}, 'n1 n2 -> b n1 n2', b=len(batch))
    return model(batch.to(device), dyn_v.to(device))
"""

_SAMPLES = """
import torch
model = Net().cuda()
samples = []
for x in loader:
    out = model(x.cuda())
    samples.append({{"question": {question}, "logits": out}})
for sample in samples:
    print(f"Question is: {{sample['question']}}")
"""

_SPEAKER = """
import torch
from resemblyzer import VoiceEncoder, preprocess_wav
device = "cuda" if torch.cuda.is_available() else "cpu"
encoder = VoiceEncoder(device=device)
for path in paths:
    wav = preprocess_wav(path)
    embed = encoder.{method}(wav)
    out.append(embed)
"""

_CHAR_RNN = """
import string
import numpy as np
import torch
model = CharRNN().cuda()
x = torch.tensor([[0]], device="cuda")
hidden = None
for p in range(100):
    output, hidden = model(x, hidden)
    top_i = torch.multinomial(output.view(-1).exp(), 1)[0]
    predicted_char = {characters}[top_i]
    if type(hidden) == tuple:
        states.append(np.concatenate([h.cpu().numpy() for h in hidden]))
"""

_REEXPORTED = """
import torch
from preprocess import get_dataset, DataLoader
model = Net().cuda()
loader = DataLoader({arguments})
for x, y in loader:
    model(x.cuda()).sum().backward()
"""

_DQN_TRAINER = """
import torch
import torch.nn.functional as F
class Trainer:
    def __init__(self, policy_net, target_net, optimizer, device):
        self.policy_net, self.target_net, self.optimizer = policy_net, target_net, optimizer
        self.device = device
    def optimize(self, states, actions, rewards, next_states):
        q = self.policy_net(states.to(self.device)).gather(1, actions)
        next_q = self.target_net(next_states).max(1)[0].detach()
        loss = F.smooth_l1_loss(q, (rewards + 0.99 * next_q).unsqueeze(1))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
    def sync(self):
        {sync}
"""

_AFTER_TRAINING = """
import time
import torch
from transformers import Seq2SeqTrainer
def main():
    trainer = {trainer}(model=model, args=args, train_dataset=train_ds)
    {run}
    model.to("cuda")
    model.eval()
    with torch.no_grad():
        start = time.time()
        for batch in loader:
            out = model.generate(batch["pixel_values"].to("cuda"))
        torch.cuda.synchronize()
        print(time.time() - start)
main()
"""

_TARGETS = """
import numpy as np
import torch
model = Net().cuda()
for step, visit in enumerate(data_train):
    target = np.full((1, 131), -1)
    {fill}
    loss = model(visit).sum() + torch.LongTensor(target).to("cuda").sum()
    loss.backward()
"""

_MEL = """
import torch
import torchaudio
device = "cuda"
model = Net().to(device)
def train_batch(x):
    mel = torchaudio.transforms.{transform}.to(device)
    loss = model(mel(x.to(device))).mean()
    loss.backward()
for x in loader:
    train_batch(x)
"""

_NAMESPACE = """
import argparse
import torch
def train(args, model, loader):
    for batch in loader:
        input_ids, labels = tuple(t.to(args.device) for t in batch)
        model(input_ids, labels).backward()
        n = (input_ids != 0).sum().item()
def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.1){option}
    args = parser.parse_args()
    args.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train(args, Net().to(args.device), loader)
main()
"""

_TRANSFORM_BENCH = """
import torch
import torchaudio
def prepare(device):
    waveform = torch.randn(1, 16000).to(device)
    transform_fn = {transform}.to(device)
    return waveform, transform_fn
def main():
    for device in [torch.device("cpu"), torch.device("cuda:0")]:
        waveform, transform_fn = prepare(device)
        for _ in range(100):
            transform_fn(waveform)
main()
"""

_RUN_NN = """
import torch
def run_nn(mode, model, loader, criterion, optim):
    losses = []
    for i, (inputs, targets) in enumerate(loader):
        outputs = model(inputs.cuda())
        if {test}:
            loss = criterion(outputs, targets.cuda())
            losses.append(loss.item())
        if mode == "train":
            loss.backward()
            optim.step()
    return losses
"""

_DDP_TRAINER = """
import os
import torch
class Trainer:
    def __init__(self, model, loader):
        self.{rank} = int(os.environ["LOCAL_RANK"])
        self.model = model.to(self.{rank})
        self.loader = loader
    def run_epoch(self):
        for x, y in self.loader:
            x = x.to(self.{rank})
            loss = self.model(x).mean()
            loss.backward()
            print(loss.item())
"""

_EARLY_STOP = """
import torch
model = Net().cuda()
best, best_epoch = 1e9, 0
for epoch in range(100):
    for x in train_loader:
        model(x.cuda()).backward()
        opt.step()
    if epoch - best_epoch > 10:
        losses = []
        for x in {data}:
            losses.append(model(x.cuda()).item())
        print(sum(losses))
        break
"""

_FILLS = """
import torch
model = Net().cuda()
class Packer(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.source = torch.tensor(torch.zeros(n), requires_grad=False).float().to("cuda")
def gradient_penalty(X_real, X_fake):
    alpha = torch.rand(X_real.size(0)).to({target})
    return alpha * X_real + (1 - alpha) * X_fake
"""

CASES = [
    ("GA109", "complex128 made on the GPU (r49 held-out 10815)",
     _COMPLEX.format(make="torch.randn(n, dtype=torch.complex128, device=device)"), [5]),
    ("GA109", "cdouble spelled the other way, moved after it is made",
     _COMPLEX.format(make="torch.zeros(n, dtype=torch.cdouble).to(device)"), [5]),
    ("GA109", "a complex128 NumPy array moved as it is (r49 dev 10806)",
     _COMPLEX.format(make="torch.from_numpy(np.zeros(n, dtype=np.complex128)).to(device)"), [5]),
    ("GA109", "the builtin complex as a dtype is complex128",
     _COMPLEX.format(make="torch.tensor([1 + 2j] * n, dtype=complex).cuda()"), [5]),
    ("GA109", "x.type(torch.float64) casts where x is: float64 on the GPU (r51 held-out 11273, after scoring)",
     _COMPLEX.format(make="torch.randn(n, device=device).type(torch.float64)"), [5]),
    ("GA109", "twin: x.type(torch.DoubleTensor) of a CUDA tensor copies it to the CPU",
     _COMPLEX.format(make="torch.randn(n, device=device).type(torch.DoubleTensor)"), []),
    ("GA109", "twin: complex64 is single precision", _COMPLEX.format(
        make="torch.randn(n, dtype=torch.complex64, device=device)"), []),
    ("GA109", "twin: a complex128 tensor converted to complex64 before the move", _COMPLEX.format(
        make="torch.zeros(n, dtype=torch.cdouble).cfloat().to(device)"), []),
    ("GA104", "a NumPy draw wrapped, then cast and moved on the next line: at the draw (r50 held-out 10910)",
     _NOISE.format(draw="z = torch.from_numpy(np.random.normal(0, 1, (8, 4)))\n    z = z.float().to(device)",
                   after="print(z.mean())"), [5]),
    ("GA104", "the draw bound first, wrapped, then moved, the name rebound at each step: at the NumPy call",
     _NOISE.format(draw="z = np.random.normal(0, 1, (8, 4))\n    z = torch.from_numpy(z)\n    z = z.float().to(device)",
                   after="z = torch.from_numpy(np.random.normal(0, 1, (8, 4))).float().to(device)"), [5, 9]),
    ("GA104", "twin: the CPU tensor is read again after the copy (kept for a CPU run)",
     _NOISE.format(draw="z = torch.from_numpy(np.random.normal(0, 1, (8, 4)))\n    zc = z.float().to(device)",
                   after="print(z.mean())"), []),
    ("GA104", "twin: NumPy computes with its draw too (a NumPy-vs-torch benchmark's input)",
     _NOISE.format(draw="a = np.random.normal(size=8)\n    t = torch.from_numpy(a)\n    z = t.cuda()",
                   after="r = np.fft.rfft(a)"), []),
    ("GA103", "`k not in t` asks a CUDA tensor (Tensor.__contains__): a host read (r50 held-out 10618)",
     _EVALUATE.format(line="for k in range(16):\n        if k not in disabled:\n            print(k)"), [8]),
    ("GA103", "twin: a key asked of a batch the loop reads by key is a question about the dict",
     _EVALUATE.format(line='if "mask" in x:\n        print(x["mask"])'), []),
    ("GA103", "a CUDA tensor stored into a slot of a CPU tensor is a copy back per store (r50 held-out 10668)",
     _EVALUATE.format(line="y_true[batch_id][...] = out"), [7]),
    ("GA103", "twin: a CUDA value stored into a batch dict by its own keys",
     _EVALUATE.format(line="for k, v in x.items():\n        x[k] = v.to('cuda')"), []),
    ("GA103", "the branch a healthy step takes (`if loss.isnan().any() == False:`) runs every step: its reads count "
     "(r51 dev 11010)", _STEPS.format(check="if loss.isnan().any() == False:"), [6, 7]),
    ("GA103", "the same spelled with not", _STEPS.format(check="if not torch.isnan(loss):"), [6, 7]),
    ("GA103", "twin: the branch a diverged step takes runs rarely: only the test is read every step",
     _STEPS.format(check="if torch.isnan(loss):"), [6]),
    ("GA103", "a read after an every-k guard in the same `and` runs every k steps only (r51 dev 11010)",
     _STEPS.format(check="if batch % 8 == 0 and torch.isfinite(loss):"), []),
    ("GA103", "twin: the read comes first, so it runs every step", _STEPS.format(
        check="if torch.isfinite(loss) and batch % 8 == 0:"), [6]),
    ("GA103", "decoding generate()'s ids in a comprehension waits for nothing: generate read them already (r51 dev "
     "11009)", _DECODE.format(drawn="generated_ids"), []),
    ("GA103", "twin: decoding the CUDA inputs reads them", _DECODE.format(drawn="ids"), [6]),
    ("GA103", "a program that binds its device only to 'cpu' and names no accelerator is CPU code (r51 dev 11255)",
     _CPU_AGENT.format(default="", main_device="device = 'cpu'"), []),
    ("GA103", "twin: a device handed in as a parameter (default 'cpu') can be CUDA",
     _CPU_AGENT.format(default=", device='cpu'", main_device="device = 'cpu'"), [7]),
    ("GA103", "twin: a device chosen by torch.cuda.is_available()", _CPU_AGENT.format(
        default="", main_device="device = 'cuda' if torch.cuda.is_available() else 'cpu'"), [7]),
    ("GA107", "a module constant False never rebound fixes its branch, though a method takes a parameter of that "
     "name (r51 dev 11375)", _SWITCH, []),
    ("GA107", "twin: the constant True runs the branch", _SWITCH.replace("HSIOnly = False", "HSIOnly = True"), [15]),
    ("GA107", "a method of the model that turns autograd off itself around its evaluation branch: its author chose "
     "the mode (r51 dev 11204)", _OWN_MODE.format(
         evaluation="with torch.no_grad():\n            return self.fc(x).cpu()"), []),
    ("GA107", "twin: the same method with no torch.no_grad() inside records the graph per batch", _OWN_MODE.format(
        evaluation="return self.fc(x).cpu()"), [15]),
    ("GA110", "the outputs of a multi-scale discriminator are one tensor per scale, not a buffer of time steps "
     "(r51 dev 11004, 11005)", _DISCRIMINATORS.format(logits="logits_fake = D.logits(wave)"), []),
    ("GA110", "twin: a rollout buffer of the same shape of loop is one step per element",
     _DISCRIMINATORS.format(logits="logits_fake = torch.stack(steps).cuda()"), [8]),
    ("GA101", "a clock closed in a helper handed the start (report(name, start) reads time.time() - start) "
     "(r51 dev 11131)", _REPORTED.format(wait="pass"), [7]),
    ("GA101", "twin: the helper synchronizes before it reads the clock", _REPORTED.format(
        wait="torch.cuda.synchronize()"), []),
    ("GA103", "a device taken from the command line (.to(sys.argv[1])) can be CUDA (r51 dev 11303)",
     _ARGV.format(device="sys.argv[1]"), [7]),
    ("GA103", "twin: the model moved to the CPU", _ARGV.format(device='"cpu"'), []),
    ("GA104", "a fill moved by .type_as(imgs) goes to the batch's device (the Lightning GAN idiom; r42 8870, r51 "
     "dev 11308)", _TYPE_AS.format(valid=".type_as(imgs)"), [4, 6]),
    ("GA104", "twin: the labels stay on the CPU", _TYPE_AS.format(valid=""), [4]),
    ("GA104", "a fill tiled by einops.repeat and then moved is still a fill made on the CPU (r51 dev 11213)",
     _EINOPS.format(fill="torch.eye(n)"), [6]),
    ("GA104", "twin: data tiled by einops is the data", _EINOPS.format(fill="batch.mean(0)"), []),
    ("GA103", "an entry every appended dict binds to text is text, though other entries hold CUDA tensors (r51 dev "
     "11159)", _SAMPLES.format(question="tokenizer.decode(x[0])"), []),
    ("GA103", "twin: the entry holds a CUDA tensor", _SAMPLES.format(question="out.argmax(-1)"), [8]),
    ("GA107", "a library's API handed a raw utterance runs its own forward under no_grad (r51 dev 11001)",
     _SPEAKER.format(method="embed_utterance"), []),
    ("GA103", "a string indexed by a CUDA tensor reads the index back; a type test is a switch of the run, not a "
     "guard (r51 dev 11359)", _CHAR_RNN.format(characters="string.printable"), [10, 12]),
    ("GA103", "twin: a CUDA tensor indexed by a CUDA tensor stays on the GPU",
     _CHAR_RNN.format(characters="embedding_table"), [12]),
    ("GA106", "torch's DataLoader re-exported by the project's own module, handed a dataset (r50 dev 10968)",
     _REEXPORTED.format(arguments="get_dataset(), batch_size=32, num_workers=1"), [4]),
    ("GA106", "twin: a project's own class named DataLoader built with no dataset",
     _REEXPORTED.format(arguments=""), []),
    ("GA107", "a target network handed in and refreshed by load_state_dict(policy's) is a model: its forward in the "
     "update records a graph (r40 7868, r41 8211)", _DQN_TRAINER.format(
         sync="self.target_net.load_state_dict(self.policy_net.state_dict())"), [9]),
    ("GA107", "twin: nothing shows the handed-in target_net is a model", _DQN_TRAINER.format(sync="pass"), []),
    ("GA102", "a library trainer ran the model on the GPU before the clock: the timed pass is warm (r51 dev 11069)",
     _AFTER_TRAINING.format(trainer="Seq2SeqTrainer", run="trainer.train()"), []),
    ("GA102", "twin: no training ran before the timed pass", _AFTER_TRAINING.format(
        trainer="Seq2SeqTrainer", run="pass"), [12]),
    ("GA105", "a constant fill written row by row (target[0][i] = item) holds new data each iteration (r51 dev 11203)",
     _TARGETS.format(fill="for i, item in enumerate(visit[2]):\n        target[0][i] = item"), []),
    ("GA105", "twin: the constant fill copied as it is, every iteration", _TARGETS.format(fill="pass"), [7]),
    ("GA105", "a transform built from the same arguments and moved on every call of the per-batch helper (r42 8603, "
     "8604)", _MEL.format(transform="MelSpectrogram(sample_rate=16000, n_mels=128)"), [6]),
    ("GA105", "twin: a transform with nothing to copy (no arguments, no buffers)",
     _MEL.format(transform="AmplitudeToDB()"), []),
    ("GA103", "args.device set on the parsed namespace after parsing (no --device option) is the program's device, "
     "can be CUDA (r51 held-out 11054, after scoring)", _NAMESPACE.format(option=""), [7]),
    ("GA103", "also: a --device option whose default is the CPU is a switch made to be set: can be CUDA too",
     _NAMESPACE.format(option='\n    parser.add_argument("--device", default="cpu")'), [7]),
    ("GA107", "a torchaudio transform handed back by a helper has no parameter: its forward records nothing (r52 "
     "held-out 11501, after scoring)", _TRANSFORM_BENCH.format(transform="torchaudio.transforms.MFCC(sample_rate=16000)"),
     []),
    ("GA107", "twin: a model handed back the same way records its graph", _TRANSFORM_BENCH.format(
        transform="torchvision.models.resnet18().eval()"), [11]),
    ("GA103", "`if mode in ['train', 'valid']:` of a parameter is a switch of the run, not a guard (r50 10655, r51 "
     "held-out 11351, after scoring)", _RUN_NN.format(test="mode in ['train', 'valid']"), [8]),
    ("GA103", "twin: `if i in [10, 50]:` of the loop's counter runs on the iterations listed only",
     _RUN_NN.format(test="i in [10, 50]"), []),
    ("GA103", "a process's GPU index by its name (.to(self.local_rank)) is a CUDA device (r51 held-out 11172, after "
     "scoring)", _DDP_TRAINER.format(rank="local_rank"), [13]),
    ("GA103", "twin: an index not named for a GPU says nothing of the device", _DDP_TRAINER.format(rank="slot"), []),
    ("GA103", "a pass over a loader in the early-stop branch (then break) still reads once per batch (r51 held-out "
     "11268, after scoring)", _EARLY_STOP.format(data="val_loader"), [11]),
    ("GA103", "twin: a few items in an exit branch run once at most", _EARLY_STOP.format(data="range(3)"), []),
    ("GA104", "torch.tensor(torch.zeros(n)) is still the fill; .to(X_real) moves to the batch's device (r52 dev 11565, "
     "after scoring)", _FILLS.format(target="X_real"), [6, 8]),
    ("GA104", "twin: .to(dtype) keeps the draw on the CPU", _FILLS.format(target="torch.float64"), [6]),
    ("GA103", "twin: a CUDA value stored into a batch dict under a text key",
     _EVALUATE.format(line='x["pred"] = out'), []),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s20_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected


def test_complex128_is_named_as_such():
    """The message and the fix speak of complex128 and complex64, not of a float64 the code never wrote."""
    code = _COMPLEX.format(make="torch.randn(n, dtype=torch.complex128, device=device)").lstrip("\n")
    [finding] = lint_text(code, path="snippet.py", select=["GA109"])
    assert "complex128 data on the GPU" in finding.message and "float64" not in finding.message
    assert "complex64" in finding.fix
