"""Classes of timing (GA101, GA102) and launch-bound loop (GA110) cases that real scripts showed the linter
missing or misreading, each with variants that must fire and variants that must stay quiet. The programs are
written for these tests (not copies of corpus files)."""

from __future__ import annotations

import ast
import textwrap

from advisor.lint import lint_text
from advisor.lint.context import FileContext
from advisor.lint.source import SourceUnit
from tests.lint.lint_helpers import lines_of

TIMING = ["GA101", "GA102"]


def messages(code: str, check_id: str) -> list[str]:
    return [f.message for f in lint_text(textwrap.dedent(code).lstrip("\n"), select=[check_id])]


# -- Python's builtins never run a model handed to them ---------------------------------------------------
def test_printing_a_cuda_model_is_no_warm_up():
    code = """
        import time
        import torch
        from detector import Detector
        net = Detector()
        net.to("cuda")
        {before}
        x = torch.load("x.pt").cuda()
        t0 = time.time()
        y = net(x)
        torch.cuda.synchronize()
        print(time.time() - t0)
    """
    for before in ("print(net)", "print(type(net), repr(net))", "assert isinstance(net, torch.nn.Module)"):
        assert lines_of(code.format(before=before), select=["GA102"]) == [(9, "GA102")], before
    for before in ("warm_up(net, x)", "net(torch.zeros(1, 3, device='cuda'))"):  # these do run it: warm
        assert lines_of(code.format(before=before), select=["GA102"]) == [], before


# -- torch.bernoulli(p) / torch.normal(mean, std) draw where their tensors are, and compute ---------------
def test_sampling_from_a_cuda_tensor_is_cuda_computation():
    found = lines_of("""
        import time
        import torch
        probabilities = torch.rand(5000).to("cuda")
        start = time.time()
        draws = torch.bernoulli(probabilities)
        print(time.time() - start)
        start = time.time()
        noise = torch.normal(probabilities, 0.1)
        print(time.time() - start)
    """, select=TIMING)
    assert found == [(5, "GA102"), (6, "GA101"), (9, "GA101")]


def test_sampling_on_the_cpu_or_as_a_fill_is_not():
    assert lines_of("""
        import time
        import torch
        probabilities = torch.rand(5000)
        start = time.time()
        draws = torch.bernoulli(probabilities)
        print(time.time() - start)
    """, select=TIMING) == []
    assert lines_of("""
        import time
        import torch
        noise = torch.normal(0.0, 1.0, size=(64,), device="cuda")  # a fill on the GPU: a kernel ran, warm
        probabilities = torch.rand(5000, device="cuda")
        start = time.time()
        draws = torch.bernoulli(probabilities)
        torch.cuda.synchronize()
        print(time.time() - start)
    """, select=TIMING) == []
    assert lines_of("""
        import torch
        mask = torch.bernoulli(torch.full((8,), 0.5)).cuda()
    """, select=["GA104"]) == [(2, "GA104")]  # drawn on the CPU, then copied: still GA104


# -- shapes: t[i] of a 1-D tensor is one element; a 32x32 @ 32x1 product is 32 -----------------------------
def test_one_element_ops_on_elements_of_a_large_tensor_are_launch_bound():
    (message,) = messages("""
        import torch
        values = torch.arange(200_000, dtype=torch.float32, device="cuda")
        doubled = torch.empty_like(values)
        for i in range(200_000):
            doubled[i] = values[i] * 2 + 1
    """, "GA110")
    assert "at most 1 element, for 200,000 iterations" in message
    assert lines_of("""
        import torch
        probabilities = torch.rand(3000, device="cuda")
        for i in range(3000):
            torch.bernoulli(probabilities[i])
    """, select=["GA110"]) == [(4, "GA110")]


