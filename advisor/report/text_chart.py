"""A log-log scatter chart in plain text, for terminals and Markdown code blocks (no plotting library)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional


@dataclass
class Series:
    label: str
    marker: str  # one character
    points: list[tuple[float, float]]  # (x, y), both > 0


def _scale(value: float, low: float, high: float, cells: int) -> int:
    if high <= low:
        return 0
    position = (math.log10(value) - math.log10(low)) / (math.log10(high) - math.log10(low))
    return min(cells - 1, max(0, round(position * (cells - 1))))


def _tick(value: float) -> str:
    for unit, size in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if value >= size:
            return f"{value / size:.3g}{unit}"
    return f"{value * 1e9:.3g}ns"


def text_chart(series: list[Series], *, x_label: str, marker_x: Optional[float] = None,
               width: int = 64, height: int = 14) -> str:
    """Times (y, seconds) against sizes (x); ``marker_x`` draws a vertical line at the crossover."""
    xs = [x for s in series for x, _ in s.points if x > 0]
    ys = [y for s in series for _, y in s.points if y > 0]
    if not xs or not ys:
        return ""
    x_low, x_high, y_low, y_high = min(xs), max(xs), min(ys), max(ys)
    grid = [[" "] * width for _ in range(height)]
    if marker_x is not None and x_low <= marker_x <= x_high:
        column = _scale(marker_x, x_low, x_high, width)
        for row in grid:
            row[column] = "|"
    for item in series:
        for x, y in item.points:
            if x > 0 and y > 0:
                row = height - 1 - _scale(y, y_low, y_high, height)
                column = _scale(x, x_low, x_high, width)
                grid[row][column] = "*" if grid[row][column] not in (" ", "|", item.marker) else item.marker
    y_ticks = {0: _tick(y_high), height - 1: _tick(y_low), (height - 1) // 2: _tick(math.sqrt(y_high * y_low))}
    lines = [f"{y_ticks.get(i, ''):>8} |{''.join(row)}" for i, row in enumerate(grid)]
    lines.append(" " * 9 + "+" + "-" * width)
    left, right = f"{x_low:g}", f"{x_high:g}"
    lines.append(" " * 10 + left + x_label.center(width - len(left) - len(right)) + right)
    legend = "   ".join(f"{s.marker} {s.label}" for s in series)
    if marker_x is not None:
        legend += f"   | crossover at {marker_x:g}"
    lines.append(" " * 10 + legend + "   (* = overlap)")
    return "\n".join(lines)
