"""The measurements of a report as tables (and text charts), shared by the terminal and Markdown reporters."""

from __future__ import annotations

from typing import Any, Optional

from advisor.formatting import describe_crossover_bounds, human_seconds, human_value
from advisor.models.common import Unavailable
from advisor.models.measurements import CrossoverResult, Measurements, TimingStats
from advisor.report.fact_sections import Section
from advisor.report.text_chart import Series, text_chart

MODE_LABELS = {"resident": "resident", "sync": "sync per op", "transfer_pinned": "copy (pinned)",
               "transfer_pageable": "copy (pageable)"}
#: The crossovers drawn as text charts: the two users ask about most.
CHARTED = (("matmul", "float32"), ("add", "float32"))


def _num(value: Any, fmt: str, unit: str = "") -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:{fmt}}{(' ' + unit) if unit else ''}"
    return human_value(value)


def _spread(stats: Optional[TimingStats]) -> str:
    if stats is None:
        return ""
    flag = "" if stats.stable else ", NOISY"
    return f"±{stats.rel_spread * 50:.1f}% (IQR/2), n={stats.samples}{flag}"


def run_section(measurements: Measurements) -> Section:
    run = measurements.run
    section = Section("Measurement run")
    section.rows += [
        ("GPU", f"{run.device_index}: {run.device_name}" if run.device_name else "none"),
        ("CPU threads (torch default)", human_value(run.cpu_threads)),
        ("Wall time / budget", f"{_num(run.wall_s, '.1f', 's')} / {_num(run.budget_s, '.0f', 's')}"),
        ("GPU memory cap", f"{run.memory_cap_fraction:.0%} of free" if run.memory_cap_fraction else "n/a"),
    ]
    if run.interrupted:
        section.rows.append(("Interrupted", "yes: partial results"))
    section.rows += [("Note", note) for note in run.notes]
    state = measurements.gpu_state
    if run.device_name is None:
        return section
    section.rows += [
        ("Clock-event reasons seen while measuring", human_value(state.clock_event_reasons_seen)),
        ("SM clock min / max while measuring",
         f"{human_value(state.sm_clock_min_mhz)} / {human_value(state.sm_clock_max_mhz)} MHz"),
        ("Max temperature / power", f"{human_value(state.temperature_max_c)} C / {_num(state.power_max_w, '.0f', 'W')}"),
    ]
    return section


def overhead_section(measurements: Measurements) -> Section:
    section = Section("Overheads", header=("What", "Median", "Spread", "How"))
    for detail in measurements.overheads.details:
        value = detail.reason if detail.status != "ok" else (
            human_seconds(detail.value) if detail.unit == "s" and isinstance(detail.value, (int, float))
            else _num(detail.value, ".1f", detail.unit))  # an ok status with no value: a malformed report
        section.rows.append((detail.name, value, _spread(detail.stats), detail.workload))
    return section


def transfer_section(measurements: Measurements) -> Section:
    transfer = measurements.transfer
    section = Section("Host<->device bandwidth", header=("Copy", "GB/s", "Spread"))
    for point in transfer.points:
        section.rows.append((point.name, _num(point.value, ".1f"), _spread(point.stats)))
    link = f"Gen{human_value(transfer.link_gen_under_load)} x{human_value(transfer.link_width_under_load)}"
    section.rows += [
        ("PCIe link under load", link, f"theoretical {_num(transfer.link_theoretical_gbps, '.1f', 'GB/s')}"),
        ("PCIe link maximum", f"Gen{human_value(transfer.link_gen_max)} x{human_value(transfer.link_width_max)}",
         f"theoretical {_num(transfer.link_max_theoretical_gbps, '.1f', 'GB/s')}"),
        ("Pinned vs pageable (host->device)", _num(transfer.pinned_speedup, ".1f", "x"), ""),
        ("Pinned host->device / link maximum", _num(transfer.h2d_fraction_of_link_max, ".0%"), ""),
    ]
    return section


def peak_section(measurements: Measurements) -> Section:
    peaks = measurements.peaks
    section = Section("Peak throughput", header=("What", "Measured", "Spec", "Of spec"))
    for dtype, value in peaks.matmul_tflops.items():
        spec = peaks.spec_matmul_tflops.get(dtype)
        share = value / spec if isinstance(value, float) and isinstance(spec, float) and spec else None
        section.rows.append((f"GPU matmul {dtype}", _num(value, ".1f", "TFLOP/s"), _num(spec, ".1f"), _num(share, ".0%")))
    copy, spec = peaks.device_copy_gbps, peaks.spec_memory_gbps
    if peaks.matmul_tflops:  # a GPU was measured
        share = copy / spec if isinstance(copy, float) and isinstance(spec, float) and spec else None
        section.rows.append(("GPU memory (device copy)", _num(copy, ".0f", "GB/s"), _num(spec, ".0f"), _num(share, ".0%")))
    for dtype, value in peaks.cpu_matmul_gflops.items():
        section.rows.append((f"CPU matmul {dtype}", _num(value, ".0f", "GFLOP/s"), "", ""))
    section.note = "; ".join(d.workload for d in peaks.details if d.status == "ok")
    return section


