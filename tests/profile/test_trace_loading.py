"""Loading a real trace (the H100 compiled program's, kept with --trace-out): only the event kinds the summary
reads become objects, every one of them does, frames come out in the order the stack sweep needs, and the
loader's speed-ups (a paused garbage collector, orjson when present) change nothing else."""

from __future__ import annotations

import gc
import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from advisor.profile.trace_events import MARK_PREFIX, load_trace, parse_frame_name

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "profile" / "h100" / "compiled_step_reduce_overhead"


@pytest.fixture(scope="module")
def trace_file(tmp_path_factory) -> Path:
    plain = tmp_path_factory.mktemp("trace") / "trace.json"
    with gzip.open(FIXTURE / "gpu_advisor.pt.trace.json.gz", "rb") as source:
        plain.write_bytes(source.read())
    return plain


def test_every_event_the_summary_reads_is_kept_and_nothing_else(trace_file: Path) -> None:
    events = [e for e in json.loads(trace_file.read_text())["traceEvents"] if e.get("ph") == "X" and "dur" in e]
    by_category = Counter(e.get("cat") for e in events)
    trace = load_trace(trace_file)
    assert len(trace.gpu) == by_category["kernel"] + by_category["gpu_memcpy"] + by_category["gpu_memset"] > 0
    assert len(trace.runtime) == by_category["cuda_runtime"] + by_category["cuda_driver"] > 0
    assert len(trace.cpu_ops) == by_category["cpu_op"] > 0
    assert len(trace.frames) == by_category["python_function"] > 0
    assert len(trace.marks) + len(trace.annotations) == by_category["user_annotation"]
    assert trace.marks and all(m.name.startswith(MARK_PREFIX) for m in trace.marks)
    assert not any(a.name.startswith(MARK_PREFIX) for a in trace.annotations)
    # Each frame as the one-at-a-time parse makes it, in (start, longest first) order.
    frames = sorted((parse_frame_name(e["name"], float(e["ts"]), float(e["ts"]) + float(e["dur"]), e.get("tid"))
                     for e in events if e.get("cat") == "python_function"), key=lambda f: (f.start, -f.end))
    assert [tuple(f) for f in trace.frames] == [tuple(f) for f in frames]
    assert any(f.path and f.line > 0 for f in trace.frames) and any(f.path is None for f in trace.frames)
    for spans in (trace.gpu, trace.runtime, trace.cpu_ops, trace.marks):
        assert [s.start for s in spans] == sorted(s.start for s in spans)
    assert all("correlation" in s.args for s in trace.runtime if s.name == "cudaLaunchKernel")


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was(trace_file: Path, enabled: bool) -> None:
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        load_trace(trace_file)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_a_value_only_the_standard_json_reads_still_loads(tmp_path: Path) -> None:
    """Kineto may write NaN for a value it could not compute: orjson (when installed) refuses the file, json
    reads it, and the loader falls back rather than fail."""
    path = tmp_path / "trace.json"
    path.write_text('{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1.0, "dur": 2.0, '
                    '"tid": 7, "args": {"flops": NaN}}]}')
    trace = load_trace(path)
    assert [(s.name, s.start, s.end, s.tid) for s in trace.cpu_ops] == [("aten::mm", 1.0, 3.0, 7)]
