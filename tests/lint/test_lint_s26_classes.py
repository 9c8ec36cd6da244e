"""Classes of session 26 (issue 12), each with its must-not twin, fixed on the spent corpora r58-r67."""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

_CONFIGURED_DEVICE = """
import torch
def train(cfg, loader, model, opt):
    device = cfg['device']
    model.to(device)
    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total
def main(cfg):
    if {test}:
        cfg['device'] = 'cpu'
"""

_MODELS_IN_A_DICT = """
import torch
from model import Encoder, Classifier
def test(models, loader, device):
    E, C = models['E'], models['C']
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            out = C(E(x))
            correct += out.argmax(1).eq(y).sum().item()
    return correct
device = torch.device("cuda")
test({models}, loader, device)
"""

_MIXED_DICT = """
import torch
from model import Tagger, Encoder
device = torch.device("cuda")
model = Tagger().to(device)
params = {{"model": model, "encoder": {encoder}}}
def predict(params, loader):
    decoder = params["encoder"]
    model = params["model"]
    model.eval()
    with torch.no_grad():
        outputs = [model(x.to(device)).cpu().numpy() for x in loader]
    for row in outputs:
        print(decoder(row))
predict(params, loader)
"""

_LOSS_OBJECT_METHOD = """
import torch
from losses import BiEncoderNllLoss
def train(model, loader, opt, device):
    loss_function = BiEncoderNllLoss()
    epoch_loss = 0.0
    for q, ctx in loader:
        q_vectors, ctx_vectors = model(q.to({device})), model(ctx.to({device}))
        loss, correct = loss_function.calc(q_vectors, ctx_vectors)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()
    return epoch_loss
"""

_NAMED_PARAMETER_TABLE = """
import torch
model = BertForSequenceClassification.from_pretrained("bert-base-uncased")
model.cuda()
params = list(model.named_parameters())
for p in params[0:5]:
    print("{{:<55}} {{:>12}}".format(p[{index}], str(tuple(p[1].size()))))
"""

_HANDED_IN_MODEL = """
import torch
class Trainer:
    def __init__(self, args, model):
        self.args = args
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.parameters())
    def train_an_epoch(self, train_data):
        total_loss = 0
        for batch in train_data:
            self.optimizer.zero_grad()
            loss = self.model.calculate_loss(batch)
            loss.backward()
            self.optimizer.step()
            total_loss += loss.item()
        return total_loss
    def evaluate(self, users):
        return self.model.predict({move})
"""

_CAPTION_DECODER = """
import torch
import torch.nn as nn
import pytorch_lightning as pl
class Attention(pl.LightningModule):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)
    def forward(self, features, h):
        return torch.softmax(self.score(features + h), dim=1)
class Decoder({base}):
    def __init__(self, dim):
        super().__init__()
        self.attention = Attention(dim)
    def generate_caption(self, features, h, max_len=20):
        alphas = []
        word = torch.tensor([1]).view(1, -1).to(self.device)
        h = h + self.attention(word, h)
        for i in range(max_len):
            alpha = self.attention(features, h)
            alphas.append(alpha.argmax(dim=1))
        return alphas
class EncoderDecoder(pl.LightningModule):
    def __init__(self, dim):
        super().__init__()
        self.decoder = Decoder(dim)
    def forward(self, features, h, sequential=False):
        if sequential:
            return self.decoder.generate_caption(features, h)
        return self.decoder.attention(features, h)
"""

_NEIGHBOR_SAMPLER = """
import torch
import torch.nn.functional as F
device = torch.device("cuda")
def train(model, convs, loader, x, opt):
    for batch_size, n_id, adjs in loader:
        adjs = [adj.to(device) for adj in adjs]
        h = x[n_id].to(device)
        for i, (edge_index, _, {name}) in enumerate(adjs):
            h_target = h[:{name}[1]]
            h = convs[i]((h, h_target), edge_index)
        loss = F.cross_entropy(h, h)
        opt.zero_grad()
        loss.backward()
        opt.step()
"""

_CHAINED_FILL = """
import torch
class GRU4Rec:
    device = "cuda"
    def embedding_dropout(self, input):
        p_drop = torch.Tensor(input.size(0), 1).fill_(1 - self.dropout_input)
        mask = {draw}
        mask = mask.to(self.device)
        return input * mask
"""

