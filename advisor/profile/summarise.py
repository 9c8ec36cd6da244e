"""A recorded trace (plus what the bootstrap noted) -> ProfileFacts: per-step costs and the user's lines.

Per step: wall time, GPU busy (union of kernels, copies and memsets), GPU idle split into its causes, kernel
count and short kernels, copies by direction and host memory kind, syncs, data-loader waits. Over the window:
top operators by CPU and GPU time, matmul/conv dtypes, peak memory, compute left on the CPU. Costs are ms per
step; fractions are of the median step.
"""

from __future__ import annotations

import statistics
from typing import Any, Optional

from advisor.models.common import missing
from advisor.models.profile import (
    CopyStats,
    DataStats,
    IdleSplit,
    ProfileFacts,
    ProgramRun,
    StepTime,
    SyncStats,
)
from advisor.profile.attribution import FrameIndex, UserFiles, parse_site_key
from advisor.profile.collectives import collective_stats
from advisor.profile.kernel_stats import COMPILED_REGIONS, compiled_regions, kernel_stats
from advisor.profile.op_stats import cpu_work, matmul_stats, memory_stats, top_cpu_ops, top_gpu_ops
from advisor.profile.sites import Sites
from advisor.profile.trace_events import (
    SYNC_CALLS,
    Span,
    Trace,
    enclosing_stacks,
    gaps,
    gpu_kind,
    step_windows,
    union_length,
)

#: The profiler's own cost above this makes the breakdown untrustworthy: conclusions are refused.
OVERHEAD_LIMIT = 0.25


def _median(values: list[float]) -> Optional[float]:
    return statistics.median(values) if values else None


