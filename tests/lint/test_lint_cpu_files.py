"""The labelling convention of session 5: a file with no sign of CUDA at all -- no `cuda`, no `device`, no
`.to(...)` of anything, no `torch.device`, no GPU-only API -- is CPU code, and the checks of GPU costs (GA103 to
GA107, GA110) stay silent on it. One sign anywhere (a move, a device name, pin_memory, DataParallel, a
`use_gpu` flag) and the same code is read as before. A comment mentioning the GPU is no sign.
"""

from __future__ import annotations

import pytest
from lint_helpers import lines_of

from advisor.lint.cuda_signs import shows_cuda

# A training-loop fragment quoted without its set-up: `net`, `trainset` bound nowhere.
_LOOP = """
import torch
loader = torch.utils.data.DataLoader(trainset, batch_size=16, shuffle=True, num_workers=2)
opt = torch.optim.SGD(net.parameters(), lr=0.001)
for epoch in range(4):
    for inputs, labels in loader:{move}
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(inputs), labels)
        loss.backward()
        opt.step()
        print(loss.item())
"""

_PREDICT = """
import torch
net.eval()
predictions = []
for batch in loader:{move}
    predictions.append(net(batch).argmax(1))
"""


@pytest.mark.parametrize("move", ["\n        inputs = inputs.to(device)", "\n        inputs = inputs.cuda()",
                                  "\n        inputs = inputs.to(DEV)  # DEV set elsewhere"])
def test_a_loop_that_moves_its_batch_is_read_as_gpu_code(move):
    found = lines_of(_LOOP.format(move=move))
    assert any(check == "GA103" for _, check in found)


def test_the_same_loop_with_no_sign_of_cuda_is_cpu_code():
    assert lines_of(_LOOP.format(move="")) == []


def test_a_comment_about_the_gpu_is_no_sign():
    assert lines_of(_LOOP.format(move="  # runs on the GPU in the full script")) == []


def test_prediction_loop_fires_with_a_move_and_not_without():
    assert ("GA107" in {check for _, check in lines_of(_PREDICT.format(move="\n    batch = batch.to(device)"))})
    assert lines_of(_PREDICT.format(move="")) == []


def test_checks_that_are_not_gpu_costs_still_run_on_cpu_code():
    code = """
    import torch
    torch.autograd.set_detect_anomaly(True)
    for x in loader:
        loss = net(x).sum()
        loss.backward()
    """
    assert ("GA108" in {check for _, check in lines_of(code)})


@pytest.mark.parametrize("code,expected", [
    ("x = torch.zeros(3)\n", False),
    ("'''Trains on a GPU cluster.'''\nx = torch.zeros(3)\n", True),  # a string can name it: code, not a comment
    ("x = torch.zeros(3)  # on the gpu\n", False),
    ("# x = x.cuda()\ny = torch.zeros(3)\n", False),
    ("y = torch.zeros(3)\n    # TODO: move to device\nz = y.to(torch.float16)\n", True),
    ("x = y.to(z)\n", True),
    ("loader = DataLoader(ds, pin_memory=True)\n", True),
    ("model = torch.nn.DataParallel(model)\n", True),
    ("def train(model, use_gpu): pass\n", True),
    ("torch.backends.cudnn.benchmark = True\n", True),
    ("from accelerate import Accelerator\n", True),
])
def test_signs_of_cuda(code, expected):
    assert shows_cuda(code) is expected