def test_parts_of_a_large_tensor_that_are_not_one_element_stay_quiet():
    assert lines_of("""
        import torch
        rows = torch.rand(100, 100_000, device="cuda")
        flat = torch.rand(1_000_000, device="cuda")
        index = torch.randint(0, 1_000_000, (50_000,), device="cuda")
        for i in range(100):
            rows[i] = rows[i] * 2          # a row of 100,000 elements
        for i in range(1000):
            flat[i:i + 50_000] += 1        # a slice: as large as the code does not say
        for i in range(1000):
            picked = flat[index] * 2       # a gather by a tensor of indices
        for i in range(1000):
            flat[:] *= 0.5                 # the whole tensor
    """, select=["GA110"]) == []


def test_products_of_small_matrices_are_sized_by_their_shapes():
    assert lines_of("""
        import torch
        W = torch.randn(32, 32, device="cuda")
        v = torch.randn(32, 1, device="cuda")
        for _ in range(1000):
            v = torch.tanh(W @ v)
    """, select=["GA110"]) == [(5, "GA110")]
    assert lines_of("""
        import torch
        W = torch.randn(1024, 1024, device="cuda")
        v = torch.randn(1024, 1, device="cuda")
        for _ in range(1000):
            v = torch.tanh(W @ v)
    """, select=["GA110"]) == []


def test_shapes_of_spelled_out_tensors():
    text = textwrap.dedent("""
        import torch
        a = torch.zeros(3, 4, device="cuda")
        b = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        c = a * 2 + torch.ones(4)
        for i in range(3):
            row = a[i]
            one = a[i, 2]
            column = a[:, 0]
        d = a.T @ torch.ones(3, 5)
        x = torch.ones(3)
        x = x * 0.5 + 1
        picked = a[torch.tensor([0, 2])]
        h = torch.ones(8, 1)
        for _ in range(10):
            h = torch.tanh(torch.ones(8, 8) @ h)  # square: h keeps its shape
        g = torch.ones(8, 1)
        g = torch.ones(16, 8) @ g  # g changes shape: no one shape
        e = torch.arange(5)
        f = torch.arange(0, 10, 3)
    """).lstrip("\n")
    ctx = FileContext(SourceUnit("t.py", text), ast.parse(text))
    shapes = ctx._sizes.shapes
    by_name = {t.id: node.value for node in ast.walk(ctx.tree) if isinstance(node, ast.Assign)
               for t in node.targets if isinstance(t, ast.Name)}
    expected = {"a": (3, 4), "b": (2, 2), "c": (3, 4), "row": (4,), "one": (), "column": (3,), "d": (4, 5),
                "picked": None, "e": (5,), "f": None}
    for name, shape in expected.items():
        assert shapes.shape(by_name[name]) == shape, name
    for name, shape in (("x", (3,)), ("h", (8, 1)), ("g", None)):  # x = x * 0.5 + 1 keeps its shape
        assert shapes.shape(ast.Name(id=name, ctx=ast.Load())) == shape, name


# -- net(x), net an instance of the user's nn.Module, runs Net.forward(x) ----------------------------------
FORWARD_TIMED = """
    import time
    import torch
    import torch.nn as nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(16, 16)

        def forward(self, x):
            t0 = time.time()
            out = self.fc(x)
            {sync}
            print("forward", time.time() - t0)
            return out

    net = {make}
    x = torch.load("x.pt").{where}()
    y = net(x)
"""


def test_a_timed_forward_of_the_users_model_class_is_seen():
    for make in ("Net().cuda()", "Net().to('cuda').eval()"):
        found = lines_of(FORWARD_TIMED.format(sync="", make=make, where="cuda"), select=TIMING)
        assert found == [(12, "GA102"), (14, "GA101")], make


def test_a_synchronized_or_cpu_forward_stays_quiet():
    synchronized = FORWARD_TIMED.format(sync="torch.cuda.synchronize()", make="Net().cuda()", where="cuda")
    assert lines_of(synchronized, select=["GA101"]) == []
    assert lines_of(FORWARD_TIMED.format(sync="", make="Net()", where="float"), select=TIMING) == []


