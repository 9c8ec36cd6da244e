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
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s19_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