def summarise(trace: Trace, window: dict[str, Any], run: ProgramRun, user_roots: list[str], *,
              overhead_limit: float = OVERHEAD_LIMIT) -> ProfileFacts:
    cuda = bool(window.get("cuda_available"))
    device = window.get("device") or {}
    capability = device.get("capability")
    major = float(capability) if capability else None
    facts = ProfileFacts(
        run=run, mode=window.get("mode") or "steps", cuda_available=cuda, device_name=device.get("name"),
        compute_capability=capability, tensor_cores=None if major is None else major >= 7.0,
        tf32_capable=None if major is None else major >= 8.0, torch_version=window.get("torch_version", ""),
        torch_cuda_version=window.get("torch_cuda_version"))
    windows = step_windows(trace)
    if not windows:
        facts.notes.append("the trace holds no complete step: nothing to analyse")
        facts.conclusive = False
        return facts
    steps = len(windows)
    facts.steps_recorded = steps
    lo, hi = windows[0][0], windows[-1][1]
    # The window runs from a drained GPU to a drained GPU: its length over the steps is the real step time
    # even when the host runs ahead of the GPU (individual host-side steps are in ``steps``).
    step_ms = (hi - lo) / 1e3 / steps
    facts.step_ms = round(step_ms, 3)
    _overhead(facts, window, overhead_limit)

    files = UserFiles(user_roots)
    interval = float(window.get("sample_interval_s") or 0.002)
    hot_lines: dict[tuple[str, int], float] = {}
    for key, count in (window.get("host_samples") or {}).items():
        path, line, _ = parse_site_key(key)
        hot_lines[(path, line)] = hot_lines.get((path, line), 0.0) + count * interval * 1e3
    module_lines: dict[tuple[str, int], float] = {}
    for key, count in (window.get("module_sites") or {}).items():
        path, line, _ = parse_site_key(key)
        module_lines[(path, line)] = float(count)
    sites = Sites(files, hot_lines, steps, module_lines)
    for (path, line), ms in hot_lines.items():
        sites.add("host-time", (f"{files.display(path)}:{line}", ""), ms, 0.0)
    frames = FrameIndex(trace.frames, files)

    in_window = [s for s in trace.gpu if lo <= s.start <= hi]
    runtime = [s for s in trace.runtime if lo <= s.start <= hi]
    correlated = trace.runtime_by_correlation()
    cpu_ops = [s for s in trace.cpu_ops if lo <= s.start <= hi]
    data_spans = [s for s in trace.annotations if s.name.startswith("enumerate(DataLoader)") and lo <= s.start <= hi]
    drains = [(m.start, m.end) for m in trace.marks if m.name.endswith("::drain")]
    syncs = [s for s in runtime if s.name in SYNC_CALLS and not any(a <= s.start <= b for a, b in drains)]

    facts.steps = _per_step(windows, in_window, syncs, data_spans)
    idle = IdleSplit()
    if cuda:
        _busy(facts, in_window, lo, hi)
        idle = _idle_split(windows, in_window, syncs, data_spans, facts.steps)
    else:
        facts.gpu_busy_fraction = missing("no GPU: torch has no CUDA device here, so only CPU activities were recorded")
        facts.notes.append("No GPU: CUDA is not available to this program, so only CPU activities were recorded.")
    facts.idle = idle
    facts.idle_launch_fraction = round(idle.launch_bound_ms / step_ms, 4) if step_ms else 0.0
    facts.idle_sync_fraction = round(idle.host_sync_ms / step_ms, 4) if step_ms else 0.0

    # Which user line issued each runtime call (launch, copy, sync): one sweep over the Python frames.
    calls = frames.user_calls([(span.tid, span.start) for span in runtime])
    call_of = {id(span): call for span, call in zip(runtime, calls, strict=True)}
    regions = [s for s in trace.cpu_ops + trace.annotations if lo <= s.start <= hi and s.name.startswith(COMPILED_REGIONS)]
    compiled_calls: set[int] = set()
    if regions:
        inside = enclosing_stacks(regions, [(span.tid, span.start) for span in runtime])
        compiled_calls = {id(span) for span, stack in zip(runtime, inside, strict=True) if stack}
    facts.kernels, facts.compiled = kernel_stats(in_window, correlated, call_of, sites, steps, compiled_calls)
    compiled_regions(facts.compiled, regions, runtime, frames, sites, steps)
    facts.copies = _copies(in_window, correlated, call_of, sites, steps)
    facts.sync = _syncs(syncs, call_of, sites, window, files, steps, step_ms, idle)
    facts.data = _data(data_spans, window, files, steps, step_ms, sites)
    op_stacks = enclosing_stacks(cpu_ops, [(correlated[k.args.get("correlation")].tid,
                                            correlated[k.args.get("correlation")].start)
                                           if k.args.get("correlation") in correlated else (None, k.start)
                                           for k in in_window])
    facts.top_gpu_ops = top_gpu_ops(in_window, op_stacks, steps, idle, step_ms)
    facts.top_cpu_ops = top_cpu_ops(cpu_ops, steps, step_ms)
    facts.matmul = matmul_stats(cpu_ops, in_window, op_stacks, window, steps, step_ms, frames, sites)
    facts.memory = memory_stats(window)
    if cuda:
        facts.cpu_work = cpu_work(cpu_ops, runtime, data_spans, frames, sites, steps, step_ms)
    facts.collectives = collective_stats(trace, windows, step_ms)
    _floors(facts)
    facts.host_site = sites.top("host-time")[0]
    facts.sites = sites.rows()
    _notes(facts)
    return facts