def test_a_module_global_read_by_a_function_run_at_module_level_is_its_value_not_a_guess():
    text = textwrap.dedent("""
        import torch
        device = "cpu"
        def make(n):
            return torch.zeros(n).to(device)
        t = make(3)
        def guess(n):
            return torch.zeros(n).to(DEVICE)  # bound nowhere: by its name, a device
        u = guess(3)
    """).lstrip("\n")
    ctx = FileContext(SourceUnit("t.py", text), ast.parse(text))
    moves = [c for c in ctx.index.calls if isinstance(c.func, ast.Attribute) and c.func.attr == "to"]
    assert [ctx.is_cuda_tensor(c) for c in moves] == [False, True]


# -- what the program does with the measured time --------------------------------------------------------
COLD_LOOP = """
    import time
    import numpy as np
    import torch
    model = torch.jit.load("model.pt").cuda()
    x = torch.load("x.pt").cuda()
    times = []
    for i in range(100):
        torch.cuda.synchronize()
        start = time.perf_counter()
        model(x)
        torch.cuda.synchronize()
        elapsed = time.perf_counter() - start
        {keep}
    {report}
"""


def test_timings_that_drop_the_cold_runs_need_no_warm_up():
    for keep, report in (("if i >= 10:\n            times.append(elapsed)", "print(np.mean(times))"),
                         ("if i > 0 and elapsed < 1.0:\n            times.append(elapsed)", "print(sum(times))"),
                         ("times.append(elapsed)", "times = times[5:]"),
                         ("times.append(elapsed)", "print(np.median(times))"),
                         ("times.append(elapsed)", "print(min(times))")):
        code = COLD_LOOP.format(keep=keep, report=report)
        assert lines_of(code, select=["GA102"]) == [], (keep, report)


def test_timings_that_keep_the_cold_run_still_need_one():
    for keep, report in (("times.append(elapsed)", "print(np.mean(times))"),
                         ("if i % 10 == 0:\n            print(elapsed)", ""),  # i = 0, the cold one, is printed
                         ("if i >= 0:\n            times.append(elapsed)", "print(sum(times))"),
                         ("times.append(elapsed)", "print(np.mean(times[-10:]))"),
                         ("times.append(elapsed)", "print(np.mean(times[0:]))")):
        code = COLD_LOOP.format(keep=keep, report=report)
        assert lines_of(code, select=["GA102"]) == [(10, "GA102")], (keep, report)


def test_a_job_timed_in_minutes_is_not_a_benchmark():
    code = """
        import time
        import torch
        model = torch.jit.load("model.pt").cuda()
        batches = [torch.load(f"{{i}}.pt").cuda() for i in range(1000)]
        since = time.time()
        for batch in batches:
            out = model(batch)
        {report}
    """
    for report in ("elapsed = time.time() - since\nprint(f'done in {elapsed // 60:.0f}m {elapsed % 60:.0f}s')",
                   "elapsed = time.time() - since\nminutes, seconds = divmod(elapsed, 60)",
                   "print('hours', (time.time() - since) / 3600)"):
        assert lines_of(code.format(report=report.replace("\n", "\n        ")), select=TIMING) == [], report
    report = "elapsed = time.time() - since\n        print(f'{elapsed * 1000:.1f} ms')"
    assert lines_of(code.format(report=report), select=TIMING) == [(7, "GA102"), (8, "GA101")]


# -- a timing decorator times the body of every function it decorates -------------------------------------
DECORATED = """
    import functools
    import time
    import torch

    def timed(label):
        def decorate(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                t0 = time.perf_counter()
                result = fn(*args, **kwargs)
                print(label, time.perf_counter() - t0)
                return result
            return wrapper
        return decorate

    @timed("bench")
    def bench():
        x = torch.load("x.pt").cuda()
        {body}

    bench()
"""


def test_a_decorator_that_times_its_function_times_the_cuda_work_inside():
    found = lines_of(DECORATED.format(body="y = x @ x"), select=TIMING)
    assert found == [(11, "GA101"), (18, "GA102")]  # the clock read in the wrapper; the first CUDA call in bench
    plain = DECORATED.replace('def timed(label):\n        def decorate(fn):', 'def decorate(fn):\n        if True:')
    plain = plain.replace('@timed("bench")', "@decorate").replace("print(label,", "print(")
    assert lines_of(plain.format(body="y = x @ x"), select=TIMING) == [(11, "GA101"), (18, "GA102")]


