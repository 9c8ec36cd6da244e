"""The CUDA data-flow pass: which names hold CUDA devices, tensors and models, through helpers,
parameters, attributes, branches and loops."""

from __future__ import annotations

import ast
import textwrap

from advisor.lint.context import FileContext
from advisor.lint.flow.kinds import CPU_TENSOR, CUDA_DEVICE, CUDA_MODEL, CUDA_TENSOR, EVAL, F64, FRESH, LOADER, describe
from advisor.lint.source import SourceUnit


def kinds(code: str) -> dict[str, int]:
    """Kind of every `probe(name)` argument, by name (last probe wins)."""
    text = "import torch\nimport numpy as np\nfrom torch import nn\n" + textwrap.dedent(code)
    ctx = FileContext(SourceUnit("t.py", text), ast.parse(text))
    found = {}
    for call in ctx.index.calls:
        if isinstance(call.func, ast.Name) and call.func.id == "probe":
            found[ast.unparse(call.args[0])] = ctx.kind(call.args[0])
    return found


def test_devices_and_factories():
    k = kinds("""
        dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        a = torch.randn(3, device=dev)
        b = torch.randn(3)
        c = b.to(dev)
        d = torch.zeros(2, device="cpu")
        probe(dev); probe(a); probe(c); probe(d)
    """)
    assert k["dev"] & CUDA_DEVICE
    assert k["a"] & CUDA_TENSOR and k["c"] & CUDA_TENSOR
    assert k["d"] == CPU_TENSOR | FRESH, describe(k["d"])


def test_helper_returning_a_device_and_parameters_from_call_sites():
    k = kinds("""
        def try_gpu(i=0):
            if torch.cuda.device_count() >= i + 1:
                return torch.device(f"cuda:{i}")
            return torch.device("cpu")

        def run(net, device, batches):
            for x in batches:
                x = x.to(device)
                out = net(x)
                probe(out)
            probe(device)

        run(nn.Linear(3, 3).to(try_gpu()), try_gpu(), [])
    """)
    assert k["device"] & CUDA_DEVICE
    assert k["out"] & CUDA_TENSOR


def test_models_attributes_and_eval_mode():
    k = kinds("""
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 3)

        class Server:
            def __init__(self, device="cuda"):
                self.model = Net().to(device)
                self.model.eval()
            def predict(self, x):
                probe(self.model)
                return self.model(x)

        m = Net()
        m.cuda()
        probe(m)
    """)
    assert k["self.model"] & CUDA_MODEL and k["self.model"] & EVAL
    assert k["m"] & CUDA_MODEL  # Module.cuda() moves in place


def test_branches_join_and_reassignment_replaces():
    k = kinds("""
        if flag:
            x = torch.ones(3, device="cuda")
        else:
            x = torch.ones(3)
        probe(x)
        y = torch.ones(3, device="cuda")
        y = y.cpu()
        probe(y)
    """)
    assert k["x"] & CUDA_TENSOR and k["x"] & CPU_TENSOR
    assert not k["y"] & CUDA_TENSOR


def test_loops_reach_a_fixpoint_and_loaders_yield_batches():
    k = kinds("""
        from torch.utils.data import DataLoader
        loader = DataLoader(ds, batch_size=4)
        acc = 0
        for i, (xb, yb) in enumerate(loader):
            probe(xb)
            acc = acc + xb.cuda().sum()
        probe(acc); probe(loader)
    """)
    assert k["xb"] == CPU_TENSOR
    assert k["acc"] & CUDA_TENSOR
    assert k["loader"] & LOADER


def test_numpy_float64_reaches_the_gpu():
    k = kinds("""
        a = np.random.rand(3, 3)
        b = np.zeros(3, dtype=np.float32)
        t = torch.from_numpy(a).cuda()
        u = torch.from_numpy(b).cuda()
        v = torch.from_numpy(a).float().cuda()
        probe(t); probe(u); probe(v)
    """)
    assert k["t"] & F64 and k["t"] & CUDA_TENSOR
    assert not k["u"] & F64 and not k["v"] & F64


def test_default_device_makes_factories_cuda():
    k = kinds("""
        torch.set_default_device("cuda")
        z = torch.zeros(4)
        probe(z)
    """)
    assert k["z"] & CUDA_TENSOR


def test_argparse_defaults_name_the_device():
    k = kinds("""
        import argparse
        parser = argparse.ArgumentParser()
        parser.add_argument("--device", default="cuda:0")
        parser.add_argument("-w", "--num-workers", type=int, default=0)
        args = parser.parse_args()
        dev = torch.device(args.device)
        probe(dev); probe(args.num_workers)
    """)
    assert k["dev"] & CUDA_DEVICE
    assert k["args.num_workers"] == 0


def test_instances_of_the_users_classes_reach_their_methods_and_attributes():
    k = kinds("""
        class Trainer:
            def __init__(self, model, device):
                self.model = model.to(device)
            def step(self, x):
                return self.model(x)

        trainer = Trainer(nn.Linear(3, 3), "cuda")
        out = trainer.step(torch.ones(2, 3, device="cuda"))
        probe(trainer.model); probe(out)
    """)
    assert k["trainer.model"] & CUDA_MODEL
    assert k["out"] & CUDA_TENSOR