_DDPM_SAMPLING = """
import torch
from tqdm import tqdm
def sample(model, n, noise_steps, device="cuda"):
    x = torch.randn((n, 3, 64, 64), device=device)
    with torch.no_grad():
        for i in {steps}:
            t = (torch.ones(n) * i).long().to(device)
            x = x - model(x, t)
    return x
"""

_DDPG_AGENT = """
import torch
import torch.nn.functional as F
class Agent:
    def __init__(self, config):
        self.config = config
        self.actor_local = config.actor_network_fn()
        self.actor_target = config.actor_network_fn()
        self.critic_local = config.critic_network_fn()
        self.critic_target = config.critic_network_fn()
        self.critic_optimizer = config.critic_optimizer_fn(self.critic_local.parameters())
        {sync}
    def act(self, states):
        return self.actor_local(torch.from_numpy(states).float().to(self.config.device))
    def learn(self, states, actions, rewards, next_states, gamma):
        actions_next = self.actor_target(next_states)
        Q_targets_next = self.critic_target(next_states, actions_next)
        Q_targets = rewards + gamma * Q_targets_next
        critic_loss = F.mse_loss(self.critic_local(states, actions), Q_targets)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()
    def soft_update(self, local_model, target_model, tau):
        for target_param, local_param in zip(target_model.parameters(), local_model.parameters()):
            target_param.data.copy_(tau * local_param.data + (1.0 - tau) * target_param.data)
"""

_PROJECT_LOADER_CALL = """
import torch
from dataset.loader import DataLoader
device = torch.device("cuda")
train_loader = DataLoader({args})
for batch in train_loader:
    loss = model(batch.to(device))
    loss.backward()
"""

_BATCH_RESULTS = """
import torch
device = torch.device("cuda")
model = Net().to(device)
def process_batch(images, filenames):
    probs = torch.softmax(model(torch.cat(images).to(device)), dim=1)
    _, predicted = torch.max(probs, 1)
    results = []
    for i in range({count}):
        pred_class = predicted[i].item()
        results.append((filenames[i], pred_class))
    return results
for batch, names in batches:
    print(process_batch(batch, names))
"""

_FINETUNING_TUTORIAL = """
import torch
from torchvision import models
feature_extract = {flag}
def set_parameter_requires_grad(model, feature_extracting):
    if feature_extracting:
        for param in model.parameters():
            param.requires_grad = False
def predict(model, loader, device):
    model.eval()
    preds = []
    for inputs, labels in loader:
        outputs = model(inputs.to(device))
        preds.append(outputs.argmax(1))
    return preds
device = torch.device("cuda")
model_ft = models.resnet18(pretrained=True)
set_parameter_requires_grad(model_ft, feature_extract)
model_ft = model_ft.to(device)
predict(model_ft, loader, device)
"""

_CAMEL_DEVICE = """
import torch
class HopfieldNetwork:
    def __init__(self, dimension, {name}):
        self.weightMatrix = torch.zeros(size=(dimension, dimension)).to({name})
"""

_APPLE_OR_CPU = """
import torch
def step(current_state):
    neighbors = torch.roll(current_state, 1) + torch.roll(current_state, -1)
    return torch.where(neighbors == 2, torch.tensor(1.0, device=current_state.device),
                       torch.tensor(0.0, device=current_state.device))
device = torch.device({choice})
state = torch.randint(0, 2, (100, 100), device=device).float()
for _ in range(200):
    state = step(state)
"""

_DTYPE_PARAMETER_MOVED = """
import torch
def mandelbrot(w, h, device, tensor_type=torch.cfloat):
    z = torch.zeros((w, h), dtype=tensor_type).to(device)
    return z
def zoom(device):
    return mandelbrot(1920, 1080, device, tensor_type={dtype})
zoom(torch.device("cuda"))
"""

_STEP_BY_STEP = """
import numpy as np
import torch
class StepByStep(object):
    def __init__(self, model, loss_fn):
        self.model = model
        self.loss_fn = loss_fn
        self.device = 'cuda' if torch.cuda.is_available() else 'cpu'
        self.model.to(self.device)
        self.valid_step_fn = self._make_valid_step_fn()
    def _make_valid_step_fn(self):
        def perform_val_step(x, y):
            self.model.eval()
            loss = self.loss_fn(self.model(x), y)
            return loss.item()
        return perform_val_step
    def validate(self, data_loader):
        step_fn = self.valid_step_fn
        losses = []
        {loop}
        return np.mean(losses)
"""

