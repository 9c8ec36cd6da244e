"""Tables (and a text bar chart) for the recommendations: batch size, memory headroom, fit, OOM explained.

Reporters already print each recommendation's summary and reasoning; these sections add the numbers behind
them, read from ``Recommendation.details`` only (no torch, works on a saved JSON report).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from advisor.formatting import human_bytes, human_seconds
from advisor.models.recommendations import Recommendation
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
def _marks(details: dict, batch: int) -> str:
    marks = []
    knee = details.get("knee") or {}
    if batch == knee.get("batch"):
        marks.append(f"knee ({knee.get('target', 0.95):.0%} of peak)")
    if batch == knee.get("peak_batch"):
        marks.append("peak")
    if batch == details.get("recommended"):
        marks.append("recommended")
    if batch == details.get("max_fit"):
        marks.append("largest that runs")
    return ", ".join(marks)


def throughput_section(details: dict) -> Optional[Section]:
    curve = details.get("throughput_curve") or []
    if not curve:
        return None
    peak = max(point["samples_per_s"] for point in curve)
    memory = {t["batch"]: t["peak_reserved"] for t in details.get("trials", []) if t.get("fits")}
    section = Section("Batch size: throughput curve",
                      header=("Batch", "Samples/s", "Of peak", "Step time", "Peak reserved", "Timed steps", ""))
    for point in curve:
        batch = point["batch"]
        section.rows.append((f"{batch:,}", f"{point['samples_per_s']:,.0f}", f"{point['samples_per_s'] / peak:.0%}",
                             human_seconds(point["step_s"]), _bytes(memory.get(batch)),
                             f"{point['timing_samples']}{'' if point.get('stable') in (True, None) else ' (noisy)'}",
                             _marks(details, batch)))
    section.note = ("Median wall time of steady-state steps, device synchronized; the largest batch is timed by "
                    "its search trial.")
    section.chart = "samples/s by batch size\n" + bar_chart(
        [(f"{p['batch']:,}", p["samples_per_s"], _marks(details, p["batch"])) for p in curve])
    return section


def memory_model_section(details: dict) -> Section:
    section = Section("Batch size: memory model")
    model = details.get("memory_model")
    reserved = details.get("reserved_model")
    static = details.get("static_memory") or {}
    if model:
        section.rows += [
            ("Peak allocated", f"{_bytes(model['fixed_bytes'])} fixed + {_bytes(model['per_sample_bytes'])} per sample"),
            ("Fitted on batches", ", ".join(f"{b:,}" for b in model["fitted_on_batches"])
             + f" (largest deviation {_bytes(model['max_residual_bytes'])})"),
        ]
    if reserved:
        section.rows.append(("Peak reserved (what must fit)",
                             f"{_bytes(reserved['fixed_bytes'])} fixed + {_bytes(reserved['per_sample_bytes'])} per sample"))
    section.rows += [
        ("Weights", f"{_bytes(static.get('param_bytes'))} ({_int(static.get('param_count'))} parameters)"),
        ("Buffers", _bytes(static.get("buffer_bytes"))),
        ("Gradients", _bytes(static.get("gradient_bytes"))),
        ("Optimizer state", _bytes(static.get("optimizer_state_bytes"))),
        ("Usable / total GPU memory", f"{_bytes(details.get('usable_bytes'))} / {_bytes(details.get('total_bytes'))}"),
        ("Predicted largest batch (small batches only)", _int(details.get("initial_prediction"))),
        ("Largest batch that runs", _int(details.get("max_fit"))),
        ("Smallest batch that failed", _int(details.get("smallest_fail"))),
        ("Search ended because", str(details.get("search_stopped_because", ""))),
        ("Recommended (margin {:.0%})".format(details.get("margin") or 0), _int(details.get("recommended"))),
    ]
    wall = details.get("wall_s") or {}
    section.rows.append(("Wall time: search / throughput / total",
                         f"{wall.get('search', 0):.1f} s / {wall.get('throughput', 0):.1f} s / {wall.get('total', 0):.1f} s"))
    leftover = details.get("leftover_bytes")
    problems = details.get("restore_problems") or []
    section.rows.append(("Model restored, GPU memory released",
                         "yes" if leftover == 0 and not problems
                         else f"NO: {leftover} bytes left; {'; '.join(problems[:3])}"))
    section.note = ("Fixed: weights, gradients, optimizer state, library workspaces. Per sample: activations kept "
                    "for backward and the input. Reserved is what the caching allocator takes from the device "
                    "(rounded blocks, cached gaps), so it is what has to fit.")
    return section


def trials_section(details: dict) -> Section:
    section = Section("Batch size: trials (real steps)",
                      header=("#", "Phase", "Batch", "Result", "Peak allocated", "Peak reserved", "Steps", "Wall"))
    for index, trial in enumerate(details.get("trials", []), 1):
        result = "ran" if trial["fits"] else ("out of memory" if trial["failure"] == "oom" else "error")
        section.rows.append((str(index), trial["phase"], f"{trial['batch']:,}", result, _bytes(trial["peak_allocated"]),
                             _bytes(trial["peak_reserved"]), str(trial["steps"]), human_seconds(trial["wall_s"])))
    errors = [t["message"] for t in details.get("trials", []) if t.get("failure") == "error"]
    if errors:
        section.note = "Errors: " + " | ".join(dict.fromkeys(errors))
    return section


def batch_size_sections(recommendation: Recommendation) -> list[Section]:
    details = recommendation.details
    sections = [throughput_section(details), memory_model_section(details), trials_section(details)]
    return [s for s in sections if s is not None]


# -- memory ----------------------------------------------------------------------------------------------------
def headroom_sections(recommendation: Recommendation) -> list[Section]:
    d = recommendation.details
    section = Section(f"GPU memory: GPU {d.get('device_index')} ({d.get('device')})")
    rows = [
        ("Total", d.get("total_bytes")),
        ("In use before this process (NVML)", d.get("used_before_bytes")),
        ("  of which other processes (NVML's list)", d.get("other_processes_bytes")),
        ("CUDA context of this process", d.get("context_bytes")),
        ("cuBLAS handle (outside torch) / workspace (in torch's pool)", None),
        ("Free now", d.get("free_bytes")),
        ("torch reserved / allocated", None),
        ("Reserved but unallocated (cached)", d.get("reserved_unallocated_bytes")),
        ("Fragmented (inactive split blocks)", d.get("fragmented_bytes")),
        ("Kept back by the driver in large allocations", d.get("driver_reserve_bytes")),
        ("Usable (free + cached - kept back)", d.get("usable_bytes")),
    ]
    for label, value in rows:
        if label.startswith("cuBLAS"):
            text = f"{_bytes(d.get('cublas_outside_torch_bytes'))} / {_bytes(d.get('cublas_workspace_bytes'))}"
        elif label.startswith("torch reserved"):
            text = f"{_bytes(d.get('torch_reserved_bytes'))} / {_bytes(d.get('torch_allocated_bytes'))}"
        else:
            text = _bytes(value) if value is not None else "unknown"
        section.rows.append((label, text))
    section.rows.append(("PYTORCH_CUDA_ALLOC_CONF", d.get("allocator_conf") or "(unset)"))
    matmul = Section("GPU memory: largest square matmul that fits (A, B and the output alive)",
                     header=("dtype", "N (A, B, out)", "Memory", "N with one extra copy"))
    for row in d.get("matmul_fits", []):
        matmul.rows.append((row["dtype"], f"{row['n']:,} x {row['n']:,}", _bytes(row["bytes"]),
                            f"{row['n_with_copy']:,} x {row['n_with_copy']:,}"))
    matmul.note = "Counted against the usable memory above; each block rounded up to the allocator's 2 MiB."
    sections = [section, matmul]
    copies = d.get("copy_checks") or []
    if copies:
        table = Section("GPU memory: hidden copies, measured on this torch",
                        header=("Pattern", "Result", "Extra peak while it ran"))
        for check in copies:
            table.rows.append((check["pattern"], _bytes(check["result_bytes"]),
                               "none" if check["extra_bytes"] < 2**20 else _bytes(check["extra_bytes"])))
        table.note = "2048 x 2048 float32 operands (16 MiB); 'extra' is the peak beyond inputs and result."
        sections.append(table)
    return sections


def fit_sections(recommendation: Recommendation) -> list[Section]:
    d = recommendation.details
    section = Section("Will it fit: tensors alive together", header=("Tensor", "Shape", "Bytes"))
    for tensor in d.get("tensors", []):
        section.rows.append((tensor["name"], " x ".join(f"{x:,}" for x in tensor["shape"]), _bytes(tensor["bytes"])))
    section.rows.append(("Needed (2 MiB blocks)", "", _bytes(d.get("needed_bytes"))))
    section.rows.append(("Usable", "", _bytes(d.get("usable_bytes"))))
    best = d.get("largest_fitting_shape")
    section.rows.append(("Largest of the same proportions", " x ".join(f"{x:,}" for x in best) if best else "none", ""))
    verified = d.get("verified")
    if verified:
        outcome = "ran" if verified["ran"] else ("out of memory" if verified.get("out_of_memory") else "failed")
        section.rows.append(("Run for real", outcome,
                             f"peak {_bytes(verified['peak_bytes'])}, predicted {_bytes(verified['predicted_bytes'])}"))
    return [section]


def oom_sections(recommendation: Recommendation) -> list[Section]:
    d = recommendation.details
    section = Section("Out of memory: the numbers in the message")
    for label, key in (("Tried to allocate", "tried_bytes"), ("GPU total", "total_bytes"), ("Free", "free_bytes"),
                       ("This process (all)", "this_process_bytes"), ("Allocated by torch (live tensors)", "allocated_bytes"),
                       ("Reserved by torch but unallocated", "reserved_unallocated_bytes"),
                       ("In private pools (CUDA graphs)", "private_pool_bytes"),
                       ("Outside torch in this process", "non_pytorch_bytes"),
                       ("Other processes", "other_processes_bytes")):
        if d.get(key) is not None:
            section.rows.append((label, _bytes(d[key])))
    section.note = f"cause: {d.get('cause')}; message format: {d.get('message_style') or 'unknown'}"
    return [section]


_BUILDERS: dict[str, Callable[[Recommendation], list[Section]]] = {
    "batch_size": batch_size_sections,
    "memory_headroom": headroom_sections,
    "memory_fit": fit_sections,
    "oom_explained": oom_sections,
}


def recommendation_sections(recommendations: list[Recommendation]) -> list[Section]:
    sections: list[Section] = []
    for recommendation in recommendations:
        builder = _BUILDERS.get(recommendation.kind)
        if builder is not None:
            sections += builder(recommendation)
    return sections