def unsync_section(measurements: Measurements) -> Section:
    demo = measurements.unsync_timing
    section = Section("Timing without synchronize (a demonstration)")
    if isinstance(demo, Unavailable):
        section.note = f"unavailable: {demo.unavailable}"
        return section
    if demo.status != "ok":
        section.note = demo.reason or demo.status
        return section
    section.rows += [
        ("Workload", demo.workload),
        ("time.time() around the call, no synchronize", human_seconds(demo.naive_s or 0)),
        ("CUDA events (correct)", human_seconds(demo.correct_s or 0)),
        ("Under-reported by", _num(demo.underreport_factor, ".0f", "x")),
    ]
    return section


def describe_crossover(result: CrossoverResult) -> str:
    if result.status != "ok":
        return result.status  # the reasons are listed once, under the table
    if result.clear_factor is not None:
        text = describe_crossover_bounds(result)
        return f"{text} [!]" if result.consistency_note or result.cpu_contended else text
    if result.gpu_never_wins:
        return f"CPU wins up to {result.range_max:,}"
    if result.gpu_always_wins:
        return f"GPU wins from {result.range_min:,} (smallest tried)"
    text = f"{result.crossover_size:,}"
    if result.close_race_from is not None and result.close_race_from != result.close_race_to:
        text += f" (within 15%: {result.close_race_from:,}-{result.close_race_to:,})"
    return text


def crossover_section(measurements: Measurements) -> Section:
    modes = list(dict.fromkeys(r.mode for r in measurements.crossover))
    reasons = {r.reason for r in measurements.crossover if r.status != "ok"}
    if len(reasons) == 1 and all(r.status != "ok" for r in measurements.crossover):
        return Section("Crossover sizes", note=f"not measured: {reasons.pop()}")
    section = Section("Crossover sizes: from which size the GPU beats the CPU",
                      header=("Op / dtype", "Size unit", *(MODE_LABELS[m] for m in modes)))
    table: dict[tuple[str, str], dict[str, CrossoverResult]] = {}
    for result in measurements.crossover:
        table.setdefault((result.op, result.dtype), {})[result.mode] = result
    for (op, dtype), by_mode in table.items():
        unit = next(iter(by_mode.values())).size_unit
        section.rows.append((f"{op} {dtype}", unit, *(describe_crossover(by_mode[m]) if m in by_mode else "" for m in modes)))
    section.note = ("resident: data on the GPU, ops queued; sync per op: each result waited for; copy: inputs copied "
                    "host->device and the result back each time. Above the crossover the GPU stays faster at every "
                    "size tried.")
    if any(r.clear_factor is not None for r in measurements.crossover):
        factor = next(r.clear_factor for r in measurements.crossover if r.clear_factor is not None)
        section.note = (f"CPU <= X: the CPU is faster by more than {factor:.2f}x up to size X; GPU >= Y: the GPU is, "
                        "from Y at every larger size tried; even: sizes measured in between, where neither is clearly "
                        "faster (the exact crossover there moves from run to run). " + section.note.split(". ")[0] + ".")
        flagged = [f"{r.op} {r.dtype} {MODE_LABELS[r.mode]}: {r.consistency_note or 'CPU side timed under load'}"
                   for r in measurements.crossover if r.consistency_note or r.cpu_contended]
        if flagged:
            section.note += " [!] " + "; ".join(flagged) + "."
    not_measured = sorted({f"{r.status}: {r.reason}" for r in measurements.crossover if r.status != "ok"})
    if not_measured:
        section.note += " Not measured -- " + "; ".join(not_measured)
    section.chart = "\n\n".join(filter(None, (crossover_chart(measurements, op, dtype) for op, dtype in CHARTED)))
    return section


def crossover_chart(measurements: Measurements, op: str, dtype: str) -> str:
    results = [r for r in measurements.crossover if r.op == op and r.dtype == dtype and r.status == "ok" and r.points]
    if not results:
        return ""
    cpu_points = sorted({(p.size, p.cpu.median_s) for r in results for p in r.points})
    series = [Series("CPU", "C", [(float(x), y) for x, y in cpu_points])]
    markers = {"resident": "R", "sync": "S", "transfer_pinned": "P", "transfer_pageable": "T"}
    for result in results:
        series.append(Series(f"GPU {MODE_LABELS[result.mode]}", markers[result.mode],
                             [(float(p.size), p.gpu.median_s) for p in result.points]))
    resident = next((r for r in results if r.mode == "resident"), None)
    marker = float(resident.crossover_size) if resident and resident.crossover_size else None
    title = f"{op} {dtype}: time per op vs size ({results[0].size_unit}); | = resident crossover"
    return title + "\n" + text_chart(series, x_label=results[0].size_unit, marker_x=marker)


def measurement_sections(measurements: Measurements) -> list[Section]:
    run = measurements.run
    if run.budget_s is None:  # nothing was measured (env, explain of pasted text)
        return []
    sections = [run_section(measurements)]
    if measurements.crossover:
        sections.append(crossover_section(measurements))
    if measurements.peaks.matmul_tflops or measurements.peaks.cpu_matmul_gflops:
        sections.append(peak_section(measurements))
    if measurements.transfer.points:
        sections.append(transfer_section(measurements))
    if measurements.overheads.details:
        sections.append(overhead_section(measurements))
    sections.append(unsync_section(measurements))
    return sections
