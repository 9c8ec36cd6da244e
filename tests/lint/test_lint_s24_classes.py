"""Classes of session 24 (issue 12), each with its must-not twin, fixed on r60's dev half."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

_HEALTHY_BOTH = """
import torch
def evaluate_loss(model, loader, criterion, device):
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            loss = criterion(model(x.to(device)), y.to(device))
            if {test}:
                total += loss.item()
    return total
"""

_FACTORY_LOSS = """
import torch
import losses
structure_loss_fn = None
def main(loader, net, opt):
    global structure_loss_fn
    device = torch.device({device})
    structure_loss_fn = losses.structure_loss().to(device)
    for images, masks in loader:
        pred = net(images.to(device))
        loss = structure_loss_fn(pred, masks.to(device))
        loss.backward()
        opt.step()
        print(loss.item())
"""

_UNCALLED_EVAL = """
import torch
device = torch.device("cuda")
def recall_at_k(model, k=10):
    with torch.no_grad():
        scores = model.user_emb.weight @ model.item_emb.weight.t()
        hits = []
        for u in test_users:
            hits.append(torch.topk(scores[u], k)[1].cpu().numpy())
        return hits
model = MatrixFactorization(100, 50){move}
"""

_BATCH_FILTER = """
import torch
def train(train_loader, model, opt, loss_fn, device):
    predictions = []
    for data, target in train_loader:
        opt.zero_grad()
        if {test}:
            prediction = model(data.to(device))
            loss = loss_fn(prediction, target.to(device))
            predictions.extend(prediction.cpu().detach())
            loss.backward()
            opt.step()
    return predictions
"""

_FORWARD_READS = """
import torch
import numpy as np
class SNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(40, 10)
    def forward(self, x):
        out = self.fc(x)
        return out, np.mean(np.abs(x.detach().cpu().numpy()))
model = SNN().to("cuda")
def test(loader):
    for images, labels in loader:
        predictions, rate = model(images.to("cuda"))
def train(loader, optimizer):
    for images, labels in loader:
        predictions, _ = model(images.to("cuda"))
        optimizer.zero_grad()
        loss = predictions.sum()
        loss.backward()
        optimizer.step()
test(test_loader)
train(train_loader, optimizer)
"""

_HANDED_ENCODER = """
import torch
class Encoder(torch.nn.Module):
    def __init__(self, {param}):
        super().__init__()
        self.inner = {param}
    def forward(self, x):
        return torch.relu(x) if isinstance(self.inner, int) else self.inner(x)
def test(model, dataloader, device):
    model.eval()
    outs = []
    for data in dataloader:
        outs.append(model(data.to(device)))
    return torch.cat(outs)
def main():
    device = torch.device("cuda")
    model = Encoder({passed}).to(device)
    test(model, loader, device)
main()
"""

_COUNTED_INDEX = """
import torch
MAX_STEP = 50
device = torch.device("cuda")
def evaluate(model, loader):
    for batch in loader:
        pred = model(batch.to(device))
        for student in range(pred.shape[0]):
            steps = pred[student].shape[0]
            index = torch.LongTensor([[i for i in range({count})]]).to(device)
            picked = pred[student].gather(0, index)
"""

_AGENT_ACTION = """
import torch
from torch.distributions import Categorical
class Agent:
    def __init__(self, model, device):
        self.model = model.to(device)
        self.device = device
    def evaluate(self, env):
        with torch.no_grad():
            self.model.eval()
            return self.model.forward(env.reset(), self.device)
    def select_action(self, s):
{before}        dist = self.model.forward(s, self.device)
        action = Categorical(dist).sample()
        return {handed}
"""

_NEXT_BATCH = """
import time
import torch
device = torch.device("cuda")
model = Net().to(device)
def train(loader, optimizer):
    batch_times = []
    it = iter({source})
    for step in range(1, 1000):
        start = time.time()
        batch = next(it)
        pred = model(batch.to(device))
        pred.sum().backward()
        optimizer.step()
        batch_times.append(time.time() - start)
    print(sum(batch_times) / len(batch_times))