_CGAN_LABELS = """
import numpy as np
import torch
device = torch.device("cuda")
for imgs, labels in loader:
    gen_labels = torch.from_numpy(np.random.randint(0, 10, imgs.shape[0]))
    {use}
"""

CASES = [
    ("GA103", "cfg['device'] set to 'cpu' only under `if device != 'cpu' and not torch.cuda.is_available():` -- the "
     "fallback of a run without CUDA, so the configured device is the GPU and loss.item() reads per step (r65 "
     "held-out 16609)", _CONFIGURED_DEVICE.format(test="cfg['device'] != 'cpu' and not torch.cuda.is_available()"),
     [12]),
    ("GA103", "twin: a file that sets the device to the CPU on a switch of its own runs on the CPU",
     _CONFIGURED_DEVICE.format(test="cfg.get('force_cpu')"), []),
    ("GA103", "models handed to the evaluation in a dict ({'E': E, 'C': C}) and taken out again by key: still the "
     "CUDA models, so their outputs' .item() is a read per batch (r65 held-out 16963)",
     _MODELS_IN_A_DICT.format(models="{'E': Encoder().to(device), 'C': Classifier().to(device)}"), [10]),
    ("GA103", "twin: models the file never moves to the GPU (a CPU run)",
     _MODELS_IN_A_DICT.format(models="{'E': Encoder(), 'C': Classifier()}").replace(
         "x, y = x.to(device), y.to(device)", "pass"), []),
    ("GA107", "must-not: a dict holding a model beside a label decoder hands no model back for the decoder -- calling "
     "it on a NumPy row is no forward pass (r59 held-out 14218 when dict values were all taken for models)",
     _MIXED_DICT.format(encoder="Encoder()"), []),
    ("GA103", "loss_function.calc(q, ctx) of a BiEncoderNllLoss() from another module computes the loss on the device "
     "of the tensors it is handed: reading it every step waits (r64 held-out 16552, r62 held-out 15602)",
     _LOSS_OBJECT_METHOD.format(device='"cuda"'), [12]),
    ("GA103", "twin: handed CPU tensors, the same loss is computed on the host",
     _LOSS_OBJECT_METHOD.format(device='"cpu"'), []),
    ("GA103", "the BERT tutorial's parameter table: p[0] of a (name, parameter) pair from named_parameters() is the "
     "name and p[1].size() its shape -- nothing read from the GPU (r66 held-out 17008, three lines)",
     _NAMED_PARAMETER_TABLE.format(index=0), []),
    ("GA103", "twin: formatting p[1], the CUDA parameter itself, copies it back",
     _NAMED_PARAMETER_TABLE.format(index=1), [6]),
    ("GA103", "a trainer another file builds, handed its model, whose methods move batches to the configured device: the "
     "model sits beside that data, so the loss it computes is read back every step (r66 dev 17202; also r60 held-out "
     "14916, r65 held-out 16918, r59 dev 14574/14575)", _HANDED_IN_MODEL.format(move="users.to(self.args.device)"),
     [14]),
    ("GA103", "twin: a trainer that moves nothing anywhere leaves the model's device unknown (r61 dev 15203, r60 "
     "held-out 14971: labelled clean)", _HANDED_IN_MODEL.format(move="users"), []),
    ("GA103", "twin: moving only to the CPU is no sign of a GPU", _HANDED_IN_MODEL.format(move='users.to("cpu")'), []),
    ("GA107", "a caption decoder's own generate_caption runs its own layers in a loop: one computation of the module, "
     "whose grad mode its callers choose -- not a forward the method should wrap (r68 dev 18105, five reports)",
     _CAPTION_DECODER.format(base="pl.LightningModule"), []),
    ("GA107", "twin: a plain object (no module) running a model it holds in a loop, nothing stepped back, is inference",
     _CAPTION_DECODER.format(base="object").replace("super().__init__()\n        self.attention",
                                                    "self.device = 'cuda'\n        self.attention"), [19]),
    ("GA103", "PyG's NeighborSampler: `for i, (edge_index, _, size) in enumerate(adjs)` -- size is the pair of node "
     "counts beside the moved edge_index, Python ints, so h[:size[1]] reads nothing (r68 dev 18114, the GraphSAGE "
     "example's idiom)", _NEIGHBOR_SAMPLER.format(name="size"), []),
    ("GA103", "twin: a part of the moved record named for a tensor bounds the slice with a CUDA value",
     _NEIGHBOR_SAMPLER.format(name="counts"), [9]),
    ("GA104", "a fill carried through statements before its copy (p_drop filled, a mask drawn from it, the mask "
     "moved) is reported where it is made, the first fill (r66 held-out 17102; r64 held-out 16462, r68 dev 17954)",
     _CHAINED_FILL.format(draw="torch.bernoulli(p_drop).expand_as(input) / (1 - self.dropout_input)"), [5]),
    ("GA104", "twin: a draw scaled by a value handed in may be data: reported at the copy (the session-19 rule)",
     _CHAINED_FILL.format(draw="torch.bernoulli(p_drop) * input"), [7]),
    ("GA104", "the DDPM sampling loop: `for i in tqdm(reversed(range(1, steps)))`, t = (torch.ones(n) * i).long()"
     ".to(device) -- i is an int through the progress bar, so t is a fill made on the CPU only to be copied, every "
     "step (r68 dev 17955, r62 held-out 15608)", _DDPM_SAMPLING.format(steps="tqdm(reversed(range(1, noise_steps)))"),
     [7]),
    ("GA104", "twin: a step taken from a list the file does not show may be a tensor: the product may be data",
     _DDPM_SAMPLING.format(steps="tqdm(schedule)"), []),
    ("GA107", "DDPG's targets built by a config factory and refreshed by self.soft_update(local, target, tau): target "
     "networks whose forwards in the update record a graph nobody uses (r58 dev 14019, the Udacity MADDPG agent)",
     _DDPG_AGENT.format(sync="self.soft_update(self.critic_local, self.critic_target, 1)\n        "
                        "self.soft_update(self.actor_local, self.actor_target, 1)"), [16, 17]),
    ("GA107", "twin: models the file never copies weights into say nothing of being targets",
     _DDPG_AGENT.format(sync="pass"), []),
    ("GA106", "a project's own DataLoader handed a file path (TACRED's DataLoader(opt['data_dir'] + '/train.json', "
     "bs, opt, tokenizer)): torch's takes a dataset -- no workers or pinning to ask of it (r61 held-out 15027)",
     _PROJECT_LOADER_CALL.format(args="opt['data_dir'] + '/train.json', opt['batch_size'], opt, tokenizer"), []),
    ("GA106", "the same with a keyword torch's DataLoader does not take (Social LSTM's forcePreProcess=True; r65 "
     "held-out 16907)", _PROJECT_LOADER_CALL.format(args="prefix, 32, 20, forcePreProcess=True"), []),
    ("GA106", "twin: a re-export handed a dataset and torch's own keywords is torch's loader passed on",
     _PROJECT_LOADER_CALL.format(args="train_set, batch_size=32, shuffle=True"), [4]),
    ("GA103", "for i in range(len(filenames)) reading predicted[i].item(): a walk over the batch's names that reads the "
     "CUDA predictions row by row, once per image of every batch (r58 held-out 13972)",
     _BATCH_RESULTS.format(count="len(filenames)"), [9]),
    ("GA103", "twin: a count the file spells out is not the batch (the session-19 rule for range(W) with W = 5)",
     _BATCH_RESULTS.format(count="3"), []),
    ("GA107", "torchvision's fine-tuning tutorial: set_parameter_requires_grad(model_ft, feature_extract) with "
     "feature_extract = False freezes nothing, so predict()'s forward after eval() records a graph (r68 dev 18155; the "
     "helper's `model` used to be read as freezing every `model` of the file)", _FINETUNING_TUTORIAL.format(flag="False"),
     [12]),
    ("GA107", "twin: with feature_extract = True the handed model is frozen and its forward records nothing",
     _FINETUNING_TUTORIAL.format(flag="True"), []),
    ("GA104", "a device parameter named in camelCase (torchDevice) is a device: the zeros made on the CPU and copied "
     "there could be made on it (r68 dev 17858)", _CAMEL_DEVICE.format(name="torchDevice"), [4]),
    ("GA104", "twin: cpuDevice names the CPU", _CAMEL_DEVICE.format(name="cpuDevice"), []),
    ("GA105", "a program that picks Apple's GPU or the CPU and names nothing of CUDA never runs on an NVIDIA GPU: no "
     "CUDA-cost finding (r68 held-out 17860, r66 held-out 17105/17106, all labelled clean; after scoring: tuned)",
     _APPLE_OR_CPU.format(choice='"mps" if torch.backends.mps.is_available() else "cpu"'), []),
    ("GA105", "twin: the same program picking CUDA rebuilds its two constants on the GPU every step",
     _APPLE_OR_CPU.format(choice='"cuda" if torch.cuda.is_available() else "cpu"'), [4, 5]),
    ("GA109", "torch.zeros(..., dtype=tensor_type).to(device) of a parameter every caller sets to torch.cdouble: at the "
     "caller's choice, as for a factory made on the GPU (the session-25 placement; r69 dev 18251, after scoring)",
     _DTYPE_PARAMETER_MOVED.format(dtype="torch.cdouble"), [6]),
    ("GA109", "twin: a caller choosing complex64 makes nothing float64", _DTYPE_PARAMETER_MOVED.format(dtype="torch.cfloat"),
     []),
    ("GA103", "Godoy's StepByStep: self.valid_step_fn = self._make_valid_step_fn(), a closure returning loss.item(), "
     "called through step_fn = self.valid_step_fn once per batch (r69 held-out 18462, after scoring: tuned)",
     _STEP_BY_STEP.format(loop="for x, y in data_loader:\n            losses.append(step_fn(x.to(self.device), "
                          "y.to(self.device)))"), [14]),
    ("GA103", "twin: the closure called once, outside any loop, reads once",
     _STEP_BY_STEP.format(loop="losses.append(step_fn(*next(iter(data_loader))))"), []),
    ("GA104", "a cGAN's label draw, torch.from_numpy(np.random.randint(0, n_classes, batch_size)).to(device): NumPy draws "
     "on the CPU what torch.randint draws on the GPU (r69 held-out 18364, after scoring: tuned)",
     _CGAN_LABELS.format(use="gen_labels = gen_labels.to(device)"), [5]),
    ("GA104", "twin: labels drawn for a CPU-side histogram are never copied",
     _CGAN_LABELS.format(use="counts = np.bincount(gen_labels.numpy())"), []),
    ("GA104", "the same draw wrapped by torch.LongTensor (and Variable): still NumPy's draw copied over (r59 held-out "
     "14465, after scoring: tuned)", _CGAN_LABELS.format(use="gen_labels = torch.LongTensor(gen_labels.numpy())")
     .replace("torch.from_numpy(np.random.randint(0, 10, imgs.shape[0]))",
              "Variable(torch.LongTensor(np.random.randint(0, 10, imgs.shape[0]))).to(device)"), [5]),
    ("GA106", "webdataset's WebLoader is torch's DataLoader with a pipeline's methods: without pinned memory it feeds "
     "the GPU from pageable memory (r69 dev 18567, 18569, after scoring: tuned)", """
import torch
import webdataset as wds
device = torch.device("cuda")
loader = wds.WebLoader(dataset, batch_size=None, num_workers=8{pin})
for images, texts in loader:
    loss = model(images.to(device), texts)
""".format(pin=""), [4]),
    ("GA106", "twin: pinned, it is fine", """
import torch
import webdataset as wds
device = torch.device("cuda")
loader = wds.WebLoader(dataset, batch_size=None, num_workers=8, pin_memory=True)
for images, texts in loader:
    loss = model(images.to(device), texts)
""", []),
]


def test_numpy_randint_fix_is_torch_randint_with_a_size_tuple():
    from advisor.lint import lint_text
    code = ("import numpy as np\nimport torch\nfor _ in range(9):\n"
            "    a = torch.from_numpy(np.random.randint(0, 10, 64)).to('cuda')\n"
            "    b = torch.tensor(np.random.randint(10, size=(64, 2))).to('cuda')\n")
    fixes = [f.fix for f in lint_text(code, select=["GA104"])]
    assert fixes == ["Create it on the GPU: torch.randint(0, 10, (64,), device='cuda')",
                     "Create it on the GPU: torch.randint(10, (64, 2), device='cuda')"]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s26_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
