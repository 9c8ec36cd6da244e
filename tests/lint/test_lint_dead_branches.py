"""Branches that never run on a GPU machine get no GPU finding (issue 12, session 6 convention; dead_branches.py).

Each case: code and the (line, check) pairs lint must report -- the same mistake on a branch that can run is
still reported, so a case that hid everything would fail.
"""

from __future__ import annotations

import pytest

from tests.lint.lint_helpers import lines_of

CASES = [
    ("a module constant fixes the branch (the held-out 517 pattern)", """
import torch
DATA_TYPE = "float"
def to_device(a):
    if DATA_TYPE == "double":
        a = a.double()
    else:
        a = a.float()
    return a.cuda()
x = torch.zeros(4, device="cuda").double()
""", [(9, "GA109")]),
    ("a constant rebound elsewhere, a global write or a parameter of that name can change: still reported", """
import torch
MODE = "float"
PRECISION = "single"
def set_mode(m):
    global MODE
    MODE = m
def run(PRECISION):
    if PRECISION == "double":
        return torch.zeros(4, device="cuda").double()
if MODE == "double":
    y = torch.zeros(4, device="cuda").double()
""", [(9, "GA109"), (11, "GA109")]),
    ("if False / a false flag, and a constant in `and`", """
import os
import torch
DEBUG = False
if False:
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
if DEBUG and os.getenv("X"):
    torch.autograd.set_detect_anomaly(True)
if not DEBUG:
    pass
else:
    torch.autograd.set_detect_anomaly(True)
os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
""", [(12, "GA108")]),
    ("the CPU fallback of a device test: no float64 or GPU cost there, but a debug switch still costs", """
import os
import torch
use_gpu = torch.cuda.is_available()
if use_gpu:
    torch.set_default_tensor_type(torch.cuda.DoubleTensor)
else:
    torch.set_default_tensor_type(torch.DoubleTensor)
    os.environ["CUDA_LAUNCH_BLOCKING"] = "1"
device = "cuda" if use_gpu else "cpu"
if device == "cpu":
    w = torch.randn(8, 8).double().to(device)
""", [(5, "GA109"), (8, "GA108")]),
    ("a command-line option can be either: both branches reported", """
import argparse
import torch
parser = argparse.ArgumentParser()
parser.add_argument("--dtype", default="float")
args = parser.parse_args()
if args.dtype == "double":
    x = torch.zeros(4, device="cuda").double()
else:
    y = torch.zeros(4, device="cuda").half().double()
""", [(7, "GA109"), (9, "GA109")]),
]


@pytest.mark.parametrize("about,code,expected", CASES, ids=[c[0] for c in CASES])
def test_dead_branches(about, code, expected):
    assert sorted(lines_of(code)) == sorted(expected)


def test_a_mode_fixed_inside_the_function_runs_one_branch_on_every_iteration():
    """`VOTE = "soft"` set once in the function: the soft branch's reads run on every batch (not "some
    iterations" behind a guard) and the hard branch never runs (the sixth corpus's dev 623)."""
    code = """
import torch
def evaluate(loader, model):
    VOTE = "soft"
    with torch.no_grad():
        for x in loader:
            x = x.cuda()
            if VOTE == "soft":
                p = model(x).softmax(1)
                print(p.cpu())
            else:
                print(model(x).argmax(1).cpu())
"""
    assert lines_of(code, select=["GA103"]) == [(9, "GA103")]


def test_a_mode_picked_before_the_loop_is_no_constant_and_no_guard():
    """VOTE may be "hard" (rebound on a parameter): the branch can run, and when it does it reads every batch."""
    code = """
import torch
def evaluate(loader, model, hard):
    VOTE = "soft"
    if hard:
        VOTE = "hard"
    with torch.no_grad():
        for x in loader:
            x = x.cuda()
            if VOTE == "hard":
                print(model(x).argmax(1).cpu())
"""
    assert lines_of(code, select=["GA103"]) == [(10, "GA103")]
