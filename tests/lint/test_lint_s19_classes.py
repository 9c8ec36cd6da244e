"""Classes of session 19 (issue 12), each with its must-not twin, fixed on spent corpora while r48 was gathered.

Functional models: functorch's ``make_functional(net)`` splits a module into a stateless function and its tensors; the
function runs the module's forward where the module lives, so a MAML loop's ``fnet(params, buffers, x)`` is a CUDA
forward. MAML's inner adaptation only differentiates (``torch.autograd.grad(..., create_graph=True)``): it is part of
the task's step, not a loop of micro steps that makes the loop around it a round."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

_MAML = """
import time
import torch
import torch.nn.functional as F
from functorch import make_functional_with_buffers
def train(db, net, meta_opt):
    params, buffers, fnet = net
    for batch_idx in range(100):
        start = time.time()
        x_spt, y_spt, x_qry, y_qry = db.next()
        meta_opt.zero_grad()
        for i in range(4):
            new_params = params
            for _ in range(5):
                spt_loss = F.cross_entropy(fnet(new_params, buffers, x_spt[i]), y_spt[i])
                grads = torch.autograd.grad(spt_loss, new_params, create_graph=True)
                new_params = [p - g * 1e-1 for p, g in zip(new_params, grads)]
            qry_logits = fnet(new_params, buffers, x_qry[i])
            qry_acc = (qry_logits.argmax(dim=1) == y_qry[i]).sum().item()
            F.cross_entropy(qry_logits, y_qry[i]).backward()
        meta_opt.step()
        print(time.time() - start)
def main():
    net = torchvision.models.resnet18().to({device})
    fnet, params, buffers = make_functional_with_buffers(net)
    meta_opt = torch.optim.Adam(params, lr=1e-3)
    train(db, [params, buffers, fnet], meta_opt)
main()
"""

_ROUNDS = """
import torch
model = Net().cuda()
for it in range(1000):
    for _ in range(5):
        d_loss = critic(model(noise()).detach()).mean()
        {inner}
    g_loss = -critic(model(noise())).mean()
    g_loss.backward()
    g_opt.step()
    print(g_loss.item())
"""

_SIMULATOR = """
import torch
from isaaclab.envs import ManagerBasedRLEnv
env = ManagerBasedRLEnv(cfg=cfg)
net = DQN(n_obs, n_act).to({device})
total = 0.0
for ep in range(100):
    state, _ = env.reset()
    for t in range(500):
        action = policy(state)
        obs, rewards, terminated, truncated, info = env.step(action)
        total += rewards.item()
"""

_PREDICT = """
import torch
def predict_batch(model, batch, device):
    outputs = model(batch.to(device))
    return outputs.reshape(-1)
def train(model, train_loader, val_loader, loss_fn, optimizer, device):
    model = model.to(device)
    for epoch in range(10):
        for batch, labels in train_loader:
            loss = loss_fn(predict_batch(model, batch, device), labels.to(device))
            {train_step}
        for batch, labels in val_loader:
            outputs = predict_batch(model, batch, device)
            losses.append(loss_fn(outputs, labels.to(device)).detach())
train(Net(), train_loader, val_loader, loss_fn, optimizer, "cuda")
"""

_EPISODE = """
import torch
class Agent:
    def __init__(self):
        self.policy = Policy().cuda()
    def select_action(self, state):
        logits = self.policy(torch.as_tensor(state, device="cuda"))
        dist = torch.distributions.Categorical(logits=logits)
        action = dist.sample()
        return action, dist.log_prob(action)
    def run_episode(self, env):
        state, done, log_probs = env.reset(), False, []
        while not done:
            action, log_prob = self.select_action(state)
            state, reward, done, _ = {stepper}.step(action)
            log_probs.append(log_prob)
        return log_probs
"""

_SAC = """
import torch
actor, critic = Actor().to("cuda"), Critic().to("cuda")
obs, _ = envs.reset()
for global_step in range(1000000):
    actions_t = actor(torch.tensor(obs, device="cuda"))
    actions = actions_t.cpu().numpy()
    obs, rewards, terminations, truncations, infos = {stepper}.step(actions)
    obs_b = torch.tensor(obs, device="cuda")
    qf_loss = critic(obs_b).pow(2).mean()
    q_optimizer.zero_grad(); qf_loss.backward(); q_optimizer.step()
    if global_step % 2 == 0:
        for _ in range(policy_frequency):
            actor_loss = -critic(actor(obs_b)).mean()
            actor_optimizer.zero_grad(); actor_loss.backward(); actor_optimizer.step()
"""

_BEAM = """
import torch
def beam_decode(preds_log_probs):
    results = []
    for seq in preds_log_probs:
        {count}
        for t in range(W):
            log_probs = seq[t].cpu().numpy()
            results.append(log_probs.argmax())
    return results
model = CRNN().cuda()
for imgs, labels in loader:
    preds = model(imgs.cuda()).log_softmax(2)
    decoded = beam_decode(preds.permute(1, 0, 2))
"""

_IMPORTED_DECODER = """
import os
import torch
from train import {decoder}
model = CRNN().to("cuda").eval()
for f in os.listdir(folder):
    with torch.no_grad():
        decoded = {decoder}(model(load(f).to("cuda")).log_softmax(2))
    print(f"{{f}} -> {{decoded[0]}}")
"""

_FEEDS = """
import torch
class Solver:
    def __init__(self, model, start):
        self.model, self._start = model.cuda(), start
    def sample(self, features, N, device):
        feeds = torch.ones((N, 1)) * {scale}
        feeds = feeds.to(device=device, dtype=torch.long)
        return self.model(features.to(device), feeds)
