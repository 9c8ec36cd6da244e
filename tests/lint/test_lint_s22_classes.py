"""Classes of session 22 (issue 12), each with its must-not twin, fixed on spent corpora while r56 was gathered."""

from __future__ import annotations

import textwrap

import pytest

from advisor.lint.runner import lint_text
from tests.lint.lint_helpers import context_of, lines_of
from tests.lint.test_lint_s19_classes import _IMPORTED_DECODER

_PIX2PIX = """
import argparse
import torch
from networks import define_G, get_scheduler
parser = argparse.ArgumentParser()
parser.add_argument('--cuda', action='store_true')
opt = parser.parse_args()
{before}
device = torch.device("cuda:0" if opt.cuda else "cpu")
net_g = define_G(3, 3, 64, gpu_id=device)
optimizer_g = torch.optim.Adam(net_g.parameters(), lr=1e-3)
net_g_scheduler = get_scheduler(optimizer_g, opt)
for epoch in range(100):
    for batch in training_data_loader:
        loss_g = (net_g(batch[0].to(device)) - batch[1].to(device)).abs().mean()
        optimizer_g.zero_grad()
        loss_g.backward()
        optimizer_g.step()
    for batch in testing_data_loader:
        prediction = net_g(batch[0].to(device))
        avg_psnr = psnr(prediction, batch[1].to(device))
"""

_GROWN = """
import torch
device = torch.device("cuda")
gan = ProGAN().to(device)
for epoch in range(10):
    if scheduler.decide_scale(epoch):
        new_layers = gan.discriminator.{method}(LAYER_SIZE)
    train_one_epoch(gan, loader)
"""

_UNPICKLED = """
import torch
device = torch.device("cuda:0" if opt.cuda else "cpu")
net_g = torch.load(model_path).to(device)
for image_name in image_filenames:
    input = transform(load_img(image_name)).unsqueeze(0).to(device)
{body}
    save_img(out.detach().squeeze(0).cpu(), image_name)
"""

_SHARED_BATCH = """
import torch
from exp_basic import ExpBasic
class Exp(ExpBasic):
    def __init__(self, args):
        super().__init__(args)
        self.device = torch.device("cuda")
    def vali(self, loader):
        self.model.eval()
        for batch in loader:
{vali}
    def train(self, loader, optimizer):
        for batch in loader:
            pred, true = self._process_one_batch(batch)
            (pred - true).pow(2).mean().backward()
            optimizer.step()
    def _process_one_batch(self, batch):
        batch = batch.float().to(self.device)
        outputs = self.model(batch[:, :-1])
        return outputs, batch[:, -1:]
"""

_PARTS_PLACED = """
import torch
import torch.nn as nn
device = torch.device("cuda")
class SummModel(nn.Module):
    def __init__(self, transformer_model):
        super().__init__()
        self.transformer_model = {part}
    def forward(self, images, text):
        return self.transformer_model(images.to(self.transformer_model.device), text)
def validate(model, loader):
    model.eval()
    for batch in loader:
        out = model(torch.from_numpy(batch["images"]), batch["text"])
        save(out)
model = SummModel(transformer_model=T5.from_pretrained("t5"))
validate(model, loader)
"""

_DDPM_STEP = """
import torch
class Diffusion:
    def __init__(self, noise_steps=1000, device="cuda"):
        self.noise_steps, self.device = noise_steps, device
    def sample(self, model, n, x, scale):
        for i in reversed(range(1, self.noise_steps)):
            t = ({fill} * {times}).long().to(self.device)
            x = model(x, t)
"""

_INDEXED_DEVICE = """
import torch
class WeightedLoss(torch.nn.Module):
    def forward(self, input, target):
        mse = torch.sum((input - target) ** 2, (2, 3))
        S, B = mse.size()
        w = torch.arange(1.0, 1.0 + S * 0.1, 0.1)
        if torch.cuda.is_available():
            w = w.to({device})
        return (w * mse.permute(1, 0)).mean()
"""

_KEYWORD_OPTIMIZER = """
import time
import torch
class SequenceTrainer:
    def __init__(self, model, optimizer, device):
        self.model, self.policy_optimizer, self.device = model.to(device), optimizer, device
    def train_iteration(self, loss_fn, dataloader):
        losses = []
        train_start = time.time()
        for idx, trajs in enumerate(dataloader):
            losses.append(self.train_step(loss_fn, trajs))
        return losses, time.time() - train_start
    def train_step(self, loss_fn, trajs):
        trajs = [traj.to(self.device) for traj in trajs]
        return get_loss_function(loss_fn).compute_loss(model=self.model, states=trajs[0], {handed})
"""