train(train_loader, opt)
"""

_DTYPE_ATTRIBUTE = """
import torch
class Solver:
    def __init__(self, device, dx, tensorType={default}):
        self._tensorType = tensorType
        self.dx = torch.tensor([dx], dtype=self._tensorType, device=device)
        self.t = torch.zeros(1, dtype=self._tensorType, device=device)
        self.h = torch.zeros(64, 64, dtype=self._tensorType, device=device)
if __name__ == "__main__":
    s = Solver(torch.device("cuda"), 0.1,
               tensorType={passed})
"""

_DATA_TO_DEVICE = """
import numpy as np
def seq_train(loader, model, optimizer, device):
    losses = []
    for data in loader:
        vid = device.{move}(data[0])
        ret_dict = model(vid)
        loss = model.criterion_calculation(ret_dict, data[2])
        if np.isinf(loss.item()):
            continue
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
"""

_DECODED_TEXT = """
import torch
def evaluate(loader, model, device):
    sents = []
    with torch.no_grad():
        for x in loader:
            ret_dict = model(x.to(device))
            sents += ret_dict["{key}"]
    for i, sample in enumerate(sents):
        for j, word in enumerate(sample):
            print("{{}} {{}}".format(i, word[0]))
"""

_ELSE_OF_HEALTHY = """
import torch
def evaluate(loader, model, device):
    values = []
    for x in loader:
        loss = model(x.to(device)).sum()
        if not (torch.isnan(loss).item() or torch.isinf(loss).item()):
            values.append(1.0)
        else:
            print("bad loss", {else_read})
    return values
"""

_WEIGHTED_CHOICE = """
import torch
from random import choices
device = "cuda" if torch.cuda.is_available() else "cpu"
policy = Policy().to(device)
def run_episode(env):
    state = env.reset()
    while True:
        action_dist = policy(torch.as_tensor(state, device=device).view(1, 4)).view(-1)
        action = choices([0, 1], weights={weights}, k=1)[0]
        state, reward, done, _ = env.step(action)
        if done:
            break
"""

_EXPORT_MARK = """
import torch
def simulate(solver, device, interval):
    export_n = 0
    t = torch.zeros(1, device=device)
    while t.item() < 200.0:
        t = t + torch.rand(1, device=device) * 0.1
        if t.item() >= (export_n + 1) * interval:
            print("export at", t.cpu())
{advance}
"""

_MADDPG_LEARN = """
import torch
class MADDPG:
    def __init__(self, agents, device):
        self.agents = agents
        self.device = device
        self.optimizers = [torch.optim.Adam(a.actor_local.parameters()) for a in agents]
    def learn(self, states, actions, rewards, next_states):
        for idx, agent in enumerate(self.agents):
            next_actions = []
            for i, other in enumerate(self.agents):
                next_actions.append(other.actor_target(next_states[:, i, :].to(self.device)))
            agent.{update}(states.to(self.device), torch.cat(next_actions, dim=1))
            self.soft_update(agent.actor_local, agent.actor_target, 0.01)
    def soft_update(self, local, target, tau):
        for t, l in zip(target.parameters(), local.parameters()):
            t.data.copy_(tau * l.data + (1.0 - tau) * t.data)
"""

_FLOAT64_LAYERS = """
import torch
import torch.nn as nn
class TCN(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.conv = nn.Conv1d(1, layers, 3, dtype={dtype})
        self.classifier = nn.Linear(layers, 1, dtype={dtype})
    def forward(self, x):
        return self.classifier(torch.transpose(self.conv(x), 1, 2))
device = torch.device("cuda")
model = TCN(16).to(device)
for batch in loader:
    out = model(batch.to(device))
"""

_ODE_TIMES = """
import torch
import numpy as np
from torchdiffeq import odeint
device = torch.device("cuda")
t0 = 0
t1 = 10
for itr in range(1000):
    z = odeint(func, x0, torch.tensor([{times}]).type(torch.float32).to(device))
    loss = z.sum()
    loss.backward()
points = np.vstack(np.meshgrid(np.linspace(-1, 1, 9), np.linspace(-1, 1, 9))).reshape([2, -1]).T
grid = torch.tensor(points){cast}.to(device)
"""

_POSTPROCESSED_BATCH = """
import torch
def infer(model, tokenizer, texts, batch_size=8):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(texts), batch_size):
            enc = tokenizer(texts[i:i + batch_size], return_tensors="pt")
            mask = enc["attention_mask"].to(device)
            outputs = model(input_ids=enc["input_ids"].to(device), attention_mask=mask)
            predictions = torch.argmax(outputs.logits, dim=-1).cpu().numpy()
            for j, pred_seq in enumerate({walked}):
                out.append(pred_seq[:mask[j].sum().item()])
    return out
