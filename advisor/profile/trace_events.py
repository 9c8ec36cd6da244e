"""A torch.profiler Chrome trace, parsed once into the few event kinds the analysis reads.

Times are microseconds on the trace's clock (kineto aligns GPU activity to the host's). Only complete events
(``ph == "X"``) matter; the GPU's (kernels, copies, memsets) are joined to the host's runtime call that issued
them by the ``correlation`` id.
"""

from __future__ import annotations

import gc
import json
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import Any, Iterator, NamedTuple, Optional

MARK_PREFIX = "gpu_advisor::"
SYNC_CALLS = frozenset({"cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaMemcpy",
                        "cuStreamSynchronize", "cuCtxSynchronize"})
# Not cudaStreamWaitEvent: it makes a stream wait on the GPU (DDP orders its NCCL stream so, every bucket); the host
# goes on at once.
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


class PyFrame(NamedTuple):
    """One Python call in the trace: ``path(line): function`` (line = where the function starts) or a builtin.
    A named tuple, not a dataclass: a trace with Python stacks holds hundreds of thousands of them (90% of the
    events of a compiled CPU program's trace), and a tuple is built in one C call."""

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
    return PyFrame(start, end, tid, *_frame_parts(name))


def _frame_parts(name: str) -> tuple[Optional[str], int, str]:
    match = _PY_FRAME.match(name)
    if match:
        return match["path"], int(match["line"]), match["func"]
    builtin = _PY_BUILTIN.match(name)
    return None, 0, builtin["name"] if builtin else name


#: The event categories the summary reads, and where each goes (python_function and user_annotation apart).
_SPAN_LISTS = {"kernel": "gpu", "gpu_memcpy": "gpu", "gpu_memset": "gpu", "cuda_runtime": "runtime",
               "cuda_driver": "runtime", "cpu_op": "cpu_ops"}


def parse_trace(data: dict[str, Any]) -> Trace:
    """The events the summary reads, as Spans and PyFrames; every other event is passed over before anything is
    built for it. Frame names repeat (the same functions called every step): each is parsed once."""
    trace = Trace(device_properties=list(data.get("deviceProperties") or []))
    lists = {category: getattr(trace, name) for category, name in _SPAN_LISTS.items()}
    new_tuple = tuple.__new__  # PyFrame._make without its length check: the tuple is made right here
    add_frame = trace.frames.append
    frame_parts: dict[str, tuple[Optional[str], int, str]] = {}
    for event in data.get("traceEvents", ()):
        if event.get("ph") != "X":
            continue
        duration = event.get("dur")
        if duration is None:
            continue
        category = event.get("cat", "")
        if category == "python_function":
            name = event.get("name", "")
            parts = frame_parts.get(name)
            if parts is None:
                parts = frame_parts[name] = _frame_parts(str(name))
            start = float(event["ts"])
            add_frame(new_tuple(PyFrame, (start, start + float(duration), event.get("tid"), *parts)))
            continue
        if category == "user_annotation":
            spans = None
        else:
            spans = lists.get(category)
            if spans is None:
                continue
        start = float(event["ts"])
        name = str(event.get("name", ""))
        span = Span(name, start, start + float(duration), event.get("tid"), event.get("args") or {})
        if spans is None:
            spans = trace.marks if name.startswith(MARK_PREFIX) else trace.annotations
        spans.append(span)
    for spans in (trace.gpu, trace.runtime, trace.cpu_ops, trace.annotations, trace.marks):
        spans.sort(key=lambda s: s.start)
    # By start, the enclosing frame (the longer) first: two stable sorts on C-level keys, not one on a tuple
    # built by a lambda for each of several hundred thousand frames.
    trace.frames.sort(key=itemgetter(1), reverse=True)
    trace.frames.sort(key=itemgetter(0))
    return trace


def load_trace(path: Path) -> Trace:
    """The trace file, parsed. The cyclic garbage collector waits meanwhile: decoding and parsing build millions
    of containers (a dict per event, a tuple per frame), none of them in a cycle, and every collection their
    allocations set off walks all of those made so far again (on a 108 MB trace about half of the load time)."""
    with open(path, "rb") as handle:
        text = handle.read()
    with _collector_paused():
        return parse_trace(_decode(text))


def _decode(text: bytes) -> Any:
    """orjson when the environment has it (several times faster on a trace of 100 MB), else the standard json;
    what orjson refuses (``NaN``, which json reads) goes to json, so the result never depends on which one ran."""
    try:
        import orjson  # an optional speed-up, never a dependency
    except ImportError:
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


@contextmanager
def _collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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
    # By start, the enclosing item first: two stable sorts on C-level keys (cheap on frames already in that
    # order), not a tuple built by a lambda for each of several hundred thousand frames, on every call.
    ordered = sorted(items, key=attrgetter("end"), reverse=True)
    ordered.sort(key=attrgetter("start"))
    for item in ordered:
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