_SPECTRAL = """
import torch
def run_simulation(u, nu, dt, steps, device: torch.device):
    k = torch.{grid}(u.shape[1], d=0.1, device=device) * 2 * torch.pi
    diagnostics = []
    for _ in range(steps):
        u = torch.real(torch.fft.ifftn(k * torch.fft.fftn(u)))
        diagnostics.append(u.abs().max().item())
    return diagnostics
"""

_REQUIRED_DEVICE = """
import argparse
import torch
parser = argparse.ArgumentParser()
parser.add_argument('--device', type=str, {option})
args = parser.parse_args()
model = UNet3D(4, 3).double()
model.to(args.device)
"""

_ANNOTATED_EMBED = """
import time
import numpy as np
from sentence_transformers import SentenceTransformer
def embed(model: SentenceTransformer, sentences, device){returns}:
    embeddings = model.encode(sentences, device=device)
    return embeddings
def main():
    model = SentenceTransformer(args.model, device=args.device)
    for i in range(args.num_runs):
        start_run = time.time()
        embeddings = embed(model, sentences, args.device)
        end_run = time.time()
        run_times.append(end_run - start_run)
main()
"""

_CAPTIONER = """
import torch
class Reader:
    def caption_image(self, path):
        model = {model}
        device = infer_torch_device()
        model.to(device)
        pixel_values = self.extractor(path, return_tensors="pt").pixel_values.to(device)
        return model.generate(pixel_values)
    def load_data(self, slides):
        result = ""
        for slide in slides:
            for shape in slide.shapes:
                result += self.caption_image(shape.image)
        return result
"""

_LOSS_TERMS = """
import torch
import segmentation_models_pytorch as smp
loss_dict = dict(dice=smp.losses.DiceLoss(mode="multilabel"), bce=smp.losses.SoftBCEWithLogitsLoss())
def criterion(y_pred, y_true):
    loss = 0.0
    for func_name, weight in CFG.loss_info.items():
        {body}
    return loss
@torch.no_grad()
def valid_one_epoch(model, dataloader, device):
    model.eval()
    running_loss = 0.0
    for step, (images, masks) in enumerate(dataloader):
        images, masks = images.to(device), masks.to(device)
        loss = criterion(model(images), masks)
        running_loss += loss.item()
    return running_loss
valid_one_epoch(smp.Unet("resnet34").to("cuda"), valid_loader, "cuda")
"""

_TD3_ROUNDS = """
import torch
class Td3Trainer:
    def __init__(self, env, policy, optimizer):
        self.env, self.policy, self.optimizer, self.device = env, policy.to("cuda"), optimizer, "cuda"
        self.steps = 0
    def collect_rollout(self):
        obs, reward, done, info = self.env.step(self.policy(self.obs))
        self.steps += self.env.num_envs
    def update(self):
        loss = self.policy(self.obs).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {{"loss": loss.item()}}
    def evaluate(self):
        done = torch.zeros(8, dtype=torch.bool, device=self.device)
        while not done.all():
            obs, reward, terminated, info = self.env.step(self.policy(self.obs))
            done |= terminated
    def train(self, total, every):
        while self.steps < total:
            prev = self.steps
            self.collect_rollout()
            metrics = self.update()
{evaluation}
"""

_WAVENUMBERS = """
import torch
class NavierStokes2d:
    def __init__(self, s1, s2, x, device=None, dtype=torch.float64):
        freq_list1 = torch.cat((torch.arange(start=0, end=s1//2, step=1),
                                {second}), 0)
        self.k1 = freq_list1.view(-1, 1).repeat(1, s2//2 + 1).type(dtype).to(device)
"""

_EM = """
import torch
class GMM:
    def __init__(self, K, X):
        self.K, self.X = K, X.cuda()
        self.mu = torch.randn(K, X.shape[1], device="cuda")
    def _e_step(self):
        log_prob = torch.zeros([self.X.shape[0], self.K], device="cuda")
        for k in range({count}):
            log_prob[:, k] = -((self.X - self.mu[k]) ** 2).sum(1)
        return log_prob.softmax(1)
    def fit(self, max_iters=100, tol=1e-4):
        old = 0
        for it in range(max_iters):
            log_lh = self._e_step().logsumexp(1).sum()
            if it >= 1 and torch.abs(log_lh - old) < tol:
                break
            old = log_lh
"""