def test_a_decorated_function_that_synchronizes_or_warms_up_is_fine():
    synchronized = DECORATED.format(body="y = x @ x\n        torch.cuda.synchronize()")
    assert lines_of(synchronized, select=["GA101"]) == []
    warm = DECORATED.replace("    bench()", "    torch.ones(1, device='cuda') @ torch.ones(1, device='cuda')\n    bench()")
    assert lines_of(warm.format(body="y = x @ x\n        torch.cuda.synchronize()"), select=TIMING) == []
    logged = DECORATED.replace("result = fn(*args, **kwargs)", "logging.info('start')")  # times no call of fn
    assert lines_of(logged.format(body="y = x @ x"), select=TIMING) == []


# -- a model's method fed only text gives text back: it waited for the GPU ---------------------------------
def test_a_model_method_fed_text_returns_host_data():
    code = """
        import time
        import torch
        model = torch.hub.load("some/repo", "translator").cuda()
        model.translate(["warm up"])
        sentences = ["a long road", "a green tree"] * 4
        t0 = time.time()
        {call}
        print(time.time() - t0)
    """
    for call in ("out = model.translate(sentences)", "out = model.translate('one sentence', beam=5)",
                 "out = model.encode(sentences, batch_size=len(sentences))"):
        assert lines_of(code.format(call=call), select=["GA101"]) == [], call
    for call in ("out = model.translate(torch.load('tokens.pt').cuda())", "out = model.forward(sentences, mask)",
                 "out = model.translate(sentences, prefix=torch.load('p.pt').cuda())"):
        assert lines_of(code.format(call=call), select=["GA101"]) == [(8, "GA101")], call


# -- counts the script runs with: command-line defaults, parameter defaults, int(1e5) ----------------------
OPTIONS = """
    import argparse
    import torch
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default={steps})
    parser.add_argument("--dim", type=int, default={dim})
    args = parser.parse_args()
    state = torch.zeros(args.dim, device="cuda")
    for _ in range(args.steps):
        state = state * 0.9 + 0.1
"""


def test_sizes_and_counts_from_command_line_defaults():
    assert lines_of(OPTIONS.format(steps=5000, dim=8), select=["GA110"]) == [(9, "GA110")]
    assert lines_of(OPTIONS.format(steps=5000, dim=10_000_000), select=["GA110"]) == []  # large: not launch-bound
    assert lines_of(OPTIONS.format(steps=5, dim=8), select=["GA110"]) == []  # a few iterations: nothing to win
    text = textwrap.dedent(OPTIONS.format(steps=5000, dim=8)).lstrip("\n")
    ctx = FileContext(SourceUnit("t.py", text), ast.parse(text))
    steps = next(n for n in ast.walk(ctx.tree) if isinstance(n, ast.Attribute) and n.attr == "steps")
    assert ctx.int_value(steps) is None  # what checks read: a value the code spells out, options named as such


def test_sizes_and_counts_from_parameter_defaults_and_int_of_a_float():
    code = """
        import torch
        def simulate(n=16, steps=int(1e5)):
            y = torch.zeros(n, device="cuda")
            for _ in range(steps):
                y += 1
        simulate({call})
    """
    assert lines_of(code.format(call=""), select=["GA110"]) == [(5, "GA110")]
    assert lines_of(code.format(call="steps=200"), select=["GA110"]) == [(5, "GA110")]
    assert lines_of(code.format(call="n=50_000_000"), select=["GA110"]) == []  # a call site passes a large size
    assert lines_of(code.format(call="**settings"), select=["GA110"]) == []  # what it passes is unknown


def test_a_parameter_made_with_nn_parameter_is_a_tensor():
    code = """
        import torch
        import torch.nn as nn
        w = nn.Parameter(torch.randn({size}, device="cuda"))
        for _ in range(1000):
            w.data -= 0.01 * w
    """
    assert lines_of(code.format(size=3), select=["GA110"]) == [(5, "GA110")]
    assert lines_of(code.format(size="4096, 4096"), select=["GA110"]) == []