"""

_PREFETCHED = """
import torch
from torch.utils.data import DataLoader
from dataset.prefetch import {wrapper}
def train(forecaster, train_loader, optimizer, score_fn, epochs):
    for epoch in range(epochs):
        prefetcher = {wrapper}(train_loader)
        batch = prefetcher.next()
        while batch is not None:
            data, label = batch
            loss = ((forecaster(data) - label) ** 2).mean()
            loss.backward()
            optimizer.step()
            print(loss.item())
            batch = prefetcher.next()
train(forecast_fn, DataLoader(dataset, batch_size=8, pin_memory=True, num_workers=4), opt, crit, 10)
"""

_ONE_VALIDATION_BATCH = """
import torch
from torch.utils.data import DataLoader
DEVICE = "cuda"
def fit(model, train_loader, val_loader, optimiser, loss_func, epochs):
    for epoch in range(epochs):
        for x, y in ProgressBar(train_loader, unit="batch"):
            loss = loss_func(model(x.to(DEVICE)), y.to(DEVICE))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        x_val, y_val = {draw}
        with torch.inference_mode():
            logits = model(x_val.to(DEVICE)).cpu()
        print(loss_func(logits, y_val).item())
fit(net, DataLoader(train_set, batch_size=64), DataLoader(val_set, batch_size=256), opt, torch.nn.CrossEntropyLoss(), 10)
"""

CASES = [
    ("GA103", "if not torch.isnan(loss) and not torch.isinf(loss): the path every healthy batch takes, so the read "
     "under it runs per batch too (r60 dev 14613)",
     _HEALTHY_BOTH.format(test="not torch.isnan(loss) and not torch.isinf(loss)"), [7, 8]),
    ("GA103", "not (isnan(loss) or isinf(loss)) is the same healthy path",
     _HEALTHY_BOTH.format(test="not (torch.isnan(loss) or torch.isinf(loss))"), [7, 8]),
    ("GA103", "twin: isnan(loss) or isinf(loss) holds only for a diverged batch: the read under it is rare",
     _HEALTHY_BOTH.format(test="torch.isnan(loss) or torch.isinf(loss)"), [7]),
    ("GA103", "structure_loss_fn = losses.structure_loss().to(device), then structure_loss_fn(pred, y): a tensor is not "
     "callable, so what .to() moved is a module, and its output on CUDA inputs is CUDA data (r60 dev 14969)",
     _FACTORY_LOSS.format(device='"cuda" if torch.cuda.is_available() else "cpu"'), [13]),
    ("GA103", "twin: the same on the CPU reads nothing back", _FACTORY_LOSS.format(device='"cpu"'), []),
    ("GA103", "def recall_at_k(model, k) the script never calls, beside a module-level model = MF(...).to(device): the "
     "helper is written for that model, so its per-user .cpu() reads the GPU (r60 dev 14802)",
     _UNCALLED_EVAL.format(move=".to(device)"), [8]),
    ("GA103", "twin: the script's model stays on the CPU", _UNCALLED_EVAL.format(move=""), []),
    ("GA103", "if torch.mean(target) != 0. and torch.mean(target) != 1.: a batch filter that drops the rare one-class "
     "batch holds for almost every batch, so the per-batch .cpu() under it counts (r60 dev 14957)",
     _BATCH_FILTER.format(test="torch.mean(target) != 0. and torch.mean(target) != 1."), [9]),
    ("GA103", "twin: if torch.mean(target) == 0.: only the one-class batches take the branch",
     _BATCH_FILTER.format(test="torch.mean(target) == 0."), []),
    ("GA103", "a model's forward that reads its input back, called as model(images) from the test loop and the training "
     "loop: two places that chose to run it per step, each reported at its calling line (session-12 placement; r60 "
     "dev 14960)", _FORWARD_READS, [13, 16]),
    ("GA103", "twin: called from one loop only, the read is reported inside the forward",
     _FORWARD_READS.replace("        predictions, rate = model(images.to(\"cuda\"))", "        pass"), [9]),
    ("GA107", "Encoder(encoder=gconv) keeps the network it is handed (self.encoder = encoder): its parameters are the "
     "module's, so the evaluation loop's forward after eval() records a graph (r60 dev 14809)",
     _HANDED_ENCODER.format(param="encoder", passed="GConv(2, 32)"), [12]),
    ("GA107", "twin: a module that keeps only a setting handed in (self.num_layers = num_layers) has no parameter",
     _HANDED_ENCODER.format(param="num_layers", passed="2"), []),
    ("GA105", "torch.LongTensor([[i for i in range(MAX_STEP - 1)]]).to(device) per student: the numbers up to a "
     "constant are the same list on every iteration, copied again each time (r60 dev 14820)",
     _COUNTED_INDEX.format(count="MAX_STEP - 1"), [9]),
    ("GA105", "twin: up to a length the loop computes (steps), the list may change", _COUNTED_INDEX.format(count="steps"),
     []),
    ("GA107", "select_action() hands back the policy's distribution with the action; only evaluate() puts self.model in "
     "eval mode: the distribution may feed a policy-gradient loss elsewhere (r60 dev 14815)",
     _AGENT_ACTION.format(before="", handed="action, dist"), []),
    ("GA107", "twin: the method itself puts the model in eval mode", _AGENT_ACTION.format(
        before="        self.model.eval()\n", handed="action, dist"), [13]),
    ("GA107", "twin: only the sampled action goes back: the graph is recorded for nothing",
     _AGENT_ACTION.format(before="", handed="action.item()"), [12]),
    ("GA102", "it = iter(loader); for step in range(...): batch = next(it): a training run over a DataLoader, one "
     "batch a step -- its per-step clock's cold first step is noise, as in `for batch in loader` (r60 dev 14625)",
     _NEXT_BATCH.format(source="loader"), []),
    ("GA102", "twin: batches drawn from a generator of the file's own are no DataLoader",
     _NEXT_BATCH.format(source="make_batches()"), [11]),
    ("GA109", "dtype=self._tensorType in every factory of a solver whose tensorType parameter defaults to torch.float64 "
     "and whose run passes it: reported where float64 is written (the default, the call), not at each factory (r61 "
     "dev 15265)", _DTYPE_ATTRIBUTE.format(default="torch.float64", passed="torch.float64"), [3, 10]),
    ("GA109", "a float32 default and a float64 run: only the call chooses float64",
     _DTYPE_ATTRIBUTE.format(default="torch.float32", passed="torch.float64"), [10]),
    ("GA109", "twin: float32 both ways", _DTYPE_ATTRIBUTE.format(default="torch.float32", passed="torch.float32"), []),
    ("GA103", "device.data_to_device(batch) of a multi-GPU helper object (SLR's GpuDataParallel): named for moving data "
     "to the device, its result is CUDA data (r61 dev 15008)", _DATA_TO_DEVICE.format(move="data_to_device"), [8, 12]),
    ("GA103", "twin: a method named for something else (device.describe(batch)) says nothing of where data goes",
     _DATA_TO_DEVICE.format(move="describe"), []),
    ("GA103", "ret_dict['recognized_sents'] of a model's result dict is decoded text, not a tensor: formatting its words "
     "reads nothing (r61 dev 15008)", _DECODED_TEXT.format(key="recognized_sents"), []),
    ("GA103", "twin: ret_dict['logits'] is a CUDA tensor, its rows formatted one by one read back",
     _DECODED_TEXT.format(key="logits"), [10]),
    ("GA103", "the else of a healthy-path test (if not (isnan(l).item() or isinf(l).item()):) is the diverged batch: a "
     "read there is rare (r61 dev 15008)", _ELSE_OF_HEALTHY.format(else_read="torch.isinf(loss).item()"), [6, 6]),
    ("GA103", "random.choices(actions, weights=action_dist) of the CUDA policy output: random reads the weights as Python "
     "numbers, a host read every environment step (r61 dev 15311, 15312)",
     _WEIGHTED_CHOICE.format(weights="action_dist"), [9]),
    ("GA103", "twin: weights already read back once (a list) read nothing more",
     _WEIGHTED_CHOICE.format(weights="[0.5, 0.5]"), []),
    ("GA103", "if t.item() >= (export_n + 1) * interval: ...; export_n += 1 -- the branch moves its own mark on, so it "
     "runs once per interval: the read in it is now and then (r61 dev 15265)",
     _EXPORT_MARK.format(advance="            export_n += 1"), [5, 7]),
    ("GA103", "twin: a mark that never moves is passed once and then holds on every step",
     _EXPORT_MARK.format(advance="            pass"), [5, 7, 8]),
    ("GA107", "agent.learn_critic(states, next_actions) of agents the file cannot resolve is a training update, not a "
     "critic's forward; the target actors' forwards feeding it are target networks run with autograd on (r61 dev "
     "15159)", _MADDPG_LEARN.format(update="learn_critic"), [11]),
    ("GA107", "twin: agent.critic(states, next_actions) is a forward: it and the targets' are inference with no backward",
     _MADDPG_LEARN.format(update="critic"), [11, 12]),
    ("GA109", "nn.Conv1d(..., dtype=float) / nn.Linear(..., dtype=float) in a model moved to CUDA: float64 layers, "
     "reported where they are built (as .double() on them), not at every forward (r61 dev 15172)",
     _FLOAT64_LAYERS.format(dtype="float"), [6, 7]),
    ("GA109", "twin: float32 layers", _FLOAT64_LAYERS.format(dtype="torch.float32"), []),
    ("GA105", "torch.tensor([t1, t0]) of names bound only to numbers (t0 = 0, t1 = 10) is a literal list, rebuilt and "
     "copied every iteration (r61 dev 15210)", _ODE_TIMES.format(times="t1, t0", cast=".type(torch.float32)"), [8]),
    ("GA105", "twin: a name the loop binds (itr) changes the values", _ODE_TIMES.format(
        times="t1, itr", cast=".type(torch.float32)"), []),
    ("GA109", "torch.tensor(points).type(torch.float32).to(device): the float64 NumPy grid is cast down before the move "
     "(r61 dev 15210)", _ODE_TIMES.format(times="t1, t0", cast=".type(torch.float32)"), []),
    ("GA109", "twin: without the cast the grid goes to the GPU as float64",
     _ODE_TIMES.format(times="t1, t0", cast=""), [12]),
    ("GA103", "for j, pred_seq in enumerate(predictions): the batch's own predictions post-processed one by one -- part of "
     "the batch's step, so the per-batch .cpu() before it still counts (r61 dev 15359)",
     _POSTPROCESSED_BATCH.format(walked="predictions"), [12, 14]),
    ("GA103", "twin: a walk over something else (a loop of steps inside) makes the outer loop a loop of rounds",
     _POSTPROCESSED_BATCH.format(walked="range(3)").replace("pred_seq[:mask[j].sum().item()]",
                                                            "model(mask[:, j:]).logits.sum().item()"), [14]),
    ("GA103", "DataPrefetcher(train_loader).next(): apex's prefetcher idiom hands out batches already copied to the GPU "
     "on a side stream, so the per-step loss.item() reads back (r62 dev 15710)",
     _PREFETCHED.format(wrapper="DataPrefetcher"), [13]),
    ("GA103", "twin: a wrapper named for something else says nothing of where its batches are",
     _PREFETCHED.format(wrapper="BatchIterator"), []),
    ("GA103", "x_val, y_val = next(iter(val_loader)) in the epoch loop: the first validation batch again, once per epoch "
     "-- not a walk over the loader, so the epoch's reads are per epoch (r62 held-out 15721, after scoring)",
     _ONE_VALIDATION_BATCH.format(draw="next(iter(val_loader))"), []),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s24_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
