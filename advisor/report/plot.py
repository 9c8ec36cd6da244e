"""Crossover charts as PNG/SVG (matplotlib, an optional extra) and as TensorBoard scalars (optional too)."""

from __future__ import annotations

from pathlib import Path

from advisor.models.measurements import CrossoverResult
from advisor.report.measurement_sections import MODE_LABELS


class MissingExtra(RuntimeError):
    """An optional dependency is not installed; the message says how to install it."""


def _ok(results: list[CrossoverResult]) -> list[CrossoverResult]:
    return [r for r in results if r.status == "ok" and r.points]


def plot_crossovers(results: list[CrossoverResult], path: Path) -> None:
    """One panel per op/dtype: CPU time and GPU time per mode against size, log-log, crossovers marked."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only, never a window
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtra("--plot needs matplotlib: pip install 'gpu-advisor[plot]'") from None
    panels: dict[tuple[str, str], list[CrossoverResult]] = {}
    for result in _ok(results):
        panels.setdefault((result.op, result.dtype), []).append(result)
    if not panels:
        raise MissingExtra("no crossover result with measured points to plot")
    columns = min(2, len(panels))
    rows = (len(panels) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(6.5 * columns, 4.2 * rows), squeeze=False)
    for axis, ((op, dtype), group) in zip(axes.flat, panels.items(), strict=False):
        cpu = sorted({(p.size, p.cpu.median_s) for r in group for p in r.points})
        axis.plot([s for s, _ in cpu], [t * 1e3 for _, t in cpu], "k-o", label="CPU", markersize=3)
        for result in group:
            points = sorted(result.points, key=lambda p: p.size)
            line, = axis.plot([p.size for p in points], [p.gpu.median_s * 1e3 for p in points], "-o", markersize=3,
                              label=f"GPU, {MODE_LABELS[result.mode]}")
            if result.crossover_size and not result.gpu_always_wins:
                axis.axvline(result.crossover_size, color=line.get_color(), linestyle=":", linewidth=1)
        axis.set(xscale="log", yscale="log", xlabel=group[0].size_unit, ylabel="time per op (ms)",
                 title=f"{op} {dtype} (dotted: crossover)")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=7)
    for axis in list(axes.flat)[len(panels):]:
        axis.set_visible(False)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write_tensorboard(results: list[CrossoverResult], directory: Path) -> None:
    """CPU and GPU time (ms) as add_scalars curves, with the size as the step, one tag per op/dtype/mode."""
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        raise MissingExtra("--tensorboard needs tensorboard: pip install 'gpu-advisor[tensorboard]'") from None
    writer = SummaryWriter(log_dir=str(directory))
    try:
        for result in _ok(results):
            for point in sorted(result.points, key=lambda p: p.size):
                writer.add_scalars(f"crossover/{result.op}_{result.dtype}/{result.mode}",
                                   {"cpu_ms": point.cpu.median_s * 1e3, "gpu_ms": point.gpu.median_s * 1e3},
                                   global_step=point.size)
    finally:
        writer.close()