# -- context managers that time their with body; start times kept in attributes --------------------------
MANAGED = """
    import time
    from contextlib import contextmanager
    import torch

    @contextmanager
    def timer(name):
        t0 = time.time()
        yield
        print(name, time.time() - t0)

    class Timer:
        def __enter__(self):
            self.start = time.perf_counter()
            return self

        def __exit__(self, *exc):
            print(time.perf_counter() - self.start)

    x = torch.load("x.pt").cuda()
    {warm}
    with {manager}:
        y = x @ x
        {sync}
"""


def test_a_timing_context_manager_times_its_with_body():
    for manager, close in (('timer("matmul")', 9), ("Timer()", 17), ("Timer() as t", 17)):
        found = lines_of(MANAGED.format(manager=manager, warm="", sync=""), select=TIMING)
        assert found == [(close, "GA101"), (22, "GA102")], manager
    held = MANAGED.format(manager="clock", warm="clock = Timer()", sync="")  # an instance made before
    assert lines_of(held, select=TIMING) == [(17, "GA101"), (22, "GA102")]


def test_a_synchronized_or_warm_with_body_is_fine():
    for manager in ('timer("matmul")', "Timer()"):
        code = MANAGED.format(manager=manager, warm="x @ x", sync="torch.cuda.synchronize()")
        assert lines_of(code, select=TIMING) == [], manager
        plain = MANAGED.replace("@contextmanager\n", "").format(manager=manager, warm="x @ x", sync="")
        if manager.startswith("timer"):  # no @contextmanager: timer() is a plain generator, not a timing
            assert lines_of(plain, select=TIMING) == []
    cpu = MANAGED.replace('x = torch.load("x.pt").cuda()', 'x = torch.load("x.pt")')
    assert lines_of(cpu.format(manager="Timer()", warm="", sync=""), select=TIMING) == []


def test_a_start_time_kept_in_an_attribute_opens_a_region():
    code = """
        import time
        import torch

        class Bench:
            def __init__(self):
                self.a = torch.randn(1024, 1024, device="cuda")

            def run(self):
                self.a @ self.a
                self.start = time.time()
                out = self.a @ self.a
                {sync}
                self.elapsed = time.time() - self.start
                if time.time() - self.start > 60:
                    print("slow")

        Bench().run()
    """
    assert lines_of(code.format(sync=""), select=TIMING) == [(13, "GA101")]
    assert lines_of(code.format(sync="torch.cuda.synchronize()"), select=TIMING) == []


# -- small-op loops people write: simulations, power iteration, walking a tensor ---------------------------
def test_a_particle_step_with_negative_and_computed_constants():
    code = """
        import math
        import torch
        dt = 0.01
        pos = torch.zeros({n}, 3, device="cuda")
        vel = torch.randn({n}, 3, device="cuda")
        for step in range(10_000):
            acc = -0.5 * pos + 2 * math.pi * dt
            vel += dt * acc
            pos += dt * vel
    """
    assert lines_of(code.format(n=10), select=["GA110"]) == [(7, "GA110")]
    assert lines_of(code.format(n=1_000_000), select=["GA110"]) == []


def test_power_iteration_keeps_its_vector_shape():
    code = """
        import torch
        A = torch.rand({n}, {n}, device="cuda")
        v = torch.rand({n}, device="cuda")
        for it in range(500):
            v = A @ v
            v = v / torch.norm(v)
    """
    assert lines_of(code.format(n=64), select=["GA110"]) == [(5, "GA110")]
    assert lines_of(code.format(n=4096), select=["GA110"]) == []  # a 4096x4096 matvec is real work
    by_rows = code.format(n=64).replace("v = v / torch.norm(v)", "v = v / v.norm(dim=0)")
    assert lines_of(by_rows, select=["GA110"]) == []  # a reduction along a dimension: shape not worked out


