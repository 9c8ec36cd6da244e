"""Where values live, session 5 (issue 12, classes behind corpus 4's misses): written for these tests, not
copied from the corpus.

- A device the file does not spell out -- a configuration's entry (``cfg['device']``, ``config.get('device')``,
  ``run_context.device``) or ``device = helper()`` -- can be CUDA: moves to it are moves to the GPU. A literal
  or torch's own constructor of another device (``torch.device("mps")``) is not.
- A model an imported class makes (``model = Generator(cfg)``) moved on every epoch is a model move (GA105).
- ``num_workers`` a loop around the DataLoader only ever sets to 0 (``for num_workers in range(1)``) is 0.
- A forward whose inputs are keywords (``model(input_ids=..., attention_mask=...)``) is a forward.
- ``from model import model; model = model.cuda()``: an imported object named like a model, moved, is a model.
- Reading only a tensor's shape (``torch.ones_like(x)``, ``x.shape``, ``x.size()``) leaves it "just made":
  copying it afterwards is still a CPU-made tensor copied (GA104).
- A model's method handed only text (``model.translate(sentences)``) is a library's text API, not a forward.
- ``def evaluate(model, x): model.eval(); return model(x)`` in a file whose other code runs on CUDA is
  inference on the GPU (the model's device is unknown; the file's is not).
"""

from __future__ import annotations

import pytest
from lint_helpers import lines_of


def _ids(code: str, check: str) -> list[int]:
    return [line for line, found in lines_of(code, select=[check])]


_CONFIG_LOOP = """
import torch
from torch.utils.data import DataLoader
def train(cfg, model, dataset):
    device = {device}
    loader = DataLoader(dataset, batch_size=32)
    model.to(device)
    for x, y in loader:
        loss = model(x.to(device), y.to(device))
        loss.backward()
"""


@pytest.mark.parametrize("device", ["cfg['device']", "cfg.get('device', 'cuda')", "cfg.device",
                                    "pick_device(cfg)", "settings.DEVICE"])
def test_a_configured_device_can_be_cuda(device):
    assert _ids(_CONFIG_LOOP.format(device=device), "GA106") == [5]


@pytest.mark.parametrize("device", ["'cpu'", "torch.device('mps')", "'mps'"])
def test_a_device_spelled_out_as_another_is_not(device):
    assert _ids(_CONFIG_LOOP.format(device=device), "GA106") == []


def test_an_attribute_named_device_of_an_unknown_object():
    code = """
    import torch
    def step(ctx, model, batch):
        for micro in range(8):
            x = batch[micro].to(ctx.device)
            loss = model(x)
            print(loss)
            loss.backward()
    """
    assert _ids(code, "GA103") == [6]


_EPOCHS = """
import torch
from models import Generator
def train(cfg, loader):
    device = cfg['device']
    model = Generator(cfg)
    for epoch in range(10):
        {body}
        for x in loader:
            model(x.to(device)).mean().backward()
"""


def test_imported_class_model_moved_every_epoch():
    assert _ids(_EPOCHS.format(body="model.to(device).train()"), "GA105") == [7]


def test_a_new_imported_model_every_epoch_is_not_the_same_move():
    assert _ids(_EPOCHS.format(body="model = Generator(cfg).to(device)"), "GA105") == []


_WORKERS = """
import torch
from torch.utils.data import DataLoader
for num_workers in {values}:
    loader = DataLoader(data, batch_size=16, num_workers=num_workers, pin_memory=True)
    for x in loader:
        x = x.cuda(non_blocking=True)
"""


@pytest.mark.parametrize("values,fires", [("range(1)", True), ("[0]", True), ("range(4)", False),
                                          ("[2, 4, 8]", False), ("worker_counts", False)])
def test_num_workers_from_the_loop_around_the_loader(values, fires):
    assert bool(_ids(_WORKERS.format(values=values), "GA106")) is fires


