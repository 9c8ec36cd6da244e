"""CPU load around each CPU-timed measurement: a number timed while other processes held the cores is marked,
never "stable", and said so in the report (the readings come from advisor.probe.load, handed in)."""

from __future__ import annotations

from typing import Any, Callable, Optional

from advisor.models.measurements import CpuLoad


class CpuLoadWatch:
    """Readings of the CPU's load around each CPU-timed measurement (``probe`` is advisor.probe.load)."""

    def __init__(self, probe: Any) -> None:
        self.probe = probe
        self.cores = probe.usable_cores()
        self.first = probe.read_load()
        self.contended: list[str] = []
        self.own_share: Optional[float] = None
        self._worst: Any = None

    def watch(self, name: str, fn: Callable[[], Any], *, parallel: bool = False) -> tuple[Any, bool]:
        """(fn(), whether the CPU was contended meanwhile). ``parallel``: fn keeps torch's threads busy; its own CPU
        time over wall time is recorded (not decided on: see probe/load.py)."""
        import torch

        before = self.probe.read_load()
        value = fn()
        span = self.probe.between(before, self.probe.read_load(), self.cores)
        contended = span.contended
        if parallel:
            share = span.own_cores / max(1, min(torch.get_num_threads(), self.cores))
            self.own_share = share if self.own_share is None else min(self.own_share, share)
        if contended:
            self.contended.append(f"{name} ({span.describe()})")
            if self._worst is None or (span.others_busy_cores or 0) > (self._worst.others_busy_cores or 0):
                self._worst = span
        return value, contended

    def summary(self) -> CpuLoad:
        whole = self.probe.between(self.first, self.probe.read_load(), self.cores)
        worst = self._worst or whole
        return CpuLoad(usable_cores=self.cores, load_avg_1m=self.probe.load_average(),
                       others_busy_cores=worst.others_busy_cores, steal_fraction=whole.steal_fraction,
                       own_cpu_share=self.own_share, contended=bool(self.contended),
                       contended_measurements=list(dict.fromkeys(self.contended)))


def mark_contended(result: Any) -> None:
    """A crossover whose CPU side was timed under load: said so, and none of its CPU timings "stable"."""
    result.cpu_contended = True
    for point in result.points:
        point.cpu.contended, point.cpu.stable = True, False
