"""The sections of a profile report: the run, the per-step breakdown, a text step timeline, the user's lines,
the top operators. Terminal and Markdown both render these; ``plot_steps`` draws the timeline as a PNG."""

from __future__ import annotations

from pathlib import Path

from advisor.formatting import human_bytes
from advisor.models.common import Unavailable
from advisor.models.profile import OpTime, ProfileFacts
from advisor.report.fact_sections import Section

_BAR_WIDTH = 48
_WHAT = {"sync": "host waits for GPU", "h2d-copy": "host->device copy", "data-wait": "waits for data",
         "launches": "GPU kernels launched", "cpu-compute": "compute on the CPU", "host-time": "host time (sampled)",
         "fp32-matmul": "float32 matmul", "compiled": "calls compiled code / CUDA graphs"}


def _pct(value: object) -> str:
    return f"{value * 100:.0f}%" if isinstance(value, (int, float)) else _text(value)


def _ms(value: object, digits: int = 2) -> str:
    return f"{value:.{digits}f} ms" if isinstance(value, (int, float)) else _text(value)


def _text(value: object) -> str:
    if isinstance(value, Unavailable):
        return f"unavailable ({value.unavailable})"
    return "n/a" if value is None else str(value)


def run_section(profile: ProfileFacts) -> Section:
    run = profile.run
    section = Section("Profiled program")
    section.add("Command", run.command)
    outcome = run.outcome + (f" (exit code {run.exit_code})" if run.exit_code not in (None, 0) else "")
    section.add("Outcome", outcome + (" -- ended inside the window" if run.partial else ""))
    section.add("Window", f"{profile.steps_recorded} step(s) recorded after {run.steps_seen} seen"
                if profile.mode == "steps" else "a wall-clock window (no optimizer.step() seen)")
    device = profile.device_name or "none: CPU only"
    if profile.compute_capability:
        device += f" (compute capability {profile.compute_capability})"
    section.add("GPU", device)
    section.add("torch", profile.torch_version)
    section.add("Time", f"whole profile run {run.wall_s:.1f} s = the program under the profiler {run.program_s:.1f} s "
                        f"(recorded window {run.window_s:.2f} s) + summarising {max(run.wall_s - run.program_s, 0):.1f} s")
    return section