_KEYWORD_FORWARD = """
import torch
def predict(model, loader, device):
    model.eval()
    out = []
    {guard}for batch in loader:
    {indent}    logits = model(input_ids=batch['ids'].to(device), attention_mask=batch['mask'].to(device))
    {indent}    out.extend(torch.sigmoid(logits).cpu().tolist())
    return out
"""


def test_forward_with_keyword_inputs_after_eval():
    assert _ids(_KEYWORD_FORWARD.format(guard="", indent=""), "GA107") == [6]


def test_forward_with_keyword_inputs_under_no_grad():
    code = _KEYWORD_FORWARD.format(guard="with torch.no_grad():\n        ", indent="    ")
    assert _ids(code, "GA107") == []


_IMPORTED_MODEL = """
import torch
from model import model
x = load_image(path).cuda()
model = model.cuda()
model.eval()
{guard}output = model(x)
print(output.argmax(1))
"""


def test_an_imported_model_object_moved_and_run_after_eval():
    assert _ids(_IMPORTED_MODEL.format(guard=""), "GA107") == [6]


def test_an_imported_model_object_run_under_inference_mode():
    code = _IMPORTED_MODEL.format(guard="with torch.inference_mode():\n    ")
    assert _ids(code, "GA107") == []


@pytest.mark.parametrize("between", ["y = torch.ones_like(x, device=device)", "n = x.shape[0]",
                                     "n = x.size(0)", "print(x.dtype)"])
def test_shape_reads_leave_a_tensor_just_made(between):
    code = f"""
    import torch
    device = torch.device("cuda")
    x = torch.rand(2, 3)
    {between}
    x = x.to(device)
    """
    assert _ids(code, "GA104") == [3]


@pytest.mark.parametrize("between", ["y = x * 2", "print(x)", "x[0] = 1.0"])
def test_value_reads_make_the_cpu_copy_needed(between):
    code = f"""
    import torch
    device = torch.device("cuda")
    x = torch.rand(2, 3)
    {between}
    x = x.to(device)
    """
    assert _ids(code, "GA104") == []


_TEXT_API = """
import torch
model = torch.hub.load("some/repo", "translator")
model.cuda()
sentences = ["a dusty road", "a green cherry"] * 8
for i in range(100):
    result = model.{call}
"""


def test_a_text_api_of_a_model_is_not_a_forward():
    assert _ids(_TEXT_API.format(call="translate(sentences, verbose=False)"), "GA107") == []
    assert _ids(_TEXT_API.format(call="encode(['one sentence', f'item {i}'])"), "GA107") == []


def test_a_model_method_fed_tensors_is_a_forward():
    assert _ids(_TEXT_API.format(call="encode(torch.randn(8, 16).cuda())"), "GA107") == [6]


_UTILS = """
import torch
def train(model, loader):
    model.to({device})
    for x in loader:
        model(x.to({device})).sum().backward()

def evaluate(model, x):
    model.eval()
    return model({x})
"""


def test_an_eval_helper_in_a_file_that_trains_on_cuda():
    assert _ids(_UTILS.format(device="'cuda'", x="x"), "GA107") == [9]


@pytest.mark.parametrize("device,x", [("'cpu'", "x"), ("'cuda'", "torch.randn(4, 8)")])
def test_an_eval_helper_on_the_cpu_or_in_a_cpu_file(device, x):
    assert _ids(_UTILS.format(device=device, x=x), "GA107") == []


# -- GA103: values the loop reads, and which loop is the loop of steps ------------------------------------------

_LOSS_PARAMETER = """
def train(model, loader, {loss}, optimizer, device):
    for x, y in loader:
        optimizer.zero_grad()
        out = model(x.to(device))
        value = {loss}(out, y.to(device))
        value.backward()
        print(value)
        optimizer.step()
"""


@pytest.mark.parametrize("loss", ["loss", "loss_fn", "criterion", "objective"])
def test_a_loss_handed_in_returns_a_cuda_tensor(loss):
    assert _ids(_LOSS_PARAMETER.format(loss=loss), "GA103") == [7]