_SOLVER_STEPS = """
import torch
device = torch.device("cuda")
{name} = NavierStokes2DSpectral(viscosity=1e-3, grid=grid, solver=RK4CrankNicolsonStepper()).to(device)
vort_hat = torch.fft.rfft2(vort_init).to(device)
for j in range(warmup_steps):
    vort_hat, _ = {name}.step(vort_hat, dt)
"""

_FIRST_CALL = """
import time
import torch
def first_call_time(model, x, device):
    model.eval()
    with torch.no_grad():
        x = x.to(device)
        if device {test}:
            torch.cuda.synchronize()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            _ = model(x)
            end.record()
            torch.cuda.synchronize()
            return float(start.elapsed_time(end))
        t0 = time.perf_counter()
        _ = model(x)
        t1 = time.perf_counter()
        return (t1 - t0) * 1000.0
"""

_RETURNS = """
import torch
device = torch.device("cuda")
rewards = []
for t in range(200):
    r = env_step()
    rewards.append(torch.tensor({item}, dtype=torch.float32, device=device))
R = torch.tensor(0.0, device=device)
ret = []
for rr in reversed(rewards):
    R = rr + 0.99 * R
    ret.append(R)
"""

_DISCRIMINATOR_LABELS = """
import torch
device = torch.device("cuda")
for x, target in loader:
    fake_score = discriminator(generator(x.to(device)))
    discrim_labels = torch.zeros(fake_score.shape[0], 2)
    discrim_labels[{place}] = 1.
    discrim_labels = discrim_labels.to(device)
    loss = discrim_loss(fake_score, discrim_labels)
"""

_SUBJECT_FILTER = """
import torch
device = torch.device("cuda")
for idx, batch in enumerate(valloader):
    X, y, p = batch['X'].to(device), batch['y'].to(device), batch['p']
    pred = torch.argmax(model(X), dim=1)
    for j in range(pred.size(0)):
        if {test} == 0:
            sub_total += 1
            if pred.cpu()[j].item() == y.cpu()[j].item():
                sub_correct += 1
"""

_DECODED_TEXT = """
import torch
net = CRNN().cuda().eval()
for sample in data_loader:
    with torch.no_grad():
        out = net(sample["img"].cuda(), decode=True)
    for i in range(len(out)):
        gts = {truth}
        if gts == out[i]:
            tp += 1
"""

