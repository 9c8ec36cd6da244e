"""GA109 on a model converted to float64 whose class the file cannot see (second real-world corpus, issue 12):
``GenLSTM(stride=500).double().cuda()`` with GenLSTM imported from the project. The conversion must keep the
value a model, so the move after it is a float64 model reaching the GPU (and calls on it are forwards)."""

from __future__ import annotations

import pytest
from lint_helpers import lines_of

FIRES = [
    # session 6: .double() exists only on tensors and modules, so whatever `batch` is, it lands on the GPU as
    # float64 (this case was quiet before; the sixth corpus's dev half labels `x_batch.double().to(device)`)
    ("data not named like a model, converted and moved: float64 on the GPU all the same", """
import torch
from data import load_batch
batch = load_batch()
x = batch.double().cuda()
""", [4]),
    ("imported classes converted, then moved", """
import torch
from model import GenLSTM, DisLSTM
netG = GenLSTM(stride=500).double().cuda()
netD = DisLSTM().double().to("cuda")
""", [3, 4]),
    ("a loaded model named like one, converted then moved", """
import torch
from project import load_model
model = load_model("ckpt.pt")
model = model.double().cuda()
""", [4]),
    ("converted after the move", """
import torch
from model import Critic
critic = Critic().cuda().double()
""", [3]),
]

QUIET = [
    ("converted to float32 or float16 before the move", """
import torch
from model import GenLSTM
netG = GenLSTM().float().cuda()
netH = GenLSTM().half().cuda()
""", []),
    ("a float64 model that stays on the CPU", """
import torch
from model import GenLSTM
netG = GenLSTM().double()
out = netG(torch.zeros(4, 8, dtype=torch.float64))
""", []),

]


@pytest.mark.parametrize("title,code,expected", FIRES + QUIET, ids=[c[0] for c in FIRES + QUIET])
def test_model_converted_to_float64(title, code, expected):
    assert [line for line, _ in lines_of(code, select=["GA109"])] == expected


def test_a_half_model_moved_is_still_a_model():
    code = """
import torch
from model import Generator
gen = Generator().half().cuda()
gen.eval()
for z in [torch.randn(1, 8, device="cuda") for _ in range(4)]:
    sample = gen(z)
"""
    assert lines_of(code, select=["GA107"]) == [(6, "GA107")]