def test_a_callable_handed_in_not_named_like_a_loss_stays_unknown():
    assert _ids(_LOSS_PARAMETER.format(loss="transform"), "GA103") == []


_DEVICE_HELPER = """
import torch
from .utils import {helper}
def step(model, batches, ctx, n):
    total = 0.0
    for micro in range(n):
        x, y = {helper}(batches, ctx.device)
        loss = model(x, labels=y).loss / n
        total += loss.item()
        loss.backward()
    return total
"""


@pytest.mark.parametrize("helper", ["get_next_xy", "get_batch", "to_device"])
def test_a_helper_handed_a_device_returns_data_on_it(helper):
    assert _ids(_DEVICE_HELPER.format(helper=helper), "GA103") == [8]


def test_a_class_handed_a_device_is_not_data():
    code = _DEVICE_HELPER.format(helper="Batcher").replace("x, y = Batcher(batches, ctx.device)",
                                                          "x, y = Batcher(batches, ctx.device)\n        x = x[0]")
    assert _ids(code, "GA103") == []


_PER_ELEMENT = """
import numpy as np
import torch
def accuracy(model, loader, device, hits):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = model(x).mean()
        loss.backward()
        pred = model(x).argmax(1)
        correct = {wrap}(pred.eq(y))
        for j in range(len(y)):
            hits[y[j]] += correct[j].item()
"""


@pytest.mark.parametrize("wrap", ["np.squeeze", ""])
def test_per_element_reads_in_the_batch_loop(wrap):
    assert _ids(_PER_ELEMENT.format(wrap=wrap), "GA103") == [11]


def test_per_element_reads_of_host_values_are_no_sync():
    code = _PER_ELEMENT.format(wrap="np.squeeze").replace("(pred.eq(y))", "(np.ones(len(weights)))")
    assert _ids(code, "GA103") == []


_COMPONENTS = """
import torch
class Simulation:
    def __init__(self):
        self.forces = []
    def setup(self, n):
        self.state = torch.zeros(n, 3, device="cuda")
        self.forces.append(Gravity(self.state))
        self.forces.append(Damping(self.state))
    def update(self):
        total = torch.zeros_like(self.state)
        for force in {forces}:
            total += force.apply()
        self.state += total * 0.01
        print(self.state[0])
sim = Simulation()
sim.setup(100)
for t in range(1000):
    sim.update()
"""


def test_a_walk_over_registered_components_is_part_of_the_step():
    assert _ids(_COMPONENTS.format(forces="self.forces"), "GA103") == [14]


def test_a_list_filled_in_a_loop_is_a_loop_of_steps():
    code = _COMPONENTS.format(forces="self.forces").replace(
        "        self.forces.append(Gravity(self.state))\n",
        "        for k in range(n):\n            self.forces.append(Gravity(self.state[k]))\n")
    assert _ids(code, "GA103") == []


def test_a_per_element_walk_does_not_make_the_batch_loop_per_epoch():
    code = _PER_ELEMENT.format(wrap="").replace("        loss.backward()\n",
                                                "        loss.backward()\n        running = loss.item()\n")
    assert _ids(code, "GA103") == [8, 12]


# -- where the guesses stop (each found by linting public repositories the corpora do not hold) -----------------

def test_a_tensors_own_device_is_not_a_guess_of_cuda():
    code = """
    import torch
    class GPT(torch.nn.Module):
        def forward(self, idx):
            device = idx.device
            pos = torch.arange(0, idx.size(1), device=device)
            x = self.wte(idx) + self.wpe(pos)
            for block in self.blocks:
                x = block(x)
            return x
    def evaluate(model, x):
        for block in model.blocks:
            x = block(x.to(x.device))
        return x
    """
    assert _ids(code, "GA107") == []


