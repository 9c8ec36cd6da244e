"""FileContext: the questions checks ask about a file, answered on small programs."""

from __future__ import annotations

import ast
import textwrap

from advisor.lint.context import FileContext
from advisor.lint.source import SourceUnit


def context(code: str) -> FileContext:
    text = textwrap.dedent(code).lstrip("\n")
    return FileContext(SourceUnit("t.py", text), ast.parse(text))


def call_named(ctx: FileContext, text: str) -> ast.Call:
    return next(c for c in ctx.index.calls if ast.unparse(c) == text)


def test_values_aliases_and_sizes():
    ctx = context("""
        import torch
        import numpy as np
        mm = torch.mm
        a = torch.ones(4, 4, device="cuda")
        b = mm(a, a)
        c = torch.zeros(3)
        N = 10 ** 5
        v = torch.tensor(np.zeros(4), device="cuda")
        d = torch.matmul(a, v)
    """)
    assert ctx.qual(call_named(ctx, "mm(a, a)").func) == "torch.mm"
    assert ctx.is_cuda(call_named(ctx, "mm(a, a)")) and not ctx.is_cuda(call_named(ctx, "torch.zeros(3)"))
    assert ctx.numel(call_named(ctx, "mm(a, a)")) == 16  # both shapes spelled out: (4, 4) @ (4, 4) is (4, 4)
    assert ctx.numel(call_named(ctx, "torch.matmul(a, v)")) == 64  # v's shape unknown: a bound, (4*4) x 4
    assert ctx.numel(call_named(ctx, "torch.ones(4, 4, device='cuda')")) == 16
    assert ctx.int_value(ast.Name(id="N", ctx=ast.Load())) == 100_000
    assert ctx.uses_cuda


def test_callees_through_defs_factories_methods_and_instances():
    ctx = context("""
        import torch
        def make_step(model):
            def step(x):
                return model(x).sum().item()
            return step
        class Meter:
            def add(self, v):
                self.total = v
            def reset(self):
                self.add(0)
        train = make_step(torch.nn.Linear(2, 2).cuda())
        train(torch.ones(1, 2, device="cuda"))
        meter = Meter()
        meter.add(1)
    """)
    step = ctx.callee(call_named(ctx, "train(torch.ones(1, 2, device='cuda'))"))
    assert step is not None and step.name == "step"
    add = ctx.callee(call_named(ctx, "meter.add(1)"))
    assert add is not None and add.name == "add"
    assert ctx.callee(call_named(ctx, "self.add(0)")) is add
    assert {ast.unparse(c) for c in ctx.call_sites(add)} == {"meter.add(1)", "self.add(0)"}
    assert ctx.callee(call_named(ctx, "Meter()")) is None  # no __init__ of its own


def test_loops_hot_counted_and_their_host_reads():
    ctx = context("""
        import torch
        model = torch.nn.Linear(8, 1).cuda()
        x = torch.randn(4, 8, device="cuda")
        for epoch in range(3):
            for step in range(1000):
                loss = model(x).sum()
                print(loss.item())
                if step % 100 == 0:
                    print(float(loss))
    """)
    outer, inner = ctx.index.loops[0], ctx.index.loops[1]
    assert ctx.loop_iterations(outer) == 3 and ctx.loop_iterations(inner) == 1000
    assert ctx.loop_is_hot(inner) and not ctx.loop_is_hot(outer)
    reads = [ast.unparse(e.node) for e in ctx.host_reads(inner)]
    assert reads == ["loss.item()"]  # the other read runs every 100th step only
    assert ctx.enclosing_loops(call_named(ctx, "loss.item()")) == [inner, outer]


def test_timed_regions_and_the_first_work():
    ctx = context("""
        import time
        import torch
        a = torch.randn(64, 64, device="cuda")
        t0 = time.perf_counter()
        b = a @ a
        print(time.perf_counter() - t0)
    """)
    (region,) = ctx.timed_regions()
    assert not region.synchronized and not ctx.region_trains(region)
    assert ast.unparse(ctx.first_compute(region)[-1].node) == "a @ a"
    assert ast.unparse(ctx.first_work(region)[-1].node) == "torch.randn(64, 64, device='cuda')"


def test_a_module_constant_of_a_few_named_settings_is_a_sweep():
    ctx = context("""
        METHODS = ("tiles_half", "tiles", "tiles_double")
        SAMPLES = [[1.0, 2.0], [3.0, 4.0]]
        def run(x):
            for method in METHODS:
                use(method, x)
            for sample in SAMPLES:
                use(sample, x)
            for sample in data:
                use(sample, x)
    """)
    by_line = {loop.lineno: ctx.is_sweep(loop) for loop in ctx.index.loops}
    assert by_line == {4: True, 6: False, 8: False}  # (rows of literal data are not settings)