CASES = [
    ("GA107", "print(opt) of the command-line options, and get_scheduler(optimizer, opt) building a schedule, step no "
     "optimizer: the test loop of a pix2pix script still only infers (r55 held-out 12821)",
     _PIX2PIX.format(before="print(opt)"), [19]),
    ("GA107", "twin: a step written in the test loop makes it a training pass",
     _PIX2PIX.format(before="").replace("        avg_psnr = psnr(prediction, batch[1].to(device))",
                                        "        psnr(prediction, batch[1].to(device)).backward()"), []),
    ("GA107", "a whole model unpickled with torch.load(path).to(device), device CUDA or the CPU by an option: its "
     "forward per image records a graph (r55 held-out 12822)", _UNPICKLED.format(body="    out = net_g(input)"), [6]),
    ("GA107", "twin: under torch.no_grad()", _UNPICKLED.format(
        body="    with torch.no_grad():\n        out = net_g(input)"), []),
    ("GA107", "a batch helper that the training loop and an evaluation loop after model.eval() share: the evaluation "
     "loop's calling line records a graph for nothing; the model comes from a base class of another module "
     "(r55 held-out 12809, r42 8955)",
     _SHARED_BATCH.format(vali="            pred, true = self._process_one_batch(batch)"), [10]),
    ("GA107", "twin: the evaluation loop calls it under torch.no_grad()", _SHARED_BATCH.format(
        vali="            with torch.no_grad():\n                pred, true = self._process_one_batch(batch)"), []),
    ("GA107", "the file's own model class puts its parts on CUDA in __init__: its forward on CPU inputs (it moves them "
     "itself) in an evaluation loop records a graph (r55 held-out 12661)",
     _PARTS_PLACED.format(part="transformer_model.to(device)"), [13]),
    ("GA107", "twin: a model class that keeps its parts where they were made, fed CPU tensors: a CPU model",
     _PARTS_PLACED.format(part="transformer_model"), []),
    ("GA104", "(torch.ones(n) * i).long().to(device) in a DDPM sampling loop: a fill times the step number of a loop "
     "over a range, cast, then copied (r50 held-out 10765)", _DDPM_STEP.format(fill="torch.ones(n)", times="i"), [7]),
    ("GA104", "twin: the fill times a CPU tensor is computed data, not a fill", _DDPM_STEP.format(
        fill="torch.ones(n)", times="scale.cpu()"), []),
    ("GA104", "w.to(mse.get_device()): get_device() is a GPU's index (a CPU tensor's -1 addresses nothing), so the "
     "arange is copied to the GPU (r51 held-out 11367)", _INDEXED_DEVICE.format(device="mse.get_device()"), [6]),
    ("GA104", "twin: moved to the CPU", _INDEXED_DEVICE.format(device='"cpu"'), []),
    ("GA101", "an epoch clock around a loader loop whose step hands the optimizer by keyword to a loss of another "
     "module (compute_loss(..., policy_optimizer=self.policy_optimizer)): a training run (r55 held-out 12871)",
     _KEYWORD_OPTIMIZER.format(handed="policy_optimizer=self.policy_optimizer"), []),
    ("GA101", "twin: handed no optimizer, the pass only computes, and the clock closes on queued work",
     _KEYWORD_OPTIMIZER.format(handed="padding=None"), [11]),
    ("GA103", "torch.fft.fftfreq(n, d, device=device) is a factory like arange: the spectral solver's field is on the "
     "device, and its per-step .item() waits (r52 held-out 11707)", _SPECTRAL.format(grid="fft.fftfreq"), [7]),
    ("GA103", "twin: a grid of an unknown library says nothing of the device", _SPECTRAL.format(grid="grids.freq"), []),
    ("GA109", "--device with no default (required=True): whatever device the user names, the GPU among them, so a "
     "model cast to float64 and moved there runs float64 on it (r52 dev 11620)",
     _REQUIRED_DEVICE.format(option="required=True"), [6]),
    ("GA109", "twin: --device defaulting to the CPU with choices limited to it",
     _REQUIRED_DEVICE.format(option="default='cpu', choices=['cpu']").replace("model.to(args.device)",
                                                                              "model.to('cpu')"), []),
    ("GA101", "def embed(...) -> np.ndarray: the helper promises host data, so what it ran on the GPU was read back "
     "before the clock closes (r55 dev 12708)", _ANNOTATED_EMBED.format(returns=" -> np.ndarray"), []),
    ("GA101", "twin: no return annotation, the helper hands back the CUDA output", _ANNOTATED_EMBED.format(returns=""),
     [12]),
    ("GA105", "model = self.parser_config['model'] moved in a method that a loop calls per image: the object's own "
     "model, moved again on every call (r50 held-out 10976)", _CAPTIONER.format(model='self.parser_config["model"]'),
     [6]),
    ("GA105", "twin: a model loaded afresh on each call must be moved each time",
     _CAPTIONER.format(model='VisionEncoderDecoderModel.from_pretrained(self.name)'), []),
    ("GA103", "an evaluation episode run when the step count crosses a multiple (prev // every != steps // every) is now "
     "and then, not the rollout the update follows: the loop is one update per iteration (r56 dev 13262)",
     _TD3_ROUNDS.format(evaluation="            if prev // every != self.steps // every:\n                self.evaluate()"),
     [14, 17]),
    ("GA103", "twin: episodes played on every iteration make each iteration a round (an update after its rollout)",
     _TD3_ROUNDS.format(evaluation="            self.evaluate()"), [17]),
    ("GA104", "wavenumbers: torch.cat of two aranges, viewed, repeated, cast with .type(dtype) of a dtype handed in and "
     "moved on the next line -- a fill made only to be copied, reported where it is made (r56 dev 13309)",
     _WAVENUMBERS.format(second="torch.arange(start=-s1//2, end=0, step=1)"), [4]),
    ("GA104", "twin: joined with data the file was handed, the result is computed data, not a fill",
     _WAVENUMBERS.format(second="x.cpu()"), []),
    ("GA103", "for k in range(self.K): a walk over a mixture's few clusters is one part of each EM iteration, so the "
     "convergence test of the iteration loop reads per iteration (r56 dev 13311)", _EM.format(count="self.K"), [15]),
    ("GA103", "twin: an inner loop over a count not named for clusters is taken for a loop of steps", _EM.format(
        count="self.inner_iters"), []),
    ("GA103", "decode_predictions(outputs, idx_to_char) of another module reads the network's output into strings: "
     "printing them reads nothing (r56 dev 13076)", _IMPORTED_DECODER.format(decoder="decode_predictions"), []),
    ("GA103", "twin: decode_latents hands back the decoded images, on the GPU", _IMPORTED_DECODER.format(
        decoder="decode_latents"), [8]),
    ("GA107", "ns2d.step(vort_hat, dt) of a PDE solver moved to the GPU advances the simulation, it is no network's "
     "forward (r56 dev 13306, 13307; r45 9819's scheduler.step)", _SOLVER_STEPS.format(name="ns2d"), []),
    ("GA107", "twin: model.step(feat) of a receiver named like a model is a decoder's step, a forward",
     _SOLVER_STEPS.format(name="model"), [6]),
    ("GA101", "after `if device == 'cuda': ... return`, the rest of the function is the CPU way: its perf_counter "
     "pair times CPU work (r56 dev 13104)", _FIRST_CALL.format(test='== "cuda"'), []),
    ("GA101", "twin: after `if device == 'cpu': ... return` the rest runs on the GPU", _FIRST_CALL.format(
        test='== "cpu"').replace("torch.cuda.synchronize()\n            start", "start"), [16]),
    ("GA110", "REINFORCE's returns R = r + gamma * R over a list of one-number CUDA tensors (torch.tensor(r, "
     "device=...)): two tiny ops per step, launch-bound (r56 dev 13021, r52 held-out 11621)",
     _RETURNS.format(item="r"), [10]),
    ("GA110", "twin: items of unknown size (torch.tensor(obs)) are no buffer of numbers", _RETURNS.format(
        item="r.obs"), []),
    ("GA104", "torch.zeros(...) with one column set to 1. (a constant at a constant place) before the copy is still a "
     "constant tensor the GPU can make (r56 held-out 13064, after scoring)", _DISCRIMINATOR_LABELS.format(place=":, 1"),
     [5]),
    ("GA104", "twin: filled at places the data picks (a one-hot of the targets), it is data made on the CPU",
     _DISCRIMINATOR_LABELS.format(place="range(len(target)), target"), []),
    ("GA103", "gts == out[i] with gts = ''.join(...): out[i] is compared with a string, so it is text the network "
     "decoded, not a CUDA tensor (r56 held-out 13002, after scoring)",
     _DECODED_TEXT.format(truth="''.join(abc[c] for c in gt[i])"), []),
    ("GA103", "twin: compared with a row of a tensor, out[i] is a CUDA tensor read in the condition",
     _DECODED_TEXT.format(truth="targets[i]"), [8]),
    ("GA107", "a progressive GAN's discriminator.add_layer(size) changes the model's structure, it runs no forward "
     "(r39 held-out 7714)", _GROWN.format(method="add_layer"), []),
    ("GA107", "twin: a method that runs the discriminator on its input is a forward",
     _GROWN.format(method="score"), [6]),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s22_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected


def test_the_fix_for_a_cast_fill_keeps_the_cast():
    """The rewrite keeps .long(): the step tensor the model is handed stays an integer tensor."""
    [finding] = lint_text(textwrap.dedent(_DDPM_STEP.format(fill="torch.ones(n)", times="i")).lstrip("\n"),
                          select=["GA104"])
    assert finding.fix.endswith("(torch.ones(n, device=self.device) * i).long()")


@pytest.mark.parametrize("body,hot", [
    ("loss += loss_dict[func_name](y_pred, y_true) * weight", False),
    ("loss += loss_dict[func_name](y_pred, y_true) * weight\n        log(func_name)", True)])
def test_a_criterion_adding_up_its_loss_terms_is_part_of_a_step(body, hot):
    """def criterion(...): for name, weight in CFG.loss_info.items(): loss += ...; return loss -- a walk over a
    configuration's terms that sums one step's loss is no loop of steps, so the validation loop that calls the
    criterion per batch stays a hot loop with its reads (r56 dev 13055: 7). A walk that does more than add up (logs
    each term) keeps its own reading."""
    ctx = context_of(_LOSS_TERMS.format(body=body))
    [criterion_loop] = [loop for loop in ctx.index.loops if loop.lineno == 6]
    assert ctx.loop_is_hot(criterion_loop) is hot


@pytest.mark.parametrize("test,loop_line", [("p[j].item()", 6), ("flag", 3)])
def test_a_test_of_the_walked_item_filters_items_it_does_not_guard(test, loop_line):
    """`if p[j].item() == 0:` in `for j in range(pred.size(0))` picks the items of one subject on every pass: the
    reads under it run per item, in the walk (r56 held-out 13156, after scoring). A test of something else (a flag)
    runs now and then: its reads count once per batch, in the loop around."""
    findings = lint_text(textwrap.dedent(_SUBJECT_FILTER.format(test=test)).lstrip("\n"), select=["GA103"])
    assert {f.line for f in findings} == {9}
    assert all(f"loop at line {loop_line}" in f.message for f in findings)