"""

_ROTATE = """
import torch
def rotate_embeddings(model, Q, device="cuda"):
    for W in model.layers:
        W_ = W.weight.data.to(device=device, dtype=torch.float64)
        {target} = torch.matmul(W_, Q).to(device="cpu", dtype=torch.float32)
"""

_FALLBACK = """
import argparse
import torch
from torch.utils.data import DataLoader
def train(model, loader, device):
    model.to(device)
    for x, y in loader:
        loss = model(x.to(device)).sum()
        loss.backward()
parser = argparse.ArgumentParser()
parser.add_argument("--device", type=str{default})
args = parser.parse_args()
if not torch.cuda.is_available():
    args.device = torch.device("cpu")
loader = DataLoader(dataset, batch_size=64, num_workers=0)
train(Net(), loader, args.device)
"""

CASES = [
    ("GA103", "a per-task accuracy read of a functorch model on the GPU (r46 held-out 10160)",
     _MAML.format(device='"cuda"'), [18]),
    ("GA101", "the meta-iteration's clock after meta_opt.step() of CUDA parameters (r46 held-out 10160)",
     _MAML.format(device='"cuda"'), [21]),
    ("GA103", "twin: the functional model of a CPU module reads nothing back", _MAML.format(device='"cpu"'), []),
    ("GA101", "twin: nor is its clock a CUDA timing", _MAML.format(device='"cpu"'), []),
    ("GA103", "an inner loop that only differentiates does not make its loop a round of steps",
     _ROUNDS.format(inner="grads = torch.autograd.grad(d_loss, params)"), [10]),
    ("GA103", "twin: an inner loop of critic steps does (a WGAN's generator step after the critic's, per round)",
     _ROUNDS.format(inner="d_loss.backward(); d_opt.step()"), []),
    ("GA103", "a simulator whose env.device places the model steps on the GPU: rewards.item() waits (r48 dev 10702)",
     _SIMULATOR.format(device="env.device"), [11]),
    ("GA103", "twin: a Gym environment (no env.device asked for) hands back host values",
     _SIMULATOR.format(device='"cuda"'), []),
    ("GA107", "a helper's forward called from a validation loop and a training loop: the validation call line "
     "(r48 dev 10703)", _PREDICT.format(train_step="loss.backward(); optimizer.step()"), [12]),
    ("GA107", "every caller only infers: the helper's forward itself, one fix there",
     _PREDICT.format(train_step="losses.append(loss.detach())"), [3]),
    ("GA107", "twin: the first loop trains, and nothing else calls the helper outside a loop that trains",
     _PREDICT.replace("outputs = predict_batch", "outputs = predict_batch").format(
         train_step="loss.backward(); optimizer.step()").replace(
         "losses.append(loss_fn(outputs, labels.to(device)).detach())",
         "loss_fn(outputs, labels.to(device)).backward()"), []),
    ("GA107", "twin: an agent's act() per environment step keeps its log-probs for the update (REINFORCE)",
     _EPISODE.format(stepper="env"), []),
    ("GA107", "an act() that hands back only the chosen action as a number keeps no graph: its evaluation episodes "
     "record one per step for nothing (r50 dev 10918, 10919, after scoring)",
     _EPISODE.replace("return action, dist.log_prob(action)", "return action.item(), 0.0").format(stepper="env"), [6]),
    ("GA103", "a loop that steps an environment steps once per iteration, whatever update loop it holds (SAC's "
     "delayed actor; r48 held-out 10705)", _SAC.format(stepper="envs"), [6]),
    ("GA103", "twin: without the environment step, an update after its inner update loop is a round (WGAN)",
     _SAC.format(stepper="buffer"), []),
    ("GA103", "range(W) of `W, C = seq.shape` walks a CUDA tensor's rows (r48 held-out 10504)",
     _BEAM.format(count="W, C = seq.shape"), [7]),
    ("GA103", "twin: a count the file does not take from the tensor", _BEAM.format(count="W, C = 5, 11"), []),
    ("GA103", "an imported CTC decoder hands back text: printing it reads nothing (r48 held-out 10502)",
     _IMPORTED_DECODER.format(decoder="ctc_decode"), []),
    ("GA103", "twin: an imported function named like a computation hands back CUDA tensors",
     _IMPORTED_DECODER.format(decoder="compute_scores"), [8]),
    ("GA104", "a fill times a setting of the program's object is still a fill: reported where it is made (r49 dev 10569)",
     _FEEDS.format(scale="self._start"), [6]),
    ("GA104", "twin: a fill times a value handed in (perhaps a tensor) is reported at the copy, not at the fill",
     _FEEDS.format(scale="N"), [7]),
    ("GA103", "a layer's weight rewritten on the GPU and stored back on the CPU is the result, not a read to drop "
     "(r49 dev 10809)", _ROTATE.format(target="W.weight.data"), []),
    ("GA103", "twin: the same copy kept in a list is a read per layer", _ROTATE.format(target="rotated[W]"), [5]),
    ("GA106", "--device cuda:0 with a CPU fallback under `if not torch.cuda.is_available():` still runs on the GPU "
     "(r50 dev 10680, after scoring)", _FALLBACK.format(default=', default="cuda:0"'), [14]),
    ("GA106", "twin: an option with no default leaves only the fallback's CPU device", _FALLBACK.format(default=""),
     []),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s19_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
