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

CASES = [
    ("GA103", "cfg['device'] set to 'cpu' only under `if device != 'cpu' and not torch.cuda.is_available():` -- the "
     "fallback of a run without CUDA, so the configured device is the GPU and loss.item() reads per step (r65 "
     "held-out 16609)", _CONFIGURED_DEVICE.format(test="cfg['device'] != 'cpu' and not torch.cuda.is_available()"),
     [12]),
    ("GA103", "twin: a file that sets the device to the CPU on a switch of its own runs on the CPU",
     _CONFIGURED_DEVICE.format(test="cfg.get('force_cpu')"), []),
]


@pytest.mark.parametrize("check,about,code,expected", CASES, ids=[c[1] for c in CASES])
def test_s26_classes(check, about, code, expected):
    assert [line for line, found in lines_of(code, select=[check])] == expected