@pytest.mark.parametrize("fallback,fires", [("'cpu'", True), ("'cuda'", True)])
def test_an_environment_device_may_be_cuda_whatever_its_fallback(fallback, fires):
    # Session 5 read the fallback as the device the author meant; session 9 follows the r14/r15 labelling
    # convention instead: a device read from the environment exists to be switched to CUDA, as cfg.get("device",
    # "cpu") already was (flow/device_sources.py).
    code = f"""
    import os
    import torch
    torch_device = os.environ.get('TORCH_DEVICE', {fallback})
    x = torch.randn(10, 5).to(torch_device)
    """
    assert bool(_ids(code, "GA104")) is fires


def test_a_helper_handed_a_device_says_nothing_when_its_name_does_not():
    code = """
    import torch
    from mylib import compute_metrics
    device = torch.device("cuda")
    for epoch in range(10):
        metrics = compute_metrics("preds.txt", device)
        print(metrics)
    """
    assert _ids(code, "GA103") == []


_TEACHER = """
import torch
from timm import create_model
class Teacher(torch.nn.Module):
    def __init__(self, name, device):
        super().__init__()
        model = create_model(name, device=device)
        model.eval()
        self.model = model
    def {method}(self, x):
        return self.model(x)
"""


@pytest.mark.parametrize("method", ["forward", "_forward_features", "validation_step"])
def test_a_modules_forward_runs_in_its_callers_grad_mode(method):
    assert _ids(_TEACHER.format(method=method), "GA107") == []


def test_a_service_method_of_a_module_is_still_inference():
    assert _ids(_TEACHER.format(method="predict"), "GA107") == [10]


@pytest.mark.parametrize("decorator,fires", [("@smart_inference_mode()", False), ("@utils.no_grad()", False),
                                             ("@functools.lru_cache()", True)])
def test_a_projects_own_no_grad_wrapper(decorator, fires):
    code = f"""
    import functools
    import torch
    from utils import smart_inference_mode
    {decorator}
    def run(model, loader, device):
        model.eval()
        for im in loader:
            out = model(im.to(device))
    """
    assert bool(_ids(code, "GA107")) is fires


_PLACED_BEFORE_TIMING = """
import time
import torch
from data import get_batch
device = torch.device("cuda")
model = torch.nn.Linear(64, 64).to(device)
x = get_batch("train", device)
start = time.perf_counter()
y = model(x)
torch.cuda.synchronize()
print(time.perf_counter() - start)
"""


def test_data_placed_by_a_helper_is_no_computation_before_a_timed_forward():
    assert _ids(_PLACED_BEFORE_TIMING, "GA102") == [8]


def test_a_forward_before_the_clock_is_a_warm_up():
    code = _PLACED_BEFORE_TIMING.replace('x = get_batch("train", device)\n', 'x = get_batch("train", device)\nmodel(x)\n')
    assert _ids(code, "GA102") == []


@pytest.mark.parametrize("helper", ["create_loader", "build_dataset", "make_optimizer"])
def test_makers_of_loaders_datasets_and_optimizers_return_no_data(helper):
    code = f"""
    import torch
    from lib import {helper}
    device = torch.device("cuda")
    model = torch.nn.Linear(8, 8).to(device)
    thing = {helper}("x", device=device)
    for i in range(100):
        model(torch.randn(4, 8, device=device)).sum().backward()
        print(thing)
    """
    assert _ids(code, "GA103") == []


def test_a_batch_fetched_onto_the_device_is_data():
    code = """
    import torch
    from lib import fetch_batch
    device = torch.device("cuda")
    model = torch.nn.Linear(8, 8).to(device)
    for i in range(100):
        x = fetch_batch("x", device=device)
        model(x).sum().backward()
        print(x)
    """
    assert _ids(code, "GA103") == [8]


# -- GA107: a forward whose output is detached records a graph nobody uses --------------------------------------

