"""The pure pieces of the trace analysis: interval arithmetic, step windows, source-line attribution."""

from __future__ import annotations

from pathlib import Path

from advisor.profile.attribution import UserCall, resolve_line
from advisor.profile.trace_events import Span, Trace, enclosing_stacks, gaps, gpu_kind, step_windows, union_length


def test_union_and_gaps_clip_to_the_window() -> None:
    intervals = [(0.0, 10.0), (5.0, 20.0), (30.0, 40.0)]
    assert union_length(intervals, 0.0, 35.0) == 25.0
    assert gaps(intervals, 0.0, 50.0) == [(20.0, 30.0), (40.0, 50.0)]
    assert gaps([], 1.0, 2.0) == [(1.0, 2.0)]


def test_step_windows_pair_begin_and_end_marks() -> None:
    trace = Trace(marks=[Span("gpu_advisor::begin", 0, 0), Span("gpu_advisor::end", 10, 10),
                         Span("gpu_advisor::begin", 10, 10), Span("gpu_advisor::drain", 15, 19),
                         Span("gpu_advisor::end", 20, 20), Span("gpu_advisor::begin", 20, 20)])
    assert step_windows(trace) == [(0, 10), (10, 20)]  # the last begin never ended: not a step


def test_copy_kinds_come_from_the_activity_name() -> None:
    assert gpu_kind(Span("Memcpy HtoD (Pageable -> Device)", 0, 1)) == "h2d"
    assert gpu_kind(Span("Memcpy DtoH (Device -> Pinned)", 0, 1)) == "d2h"
    assert gpu_kind(Span("Memset (Device)", 0, 1)) == "memset"
    assert gpu_kind(Span("void at::native::vectorized_elementwise_kernel<4>", 0, 1)) == "kernel"


def test_enclosing_stacks_follow_nesting_per_thread() -> None:
    outer, inner, other = Span("outer", 0, 100, 1), Span("inner", 10, 20, 1), Span("other", 0, 100, 2)
    stacks = enclosing_stacks([outer, inner, other], [(1, 15), (1, 50), (2, 5), (3, 5)])
    assert [[s.name for s in stack] for stack in stacks] == [["outer", "inner"], ["outer"], ["other"], []]


def test_a_call_is_found_in_the_function_source(tmp_path: Path) -> None:
    source = tmp_path / "train.py"
    source.write_text("def step(model, x):\n    y = model(x)\n    loss = y.sum()\n    print(loss.item())\n"
                      "    return loss\n\n\ndef other():\n    return 1\n")
    path = str(source)
    assert resolve_line(UserCall(path, 1, "step", "item"), {}) == 4
    # A module call has no name in the source: the line where the host spent most time in that function wins,
    # never a line of another function.
    hot = {(path, 2): 5.0, (path, 9): 50.0}
    assert resolve_line(UserCall(path, 1, "step", "__call__"), hot) == 2
    assert resolve_line(UserCall(path, 1, "step", "__call__"), {}) == 1  # nothing better: the def line


def test_program_forms_are_parsed(tmp_path: Path) -> None:
    import sys

    import pytest

    from advisor.profile.runner import ProgramNotFound, parse_target

    script = tmp_path / "train.py"
    script.write_text("pass\n")
    plain = parse_target([str(script), "--lr", "3e-4"])
    assert (plain.kind, plain.name, plain.args, plain.interpreter) == ("path", str(script), ["--lr", "3e-4"], sys.executable)
    with_python = parse_target([sys.executable, str(script)])
    assert with_python.kind == "path" and with_python.interpreter == sys.executable
    module = parse_target(["-m", "pkg.train", "--epochs", "1"])
    assert (module.kind, module.name, module.args) == ("module", "pkg.train", ["--epochs", "1"])
    for bad in ([], [str(tmp_path / "missing.py")], ["-m"]):
        with pytest.raises(ProgramNotFound):
            parse_target(bad)