def step_section(profile: ProfileFacts) -> Section:
    section = Section("Per step (the recorded window over its steps, GPU drained at both ends)")
    overhead = profile.overhead_fraction
    section.add("Step time", _ms(profile.step_ms))
    section.add("Same steps unprofiled", _ms(profile.baseline_step_ms))
    section.add("Profiling overhead", _pct(overhead) + ("" if profile.conclusive else " -- too high, no conclusions"))
    section.add("GPU busy", _pct(profile.gpu_busy_fraction))
    if profile.cuda_available:
        idle = profile.idle
        section.add("GPU idle: host launching / after syncs / data wait",
                    f"{_ms(idle.launch_bound_ms)} / {_ms(idle.host_sync_ms)} / {_ms(idle.data_wait_ms)}")
        kernels = profile.kernels
        section.add("Kernels", f"{kernels.per_step:g} per step, {_pct(kernels.short_fraction)} shorter than their launch")
        section.add("Median launch / kernel", f"{_text(kernels.launch_us_median)} us / {_text(kernels.kernel_us_median)} us")
        copies = profile.copies
        section.add("Host->device copies", f"{copies.h2d_per_step:g} per step ({copies.h2d_pageable_per_step:g} pageable), "
                                           f"{human_bytes(copies.h2d_bytes_per_step)}, {_ms(copies.h2d_ms_per_step, 3)}")
        section.add("Device->host copies", f"{copies.d2h_per_step:g} per step, {human_bytes(copies.d2h_bytes_per_step)}")
        sync = profile.sync
        section.add("Synchronisations", f"{sync.per_step:g} per step, host blocked {_ms(sync.blocked_ms_per_step)}")
    data = profile.data
    section.add("Waiting for data", f"{_ms(data.wait_ms_per_step)} ({_pct(data.step_fraction)})"
                + (f", num_workers={data.num_workers}, pin_memory={data.pin_memory}" if data.site else ""))
    matmul = profile.matmul
    section.add("Matmuls float32 / bf16-fp16", f"{matmul.fp32_calls_per_step:g} / {matmul.low_precision_calls_per_step:g} per step"
                + (f", TF32 {'on' if matmul.tf32_enabled else 'off'}" if matmul.tf32_enabled is not None else ""))
    if matmul.conv_calls_per_step:
        section.add("Convolutions", f"{matmul.conv_calls_per_step:g} per step, fixed shapes: {matmul.conv_fixed_shapes}, "
                                    f"cudnn.benchmark: {matmul.cudnn_benchmark}")
    memory = profile.memory
    if not isinstance(memory.capacity_bytes, Unavailable):
        section.add("GPU memory peak reserved / allocated / capacity",
                    f"{human_bytes(memory.peak_reserved_bytes)} / {human_bytes(memory.peak_allocated_bytes)} / "
                    f"{human_bytes(memory.capacity_bytes)} ({_pct(memory.peak_reserved_fraction)})")
    collectives = profile.collectives
    if collectives.backend:
        section.add("Collectives", f"{collectives.calls_per_step:g} per step ({collectives.backend}: "
                                   f"{', '.join(collectives.names)}), {_ms(collectives.ms_per_step)}, of which "
                                   f"{_ms(collectives.wait_ms_per_step)} with no compute beside them "
                                   f"({_pct(collectives.wait_fraction)} of the step)")
    if profile.cuda_available:
        section.add("Compute left on the CPU", f"{_ms(profile.cpu_work.ms_per_step)} ({_pct(profile.cpu_work.step_fraction)})")
    section.note = " ".join(profile.notes)
    return section


def step_timeline(profile: ProfileFacts) -> str:
    """One bar per step, scaled to the longest. With a GPU, what the GPU did: # busy, then its idle time by
    cause: s after a host sync, d while the host waited for data, . while the host was launching / busy.
    Without one: d waiting for data, = the rest (computing)."""
    if not profile.steps:
        return ""
    longest = max(step.wall_ms for step in profile.steps) or 1.0
    lines = []
    for step in profile.steps:
        width = max(1, round(step.wall_ms / longest * _BAR_WIDTH))
        scale = width / step.wall_ms if step.wall_ms else 0.0
        if profile.cuda_available:
            parts = [("#", step.gpu_busy_ms or 0.0), ("s", step.idle_sync_ms), ("d", step.idle_data_ms)]
            filler = "."
        else:
            parts = [("d", step.data_ms)]
            filler = "="
        bar = ""
        for char, ms in parts:
            bar += char * min(round(ms * scale), width - len(bar))
        bar += filler * (width - len(bar))
        lines.append(f"step {step.index:>2} {step.wall_ms:9.2f} ms |{bar}")
    legend = ("# GPU busy   GPU idle: s after a host sync, d host waiting for data, . host launching/busy"
              if profile.cuda_available else "d waiting for data   = computing on the CPU")
    return "\n".join([*lines, legend])


def timeline_section(profile: ProfileFacts) -> Section:
    return Section("Step timeline", chart=step_timeline(profile))


def lines_section(profile: ProfileFacts) -> Section:
    section = Section("Your lines", header=("Line", "What", "ms / step", "per step", "Detail"))
    for site in profile.sites:
        if site.what == "host-time" and site.ms_per_step < 0.01:
            continue
        section.rows.append((site.site, _WHAT.get(site.what, site.what), f"{site.ms_per_step:.3f}",
                             f"{site.count_per_step:g}" if site.count_per_step else "", site.detail))
    section.note = "Host time is sampled every 2 ms of CPU time; syncs are named by torch.cuda.set_sync_debug_mode."
    return section


