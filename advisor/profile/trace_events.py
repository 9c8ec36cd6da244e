"""A torch.profiler Chrome trace, parsed once into the few event kinds the analysis reads.

Times are microseconds on the trace's clock (kineto aligns GPU activity to the host's). Only complete events
(``ph == "X"``) matter; the GPU's (kernels, copies, memsets) are joined to the host's runtime call that issued
them by the ``correlation`` id.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

MARK_PREFIX = "gpu_advisor::"
SYNC_CALLS = frozenset({"cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaMemcpy",
                        "cuStreamSynchronize", "cuCtxSynchronize", "cudaStreamWaitEvent"})
LAUNCH_CALLS = frozenset({"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
                          "cudaLaunchCooperativeKernel"})
GRAPH_LAUNCH_CALLS = frozenset({"cudaGraphLaunch", "cuGraphLaunch"})
_PY_FRAME = re.compile(r"^(?P<path>.+?)\((?P<line>\d+)\): (?P<func>.+)$")
_PY_BUILTIN = re.compile(r"^<built-in (?:method|function) (?P<name>[\w.]+)")


@dataclass(frozen=True)
class Span:
    name: str
    start: float
    end: float
    tid: Any = None
    args: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def dur(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class PyFrame:
    """One Python call in the trace: ``path(line): function`` (line = where the function starts) or a builtin."""

    start: float
    end: float
    tid: Any
    path: Optional[str]
    line: int
    function: str


@dataclass
class Trace:
    gpu: list[Span] = field(default_factory=list)  # kernels, memcpy, memset
    runtime: list[Span] = field(default_factory=list)  # cuda_runtime / cuda_driver calls
    cpu_ops: list[Span] = field(default_factory=list)
    annotations: list[Span] = field(default_factory=list)
    frames: list[PyFrame] = field(default_factory=list)
    marks: list[Span] = field(default_factory=list)
    device_properties: list[dict[str, Any]] = field(default_factory=list)

    def runtime_by_correlation(self) -> dict[Any, Span]:
        return {span.args.get("correlation"): span for span in self.runtime if "correlation" in span.args}


def parse_frame_name(name: str, start: float, end: float, tid: Any) -> PyFrame:
    match = _PY_FRAME.match(name)
    if match:
        return PyFrame(start, end, tid, match["path"], int(match["line"]), match["func"])
    builtin = _PY_BUILTIN.match(name)
    return PyFrame(start, end, tid, None, 0, builtin["name"] if builtin else name)


def parse_trace(data: dict[str, Any]) -> Trace:
    trace = Trace(device_properties=list(data.get("deviceProperties") or []))
    for event in data.get("traceEvents", []):
        if event.get("ph") != "X" or "dur" not in event:
            continue
        category = event.get("cat", "")
        start = float(event["ts"])
        end = start + float(event["dur"])
        name = str(event.get("name", ""))
        tid = event.get("tid")
        if category == "python_function":
            trace.frames.append(parse_frame_name(name, start, end, tid))
            continue
        span = Span(name, start, end, tid, event.get("args") or {})
        if category in ("kernel", "gpu_memcpy", "gpu_memset"):
            trace.gpu.append(span)
        elif category in ("cuda_runtime", "cuda_driver"):
            trace.runtime.append(span)
        elif category == "cpu_op":
            trace.cpu_ops.append(span)
        elif category == "user_annotation":
            (trace.marks if name.startswith(MARK_PREFIX) else trace.annotations).append(span)
    for spans in (trace.gpu, trace.runtime, trace.cpu_ops, trace.annotations, trace.marks):
        spans.sort(key=lambda s: s.start)
    trace.frames.sort(key=lambda f: (f.start, -f.end))
    return trace


def load_trace(path: Path) -> Trace:
    with open(path, encoding="utf-8") as handle:
        return parse_trace(json.load(handle))


def step_windows(trace: Trace) -> list[tuple[float, float]]:
    """(start, end) of each recorded step: a ``begin`` mark up to the next ``end`` mark before another begin."""
    windows = []
    pending: Optional[float] = None
    for mark in trace.marks:
        kind = mark.name[len(MARK_PREFIX):]
        if kind == "begin":
            pending = mark.start
        elif kind == "end" and pending is not None:
            windows.append((pending, mark.start))
            pending = None
    return windows


def gpu_kind(span: Span) -> str:
    """kernel / h2d / d2h / d2d / memset, from the activity's name (``Memcpy HtoD (Pageable -> Device)``)."""
    name = span.name
    if name.startswith("Memcpy"):
        for token, kind in (("HtoD", "h2d"), ("DtoH", "d2h"), ("DtoD", "d2d"), ("HtoH", "h2h")):
            if token in name:
                return kind
        return "copy"
    if name.startswith("Memset"):
        return "memset"
    return "kernel"


def union_length(intervals: list[tuple[float, float]], lo: float, hi: float) -> float:
    """Total length covered by the intervals, clipped to [lo, hi]."""
    total = 0.0
    current_start: Optional[float] = None
    current_end = lo
    for start, end in sorted(intervals):
        start, end = max(start, lo), min(end, hi)
        if end <= start:
            continue
        if current_start is None or start > current_end:
            if current_start is not None:
                total += current_end - current_start
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_start is not None:
        total += current_end - current_start
    return total


def gaps(intervals: list[tuple[float, float]], lo: float, hi: float) -> list[tuple[float, float]]:
    """The parts of [lo, hi] no interval covers."""
    result = []
    cursor = lo
    for start, end in sorted(intervals):
        if end <= cursor:
            continue
        if start > cursor:
            result.append((cursor, min(start, hi)))
        cursor = max(cursor, end)
        if cursor >= hi:
            break
    if cursor < hi:
        result.append((cursor, hi))
    return [(a, b) for a, b in result if b > a]


def enclosing_stacks(items: list[Any], queries: list[tuple[Any, float]]) -> list[list[Any]]:
    """For each (tid, time): the items (anything with start, end, tid; nested per thread) open at that time,
    outermost first. One sweep per thread with a stack, not a search per query."""
    by_tid: dict[Any, list[Any]] = {}
    for item in sorted(items, key=lambda i: (i.start, -i.end)):
        by_tid.setdefault(item.tid, []).append(item)
    results: list[list[Any]] = [[] for _ in queries]
    order = sorted(range(len(queries)), key=lambda i: (str(queries[i][0]), queries[i][1]))
    current_tid: Any = object()
    thread_items: list[Any] = []
    position = 0
    stack: list[Any] = []
    for query_index in order:
        tid, time = queries[query_index]
        if tid != current_tid:
            current_tid, thread_items, position, stack = tid, by_tid.get(tid, []), 0, []
        while position < len(thread_items) and thread_items[position].start <= time:
            item = thread_items[position]
            while stack and stack[-1].end < item.start:
                stack.pop()
            stack.append(item)
            position += 1
        while stack and stack[-1].end < time:
            stack.pop()
        results[query_index] = list(stack)
    return results
