"""Tables (and a text bar chart) for the recommendations: batch size, memory headroom, fit, OOM explained.

Reporters already print each recommendation's summary and reasoning; these sections add the numbers behind
them, read from each recommendation's typed ``details`` only (no torch, works on a saved JSON report).
"""

from __future__ import annotations

from typing import Any, Optional

from advisor.formatting import human_bytes, human_seconds
from advisor.models.recommendations import (
    BatchSizeDetails,
    BatchSizeRecommendation,
    MemoryFitRecommendation,
    MemoryHeadroomRecommendation,
    OomRecommendation,
    Recommendation,
)
from advisor.report.fact_sections import Section

BAR_WIDTH = 40


def _bytes(value: Any) -> str:
    return human_bytes(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else "n/a"


def _int(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else "n/a"


def bar_chart(rows: list[tuple[str, float, str]], *, width: int = BAR_WIDTH) -> str:
    """Horizontal bars, one per (label, value, annotation), scaled to the largest value; ASCII only."""
    if not rows:
        return ""
    top = max(value for _, value, _ in rows) or 1.0
    label_width = max(len(label) for label, _, _ in rows)
    lines = []
    for label, value, note in rows:
        bar = "#" * max(1, round(value / top * width)) if value > 0 else ""
        lines.append(f"{label:>{label_width}} |{bar:<{width}} {value:,.0f}{('  ' + note) if note else ''}")
    return "\n".join(lines)


# -- batch size ----------------------------------------------------------------------------------------------
def _marks(details: BatchSizeDetails, batch: int) -> str:
    marks = []
    knee = details.knee
    if knee is not None and batch == knee.batch:
        marks.append(f"knee ({knee.target:.0%} of peak)")
    if knee is not None and batch == knee.peak_batch:
        marks.append("peak")
    if batch == details.recommended:
        marks.append("recommended")
    if batch == details.max_fit:
        marks.append("largest that runs")
    return ", ".join(marks)


def throughput_section(details: BatchSizeDetails) -> Optional[Section]:
    curve = details.throughput_curve
    if not curve:
        return None
    peak = max(point.samples_per_s for point in curve)
    memory = {t.batch: t.peak_reserved for t in details.trials if t.fits}
    section = Section("Batch size: throughput curve",
                      header=("Batch", "Samples/s", "Of peak", "Step time", "Peak reserved", "Timed steps", ""))
    for point in curve:
        share = f"{point.samples_per_s / peak:.0%}" if peak > 0 else "n/a"
        section.rows.append((f"{point.batch:,}", f"{point.samples_per_s:,.0f}", share,
                             human_seconds(point.step_s), _bytes(memory.get(point.batch)),
                             f"{point.timing_samples}{'' if point.stable in (True, None) else ' (noisy)'}",
                             _marks(details, point.batch)))
    section.note = ("Median wall time of steady-state steps, device synchronized; the largest batch is timed by "
                    "its search trial.")
    section.chart = "samples/s by batch size\n" + bar_chart(
        [(f"{p.batch:,}", p.samples_per_s, _marks(details, p.batch)) for p in curve])
    return section


def memory_model_section(details: BatchSizeDetails) -> Section:
    section = Section("Batch size: memory model")
    model, reserved, static = details.memory_model, details.reserved_model, details.static_memory
    if model:
        section.rows += [
            ("Peak allocated", f"{_bytes(model.fixed_bytes)} fixed + {_bytes(model.per_sample_bytes)} per sample"),
            ("Fitted on batches", ", ".join(f"{b:,}" for b in model.fitted_on_batches)
             + f" (largest deviation {_bytes(model.max_residual_bytes)})"),
        ]
    if reserved:
        section.rows.append(("Peak reserved (what must fit)",
                             f"{_bytes(reserved.fixed_bytes)} fixed + {_bytes(reserved.per_sample_bytes)} per sample"))
    section.rows += [
        ("Weights", f"{_bytes(static.param_bytes)} ({_int(static.param_count)} parameters)"),
        ("Buffers", _bytes(static.buffer_bytes)),
        ("Gradients", _bytes(static.gradient_bytes)),
        ("Optimizer state", _bytes(static.optimizer_state_bytes)),
        ("Usable / total GPU memory", f"{_bytes(details.usable_bytes)} / {_bytes(details.total_bytes)}"),
        ("Predicted largest batch (small batches only)", _int(details.initial_prediction)),
        ("Largest batch that runs", _int(details.max_fit)),
        ("Smallest batch that failed", _int(details.smallest_fail)),
        ("Search ended because", details.search_stopped_because),
        ("Recommended (margin {:.0%})".format(details.margin), _int(details.recommended)),
    ]
    wall = details.wall_s
    section.rows.append(("Wall time: search / throughput / total",
                         f"{wall.search:.1f} s / {wall.throughput:.1f} s / {wall.total:.1f} s"))
    leftover, problems = details.leftover_bytes, details.restore_problems
    section.rows.append(("Model restored, GPU memory released",
                         "yes" if leftover == 0 and not problems
                         else f"NO: {leftover} bytes left; {'; '.join(problems[:3])}"))
    section.note = ("Fixed: weights, gradients, optimizer state, library workspaces. Per sample: activations kept "
                    "for backward and the input. Reserved is what the caching allocator takes from the device "
                    "(rounded blocks, cached gaps), so it is what has to fit.")
    return section


def trials_section(details: BatchSizeDetails) -> Section:
    section = Section("Batch size: trials (real steps)",
                      header=("#", "Phase", "Batch", "Result", "Peak allocated", "Peak reserved", "Steps", "Wall"))
    for index, trial in enumerate(details.trials, 1):
        result = "ran" if trial.fits else ("out of memory" if trial.failure == "oom" else "error")
        section.rows.append((str(index), trial.phase, f"{trial.batch:,}", result, _bytes(trial.peak_allocated),
                             _bytes(trial.peak_reserved), str(trial.steps), human_seconds(trial.wall_s)))
    errors = [t.message for t in details.trials if t.failure == "error"]
    if errors:
        section.note = "Errors: " + " | ".join(dict.fromkeys(errors))
    return section


def batch_size_sections(recommendation: BatchSizeRecommendation) -> list[Section]:
    details = recommendation.details
    sections = [throughput_section(details), memory_model_section(details), trials_section(details)]
    return [s for s in sections if s is not None]


# -- memory ----------------------------------------------------------------------------------------------------
def headroom_sections(recommendation: MemoryHeadroomRecommendation) -> list[Section]:
    d = recommendation.details
    section = Section(f"GPU memory: GPU {d.device_index} ({d.device})")
    for label, value in (
        ("Total", d.total_bytes),
        ("In use before this process (NVML)", d.used_before_bytes),
        ("  of which other processes (NVML's list)", d.other_processes_bytes),
        ("CUDA context of this process", d.context_bytes),
        ("cuBLAS handle (outside torch) / workspace (in torch's pool)",
         f"{_bytes(d.cublas_outside_torch_bytes)} / {_bytes(d.cublas_workspace_bytes)}"),
        ("Free now", d.free_bytes),
        ("torch reserved / allocated", f"{_bytes(d.torch_reserved_bytes)} / {_bytes(d.torch_allocated_bytes)}"),
        ("Reserved but unallocated (cached)", d.reserved_unallocated_bytes),
        ("Fragmented (inactive split blocks)", d.fragmented_bytes),
        ("Kept back by the driver in large allocations", d.driver_reserve_bytes),
        ("Usable (free + cached - kept back)", d.usable_bytes),
    ):
        section.rows.append((label, value if isinstance(value, str) else _bytes(value) if value is not None else "unknown"))
    section.rows.append(("PYTORCH_CUDA_ALLOC_CONF", d.allocator_conf or "(unset)"))
    matmul = Section("GPU memory: largest square matmul that fits (A, B and the output alive)",
                     header=("dtype", "N (A, B, out)", "Memory", "N with one extra copy"))
    for row in d.matmul_fits:
        matmul.rows.append((row.dtype, f"{row.n:,} x {row.n:,}", _bytes(row.bytes),
                            f"{row.n_with_copy:,} x {row.n_with_copy:,}"))
    matmul.note = "Counted against the usable memory above; each block rounded up to the allocator's 2 MiB."
    sections = [section, matmul]
    if d.copy_checks:
        table = Section("GPU memory: hidden copies, measured on this torch",
                        header=("Pattern", "Result", "Extra peak while it ran"))
        for check in d.copy_checks:
            table.rows.append((check.pattern, _bytes(check.result_bytes),
                               "none" if check.extra_bytes < 2**20 else _bytes(check.extra_bytes)))
        table.note = "2048 x 2048 float32 operands (16 MiB); 'extra' is the peak beyond inputs and result."
        sections.append(table)
    return sections


def fit_sections(recommendation: MemoryFitRecommendation) -> list[Section]:
    d = recommendation.details
    section = Section("Will it fit: tensors alive together", header=("Tensor", "Shape", "Bytes"))
    for tensor in d.tensors:
        section.rows.append((tensor.name, " x ".join(f"{x:,}" for x in tensor.shape), _bytes(tensor.bytes)))
    section.rows.append(("Needed (2 MiB blocks)", "", _bytes(d.needed_bytes)))
    section.rows.append(("Usable", "", _bytes(d.usable_bytes)))
    best = d.largest_fitting_shape
    section.rows.append(("Largest of the same proportions", " x ".join(f"{x:,}" for x in best) if best else "none", ""))
    verified = d.verified
    if verified:
        outcome = "ran" if verified.ran else ("out of memory" if verified.out_of_memory else "failed")
        section.rows.append(("Run for real", outcome,
                             f"peak {_bytes(verified.peak_bytes)}, predicted {_bytes(verified.predicted_bytes)}"))
    return [section]


def oom_sections(recommendation: OomRecommendation) -> list[Section]:
    d = recommendation.details
    section = Section("Out of memory: the numbers in the message")
    for label, value in (("Tried to allocate", d.tried_bytes), ("GPU total", d.total_bytes), ("Free", d.free_bytes),
                         ("This process (all)", d.this_process_bytes),
                         ("Allocated by torch (live tensors)", d.allocated_bytes),
                         ("Reserved by torch but unallocated", d.reserved_unallocated_bytes),
                         ("In private pools (CUDA graphs)", d.private_pool_bytes),
                         ("Outside torch in this process", d.non_pytorch_bytes),
                         ("Other processes", d.other_processes_bytes)):
        if value is not None:
            section.rows.append((label, _bytes(value)))
    section.note = f"cause: {d.cause}; message format: {d.message_style or 'unknown'}"
    return [section]


def recommendation_sections(recommendations: list[Recommendation]) -> list[Section]:
    sections: list[Section] = []
    for recommendation in recommendations:
        if isinstance(recommendation, BatchSizeRecommendation):
            sections += batch_size_sections(recommendation)
        elif isinstance(recommendation, MemoryHeadroomRecommendation):
            sections += headroom_sections(recommendation)
        elif isinstance(recommendation, MemoryFitRecommendation):
            sections += fit_sections(recommendation)
        elif isinstance(recommendation, OomRecommendation):
            sections += oom_sections(recommendation)
    return sections