def test_walking_a_tensor_element_by_element():
    code = """
        import torch
        t = torch.arange({shape}, device="cuda", dtype=torch.float32){view}
        total = torch.zeros(1, device="cuda")
        for v in t:
            total += v * v
    """
    assert lines_of(code.format(shape=1000, view=""), select=["GA110"]) == [(5, "GA110")]
    rows = code.format(shape="10_000_000", view=".reshape(100, 100_000)")
    assert lines_of(rows, select=["GA110"]) == []  # reshape: shape unknown, and rows of 100,000 anyway
    big_rows = code.replace("torch.arange({shape}, device=\"cuda\", dtype=torch.float32){view}",
                            "torch.rand(100, 100_000, device=\"cuda\")")
    assert lines_of(big_rows, select=["GA110"]) == []


# -- where findings point, and what they call the first computation ---------------------------------------
def test_multi_line_statements_are_reported_at_the_offending_call():
    code = """
        import time
        import torch
        x = torch.load("x.pt").cuda()
        start = time.time()
        y = torch.matmul(
            x,
            x.t().relu())
        print("took",
              time.time() - start)
        b = torch.ones(4, device="cuda")
        for _ in range(100000):
            b = (b
                 + 1)
    """
    found = lint_text(textwrap.dedent(code).lstrip("\n"), select=["GA101", "GA102", "GA110"])
    assert [(f.line, f.check_id) for f in found] == [(7, "GA102"), (9, "GA101"), (12, "GA110")]
    first = next(f for f in found if f.check_id == "GA102")
    assert "first CUDA computation, x.t().relu() (line 7)" in first.message  # x.t() is a view: no kernel


def test_views_launch_nothing():
    code = """
        import time
        import torch
        x = torch.load("x.pt").cuda()
        start = time.time()
        y = x.unsqueeze(0).transpose(0, 1).detach()
        print(time.time() - start)
    """
    assert lines_of(code, select=TIMING) == []
    assert lines_of(code.replace(".detach()", ".detach() * 2"), select=TIMING) == [(5, "GA102"), (6, "GA101")]


def test_a_hand_written_tiny_network_with_functional_ops():
    code = """
        import torch
        import torch.nn.functional as F
        x = torch.randn({batch}, 2, device="cuda")
        y = (x.sum(dim=1, keepdim=True) > 0).float()
        W1 = torch.randn(2, {hidden}, device="cuda", requires_grad=True)
        b1 = torch.zeros({hidden}, device="cuda", requires_grad=True)
        W2 = torch.randn({hidden}, 1, device="cuda", requires_grad=True)
        for step in range(2000):
            h = F.relu(x @ W1 + b1)
            out = torch.sigmoid(h @ W2)
            loss = F.binary_cross_entropy(out, y)
            loss.backward()
            with torch.no_grad():
                for p in (W1, b1, W2):
                    p -= 0.1 * p.grad
                    p.grad.zero_()
    """
    assert lines_of(code.format(batch=64, hidden=16), select=["GA110"]) == [(9, "GA110")]
    assert lines_of(code.format(batch=4096, hidden=1024), select=["GA110"]) == []
    convolved = code.format(batch=64, hidden=16).replace("F.relu(x @ W1 + b1)", "F.conv1d(x, W1)")
    assert lines_of(convolved, select=["GA110"]) == []  # not an elementwise op or a product: not known small


def test_element_by_element_stores_into_a_cuda_tensor_are_launches():
    code = """
        import torch
        N = 100_000
        out = torch.zeros({size}, device="cuda")
        hist = torch.zeros(10, device="cuda")
        for i in range(N):
            out[{index}] = i * 2
        for i in range(N):
            hist[i % 10] += 1
    """
    assert lines_of(code.format(size="N", index="i"), select=["GA110"]) == [(6, "GA110"), (8, "GA110")]
    (message, _) = messages(code.format(size="N", index="i"), "GA110")
    assert "1 small CUDA op per iteration (out[i] = i * 2) on a tensor of at most 1 element" in message
    quiet = code.format(size="N, 100_000", index="i").replace("hist[i % 10] += 1", "pass")
    assert lines_of(quiet, select=["GA110"]) == []  # a row of 100,000 elements per store
    on_cpu = code.format(size="N", index="i").replace(', device="cuda"', "")
    assert lines_of(on_cpu, select=["GA110"]) == []