def _busy(facts: ProfileFacts, gpu: list[Span], lo: float, hi: float) -> None:
    """GPU busy over the whole window (its steps and the moments between them, where the profiler steps), and
    between its first and last GPU work: the window starts and ends on a GPU gpu-advisor drained itself, so
    the lead-in before the program's first kernel and the wait for the final drain are ours, not the program's."""
    if hi <= lo:
        facts.gpu_busy_fraction = missing("zero-length steps")
        return
    intervals = [(s.start, s.end) for s in gpu]
    facts.gpu_busy_fraction = round(min(union_length(intervals, lo, hi) / (hi - lo), 1.0), 4)
    if not intervals:
        facts.gpu_busy_steady_fraction = missing("no GPU work in the window")
        return
    first, last = max(min(a for a, _ in intervals), lo), min(max(b for _, b in intervals), hi)
    facts.gpu_busy_steady_fraction = (round(min(union_length(intervals, first, last) / (last - first), 1.0), 4)
                                      if last > first else facts.gpu_busy_fraction)


def _floors(facts: ProfileFacts) -> None:
    """Each timing cost as a share of an unprofiled step, with everything the profiler added taken out of it:
    a conclusion that still holds on its floor holds whatever the overhead distorted."""
    overhead, baseline = facts.overhead_ms_per_step, facts.baseline_step_ms
    if not isinstance(overhead, float) or not isinstance(baseline, float) or baseline <= 0:
        facts.idle_launch_floor_fraction = facts.idle_launch_fraction
        facts.sync.floor_fraction = facts.sync.step_fraction
        facts.data.floor_fraction = facts.data.step_fraction
        return

    def floor(cost_ms: float) -> float:
        return round(max(cost_ms - overhead, 0.0) / baseline, 4)

    facts.idle_launch_floor_fraction = floor(facts.idle.launch_bound_ms)
    facts.sync.floor_fraction = floor(facts.sync.cost_ms_per_step)
    facts.data.floor_fraction = floor(facts.data.wait_ms_per_step)


def _overhead(facts: ProfileFacts, window: dict[str, Any], limit: float) -> None:
    baseline = window.get("baseline_step_s")
    recorded = window.get("recorded_step_s")
    if facts.mode == "wall":
        facts.overhead_fraction = missing("a wall-clock window has no steps to time without the profiler")
        return
    if not baseline or not recorded:
        facts.overhead_fraction = missing("no unprofiled steps were timed before the window")
        return
    recorded, baseline = _typical_steps(facts, window, recorded, baseline)
    facts.baseline_step_ms = round(baseline * 1e3, 3)
    overhead = recorded / baseline - 1.0
    facts.overhead_ms_per_step = round(max(recorded - baseline, 0.0) * 1e3, 3)
    facts.overhead_fraction = round(overhead, 4)
    facts.conclusive = overhead <= limit
    if not facts.conclusive:
        facts.notes.append(f"Profiling slowed the steps by {overhead:.0%} (over {limit:.0%}): the breakdown is "
                           "distorted; only conclusions that hold with all the added time taken out are drawn.")


#: A recorded step this many times the window's median step is a one-time stall, not the profiler's steady cost.
STALL_RATIO = 4.0


def _typical_steps(facts: ProfileFacts, window: dict[str, Any], recorded: float, baseline: float) -> tuple[float, float]:
    """Window and baseline step times to compare: their means, unless one recorded step stalled (a library or the
    GPU's tracing loaded on first use, the machine's first run): then the medians of both, whose boundaries are
    timed alike, so one stall of seconds does not read as the profiler slowing every step by thousands of %."""
    timed = [t for t in window.get("recorded_step_times_s") or [] if t > 0]
    before = [t for t in window.get("baseline_step_times_s") or [] if t > 0]
    if len(timed) < 3 or len(before) < 2:
        return recorded, baseline
    typical, usual = statistics.median(timed), statistics.median(before)
    slowest = max(timed)
    if slowest < STALL_RATIO * typical or typical / usual >= recorded / baseline:
        return recorded, baseline
    facts.notes.append(f"One recorded step took {slowest * 1e3:.0f} ms against a median {typical * 1e3:.1f} ms: a "
                       "one-time stall, not the profiler's cost per step; the overhead compares the median steps "
                       f"({typical * 1e3:.2f} ms profiled, {usual * 1e3:.2f} ms unprofiled), and that step still "
                       "counts in the breakdown.")
    return typical, usual