_TARGET_NET = """
import torch
policy = Net().cuda()
target = Net().cuda()
opt = torch.optim.Adam(policy.parameters())
for s, a, r, s2 in replay:
    s, s2 = s.cuda(), s2.cuda()
    {line}
    loss = ((policy(s).gather(1, a) - (r + 0.99 * nxt)) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


@pytest.mark.parametrize("line", ["nxt = target(s2).max(1)[0].detach()", "nxt = target(s2).detach()",
                                  "q2 = target(s2)\n    nxt = q2.detach().max(1)[0]"])
def test_a_detached_target_in_a_training_loop(line):
    assert _ids(_TARGET_NET.format(line=line), "GA107") == [7]


@pytest.mark.parametrize("line", ["nxt = target(s2).max(1)[0]",
                                  "q2 = target(s2)\n    nxt = q2.detach().max(1)[0] + q2.mean()"])
def test_a_target_network_whose_graph_the_backward_pass_walks(line):
    """Session 11 (the session-8 convention, r18 2608, r20 3016/3017): a target network no optimizer trains, run with
    autograd on, is reported even when the loss uses its output -- backward then fills gradients nobody reads."""
    assert _ids(_TARGET_NET.format(line=line), "GA107") == [7]


def test_a_target_under_no_grad_records_nothing():
    assert _ids(_TARGET_NET.format(line="with torch.no_grad():\n        nxt = target(s2).max(1)[0]"), "GA107") == []


@pytest.mark.parametrize("made,fires", [("torch.Tensor(0.0)", False), ("torch.FloatTensor(1.5, 2.0)", False),
                                        ("torch.tensor(0.0)", False), ("torch.Tensor(3, 4)", True)])
def test_a_legacy_constructor_handed_a_float_raises_and_makes_nothing(made, fires):
    code = f"""
    import torch
    device = torch.device("cuda")
    x = {made}.to(device)
    """
    assert bool(_ids(code, "GA104")) is fires


_LAYER_BENCH = """
import torch
model_ref = torch.nn.Linear(256, 256).to("cuda")
model_ref.eval()
x = torch.randn(64, 256, device="cuda")
def ref_forward():
    return model_ref(x)
{use}
"""


def test_a_single_layer_with_weights_handed_to_a_benchmark_harness_records_a_graph():
    """Session 23: a layer with weights (nn.Linear) records a graph on every call, benchmarked or not -- the lint
    corpora's labellers counted such benchmarks (r44 9716, r52 11518-11520, r54 12320, r57 13709); an earlier
    convention had exempted every single layer. A parameter-free one (nn.Softmax) still records nothing."""
    assert _ids(_LAYER_BENCH.format(use="benchmark(ref_forward)"), "GA107") == [6]
    assert _ids(_LAYER_BENCH.replace("torch.nn.Linear(256, 256)", "torch.nn.Softmax(dim=1)").format(
        use="benchmark(ref_forward)"), "GA107") == []


def test_a_single_layer_named_a_model_and_run_for_its_output_is_inference():
    assert _ids(_LAYER_BENCH.format(use="out = ref_forward()\nprint(out)"), "GA107") == [6]


@pytest.mark.parametrize("holder,fires", [("args", True), ("hparams", True), ("run_context", True),
                                          ("trainer", True), ("state", False), ("param", False), ("x", False)])
def test_only_holders_of_settings_have_a_configured_device(holder, fires):
    code = f"""
    import torch
    def act():
        {holder} = make()
        z = torch.zeros(4).to({holder}.device)
        return z
    """
    assert bool(_ids(code, "GA104")) is fires


@pytest.mark.parametrize("holder", ["args", "state", "x"])
def test_the_device_of_a_value_the_function_is_handed_can_be_cuda(holder):
    """(Session 16: until then a handed ``x.device`` was no device; the labellers' convention says a device from
    outside the file can be CUDA.)"""
    code = f"""
    import torch
    def act({holder}):
        z = torch.zeros(4).to({holder}.device)
        return z
    """
    assert _ids(code, "GA104") == [3]