def _ops_section(title: str, ops: list[OpTime], share_label: str) -> Section:
    section = Section(title, header=("Operator", "ms / step", "calls / step", share_label))
    for op in ops:
        section.rows.append((op.name, f"{op.ms_per_step:.3f}", f"{op.calls_per_step:g}", f"{op.share * 100:.0f}%"))
    return section


def ranks_section(profile: ProfileFacts) -> Section:
    """Under torchrun: one row per rank, as rank 0 gathered them (the rest of the report is rank 0's)."""
    section = Section(f"Ranks ({profile.rank_skew.reported} of {profile.rank_skew.world_size} reported; "
                      "the sections below are rank 0's)")
    for rank in profile.ranks:
        if rank.status != "ok":
            section.add(f"rank {rank.rank}", f"{rank.status}: {rank.reason}")
            continue
        busy = f", GPU busy {_pct(rank.gpu_busy_fraction)}" if isinstance(rank.gpu_busy_fraction, float) else ""
        waits = (f", in collectives {rank.collective_ms_per_step:.2f} ms of which waiting "
                 f"{rank.collective_wait_ms_per_step:.2f} ms, own work {_ms(rank.work_ms_per_step)}"
                 if rank.collective_backend else "")
        section.add(f"rank {rank.rank}", f"step {_ms(rank.step_ms)} over {rank.steps_recorded} steps{busy}, "
                                         f"host syncs {rank.sync_ms_per_step:.2f} ms, data wait "
                                         f"{rank.data_ms_per_step:.2f} ms{waits} per step"
                    + (f" ({rank.node})" if rank.node else ""))
    skew = profile.rank_skew
    if skew.synchronised and skew.straggler_rank is not None:
        steps = f" in {skew.straggler_steps} of {skew.steps_compared} steps" if skew.steps_compared else ""
        section.note = (f"Every rank ran collectives every step, which ties their step times together; a straggler "
                        f"shows as the rank that waits least in them. Least here: rank {skew.straggler_rank}{steps}, "
                        f"the others waiting {_ms(skew.extra_wait_ms)} longer per step "
                        f"({_pct(skew.extra_wait_fraction)} of the step).")
    return section


def profile_sections(profile: ProfileFacts) -> list[Section]:
    sections = [run_section(profile), step_section(profile), timeline_section(profile)]
    if profile.ranks:
        sections.insert(1, ranks_section(profile))
    if profile.sites:
        sections.append(lines_section(profile))
    if profile.top_gpu_ops:
        sections.append(_ops_section("Top operators by GPU time", profile.top_gpu_ops, "of GPU time"))
    if profile.top_cpu_ops:
        sections.append(_ops_section("Top operators by CPU time", profile.top_cpu_ops, "of the step"))
    return sections


def plot_steps(profile: ProfileFacts, path: Path) -> None:
    """The step timeline as stacked bars (matplotlib, imported only here)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = profile.steps
    index = [s.index for s in steps]
    busy = [s.gpu_busy_ms or 0.0 for s in steps]
    data = [s.data_ms for s in steps]
    if profile.cuda_available:
        data = [s.idle_data_ms for s in steps]
    sync = [s.idle_sync_ms for s in steps]
    other = [max(s.wall_ms - b - d - y, 0.0) for s, b, d, y in zip(steps, busy, data, sync, strict=True)]
    figure, axes = plt.subplots(figsize=(8, 4))
    bottom = [0.0] * len(steps)
    for values, label, colour in ((busy, "GPU busy", "tab:green"), (data, "waiting for data", "tab:orange"),
                                  (sync, "GPU idle after a host sync", "tab:red"),
                                  (other, "other (host launching / computing)", "tab:gray")):
        axes.bar(index, values, bottom=bottom, label=label, color=colour)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    axes.set_xlabel("recorded step")
    axes.set_ylabel("ms")
    axes.set_title(f"gpu-advisor profile: {profile.run.command}"[:80])
    axes.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=2)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