def _per_step(windows, gpu: list[Span], syncs: list[Span], data: list[Span]) -> list[StepTime]:
    rows = []
    intervals = [(s.start, s.end) for s in gpu]
    for index, (start, end) in enumerate(windows):
        rows.append(StepTime(
            index=index, wall_ms=round((end - start) / 1e3, 3),
            gpu_busy_ms=round(union_length(intervals, start, end) / 1e3, 3) if gpu else None,
            sync_ms=round(sum(s.dur for s in syncs if start <= s.start < end) / 1e3, 3),
            data_ms=round(sum(s.dur for s in data if start <= s.start < end) / 1e3, 3),
            kernels=sum(1 for s in gpu if start <= s.start < end and gpu_kind(s) == "kernel")))
    return rows


def _idle_split(windows, gpu: list[Span], syncs: list[Span], data: list[Span],
                steps: Optional[list[StepTime]] = None) -> IdleSplit:
    """Each GPU-idle gap: the part the host spent in a DataLoader is data wait; a gap a sync ended in is
    the sync's (the GPU drained while the host waited, then sat idle until the host queued work again);
    the rest is the host not launching fast enough."""
    total = launch = sync = data_ms = 0.0
    intervals = [(s.start, s.end) for s in gpu]
    data_intervals = [(s.start, s.end) for s in data]
    sync_ends = sorted(s.end for s in syncs)
    for index, (start, end) in enumerate(windows):
        step_launch = step_sync = step_data = 0.0
        for gap_start, gap_end in gaps(intervals, start, end):
            waiting = union_length(data_intervals, gap_start, gap_end)
            rest = gap_end - gap_start - waiting
            step_data += waiting
            if _between(sync_ends, gap_start - 5.0, gap_end):
                step_sync += rest
            else:
                step_launch += rest
        if steps is not None:
            steps[index].idle_launch_ms = round(step_launch / 1e3, 3)
            steps[index].idle_sync_ms = round(step_sync / 1e3, 3)
            steps[index].idle_data_ms = round(step_data / 1e3, 3)
        launch += step_launch
        sync += step_sync
        data_ms += step_data
        total += step_launch + step_sync + step_data
    count = max(len(windows), 1)
    return IdleSplit(total_ms=round(total / 1e3 / count, 3), launch_bound_ms=round(launch / 1e3 / count, 3),
                     host_sync_ms=round(sync / 1e3 / count, 3), data_wait_ms=round(data_ms / 1e3 / count, 3))


def _between(sorted_values: list[float], low: float, high: float) -> list[float]:
    from bisect import bisect_left, bisect_right

    return sorted_values[bisect_left(sorted_values, low):bisect_right(sorted_values, high)]


def _copies(gpu, correlated, call_of, sites: Sites, steps: int) -> CopyStats:
    stats = CopyStats()
    for span in gpu:
        kind = gpu_kind(span)
        if kind not in ("h2d", "d2h"):
            continue
        size = float(span.args.get("bytes") or 0)
        if kind == "h2d":
            stats.h2d_per_step += 1
            stats.h2d_bytes_per_step += size
            stats.h2d_ms_per_step += span.dur / 1e3
            pageable = "Pageable" in span.name
            stats.h2d_pageable_per_step += pageable
            launch = correlated.get(span.args.get("correlation"))
            detail = "pageable" if pageable else "pinned"
            sites.add("h2d-copy", sites.site_of(call_of.get(id(launch))) if launch else None, span.dur / 1e3,
                      detail=detail)
        else:
            stats.d2h_per_step += 1
            stats.d2h_bytes_per_step += size
            stats.d2h_ms_per_step += span.dur / 1e3
    for name in ("h2d_per_step", "h2d_bytes_per_step", "h2d_pageable_per_step", "h2d_ms_per_step",
                 "d2h_per_step", "d2h_bytes_per_step", "d2h_ms_per_step"):
        setattr(stats, name, round(getattr(stats, name) / steps, 3))
    stats.site = sites.top("h2d-copy")[0]
    return stats


