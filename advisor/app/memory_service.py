"""`memory`: what is free, what the context costs, what fits, and what an OOM message means."""

from __future__ import annotations

from typing import Optional

from advisor.app.devices import gpu_for_torch_index, usable_gpu
from advisor.app.errors import EXIT_FAILURE, AdvisorError
from advisor.app.reports import build_report
from advisor.models.facts import Facts
from advisor.models.recommendations import Recommendation
from advisor.models.report import Report

#: The one source of a report that explains a pasted OOM message: nothing of this machine is in it.
OOM_SOURCE = "OOM message"


def explain_oom_report(oom_text: str) -> Report:
    """A pasted CUDA out-of-memory message explained, offline: no torch, no probe of this machine (the message
    is usually from someone else's), no rules (they judge a machine's facts, and there are none)."""
    from advisor.app.reports import new_meta
    from advisor.recommend.memory_report import oom_recommendation
    from advisor.recommend.oom_explain import explain_oom

    explanation = explain_oom(oom_text)
    if explanation is None:
        raise AdvisorError("--explain-oom: this is not a CUDA out-of-memory message (no 'out of memory' in it)")
    report = Report(meta=new_meta("memory --explain-oom", [OOM_SOURCE]), facts=Facts())
    report.recommendations.append(oom_recommendation(explanation))
    return report


def memory_report(*, op: str, dtype: str, shape: Optional[str], noncontiguous: bool, verify: bool,
                  device: int) -> Report:
    """Headroom (and a --shape's fit) measured on GPU ``device``. Bad flags are refused before anything is
    probed."""
    from advisor.app.progress import working
    from advisor.measure.timer import Stopwatch
    from advisor.probe import collect_facts
    from advisor.recommend.memory_fit import DTYPE_BYTES, OPS, footprint, parse_shape

    if op not in OPS:
        raise AdvisorError(f"--op {op!r}: expected one of {', '.join(OPS)}")
    if dtype not in DTYPE_BYTES:
        raise AdvisorError(f"--dtype {dtype!r}: expected one of {', '.join(DTYPE_BYTES)}")
    wanted_shape = None
    if shape is not None:
        try:
            wanted_shape = parse_shape(shape)
            footprint(op, wanted_shape, dtype)
        except ValueError as error:
            raise AdvisorError(f"--shape: {error}") from None

    watch = Stopwatch()
    with working("probing this machine (importing torch)"):
        facts = collect_facts()
    reason = usable_gpu(facts, device)
    if reason is not None:
        raise AdvisorError(f"no usable CUDA device: {reason} (--explain-oom explains an OOM message without one)",
                           EXIT_FAILURE)
    recommendations = _measure(facts, device, op, wanted_shape, dtype, noncontiguous, verify)
    report = build_report("memory", facts, sources=["probe", "memory probe"], rules_dirs=None)
    report.recommendations.extend(recommendations)
    report.meta.wall_s = round(watch.elapsed(), 2)
    return report


def _gpu_memory_facts(facts: Facts, device: int) -> tuple[Optional[int], Optional[int]]:
    """(memory used before this process touched the GPU, memory of other processes) from the probe's NVML view."""
    gpu = gpu_for_torch_index(facts, device)
    if gpu is None:
        return None, None
    used = gpu.memory_used_bytes if isinstance(gpu.memory_used_bytes, int) else None
    others = gpu.other_processes_memory_bytes if isinstance(gpu.other_processes_memory_bytes, int) else None
    return used, others


def _measure(facts: Facts, device: int, op: str, shape, dtype: str, noncontiguous: bool,
             verify: bool) -> list[Recommendation]:
    from advisor.recommend.memory_fit import footprint
    from advisor.recommend.memory_probe import probe_headroom, verify_op
    from advisor.recommend.memory_report import fit_recommendation, headroom_recommendation

    used_before, others = _gpu_memory_facts(facts, device)
    try:
        headroom = probe_headroom(device, used_before_bytes=used_before, other_processes_bytes=others)
    except RuntimeError as error:
        raise AdvisorError(f"measuring GPU {device} failed: {str(error).strip().splitlines()[0]}",
                           EXIT_FAILURE) from None
    recommendations = [headroom_recommendation(headroom)]
    if shape is not None:
        check = None
        copies = 1 if noncontiguous else 0
        if verify and footprint(op, shape, dtype, extra_copies=copies).total_bytes <= headroom.usable_bytes:
            check = verify_op(device, op, shape, dtype, noncontiguous=noncontiguous)
        recommendations.append(fit_recommendation(op, shape, dtype, headroom.usable_bytes,
                                                  noncontiguous=noncontiguous, check=check))
    return recommendations