def _syncs(syncs, call_of, sites: Sites, window, files: UserFiles, steps, step_ms, idle: IdleSplit) -> SyncStats:
    blocked_ms = sum(s.dur for s in syncs) / 1e3 / steps
    # Without the sync the host's work and the GPU's would overlap: a step of host work H plus blocked time B,
    # with GPU idle I, becomes max(H, GPU time), which saves min(B, I) -- the cost of the syncs.
    cost_ms = min(blocked_ms, idle.host_sync_ms)
    stats = SyncStats(per_step=round(len(syncs) / steps, 2), blocked_ms_per_step=round(blocked_ms, 3),
                      cost_ms_per_step=round(cost_ms, 3))
    stats.step_fraction = round(cost_ms / step_ms, 4) if step_ms else 0.0
    debug_sites = window.get("sync_sites") or {}
    if debug_sites:  # torch.cuda.set_sync_debug_mode named each synchronising call's line: exact
        for key, count in debug_sites.items():
            path, line, function = parse_site_key(key)
            share = idle.host_sync_ms * steps * count / max(sum(debug_sites.values()), 1)
            sites.add("sync", (f"{files.display(path)}:{line}", function), share, count)
    else:
        for span in syncs:
            sites.add("sync", sites.site_of(call_of.get(id(span))), span.dur / 1e3)
    stats.site, stats.site_per_step = sites.top("sync")
    stats.site_per_step = round(stats.site_per_step, 2)
    return stats


def _data(spans, window, files: UserFiles, steps, step_ms, sites: Sites) -> DataStats:
    hooked = window.get("data_sites") or {}
    wait_ms = sum(s.dur for s in spans) / 1e3 / steps
    if not spans and hooked:
        wait_ms = sum(site["seconds"] for site in hooked.values()) * 1e3 / steps
    stats = DataStats(wait_ms_per_step=round(wait_ms, 3),
                      step_fraction=round(wait_ms / step_ms, 4) if step_ms else 0.0)
    if hooked:
        key, site = max(hooked.items(), key=lambda kv: kv[1]["seconds"])
        path, line, function = parse_site_key(key)
        stats.site = f"{files.display(path)}:{line}"
        stats.num_workers, stats.pin_memory = site.get("num_workers"), site.get("pin_memory")
        for key, site in hooked.items():
            path, line, function = parse_site_key(key)
            sites.add("data-wait", (f"{files.display(path)}:{line}", function), site["seconds"] * 1e3, site["count"],
                      detail=f"num_workers={site.get('num_workers')}, pin_memory={site.get('pin_memory')}")
    return stats


def _notes(facts: ProfileFacts) -> None:
    kernels = facts.kernels
    if kernels.without_python_stack:
        causes = []
        if kernels.from_cuda_graphs:
            causes.append(f"{kernels.from_cuda_graphs} replayed from CUDA graphs")
        if kernels.from_compiled_code:
            causes.append(f"{kernels.from_compiled_code} launched by torch.compile's generated code")
        others = kernels.without_python_stack - kernels.from_cuda_graphs - kernels.from_compiled_code
        if others:
            causes.append(f"{others} from the autograd engine's backward thread or other threads")
        facts.notes.append(
            f"{kernels.without_python_stack} kernel(s) in the window have no line of your code on their own stack: "
            + ", ".join(causes) + "; they count in the totals and GPU busy time, not at a line"
            + (", and not in the launch statistics." if kernels.from_cuda_graphs or kernels.from_compiled_code else "."))
    if facts.mode == "wall":
        facts.notes.append("No optimizer.step() or profiler.step() was seen: a wall-clock window was recorded, "
                           "so per-step numbers are per window.")
