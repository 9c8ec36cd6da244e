"""How busy the CPU is with other work: is a CPU timing taken now a fact about the machine, or about its load?

Three signals, from what Linux reports (no psutil):
- other processes' CPU time on the CPUs we may run on, during the timed work: busy time of those CPUs in
  /proc/stat minus our own process's CPU time (os.times), over the wall time -- in cores;
- steal time (/proc/stat), where a hypervisor gives our virtual CPUs' time to other guests;
- our own CPU time over wall time of a loop that should keep torch's threads busy (a large matmul), recorded but
  not used to decide: on a 16-vCPU VM with hyperthreads, MKL keeps 8 of torch's 16 threads busy (share 0.52)
  with nothing else running.
The 1-minute load average is reported for context (it lags, and counts our own threads).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

#: Other processes using more than this share of our usable cores (and at least MIN_OTHERS_CORES) is contention.
OTHERS_SHARE = 0.25
MIN_OTHERS_CORES = 0.2
#: Steal above this share of CPU time is contention (a busy hypervisor). Lent H100/H200 VMs showed 2% steal over
#: a whole run and 5-10% within single 0.2 s crossovers whose numbers repeated fine: that is not called contention.
STEAL_SHARE = 0.2
_PROC_STAT = Path("/proc/stat")


@dataclass(frozen=True)
class LoadSample:
    """One reading: cumulative CPU seconds, so two readings give what happened between them."""

    wall: float
    busy_s: Optional[float]  # busy time of our usable CPUs (all of their non-idle time, steal excluded)
    steal_s: Optional[float]
    total_s: Optional[float]
    own_s: float  # our process's user + system time, all threads


@dataclass(frozen=True)
class LoadBetween:
    wall_s: float
    usable_cores: float
    others_busy_cores: Optional[float]
    steal_fraction: Optional[float]
    own_cores: float

    @property
    def contended(self) -> bool:
        others = self.others_busy_cores is not None and \
            self.others_busy_cores > max(MIN_OTHERS_CORES, OTHERS_SHARE * self.usable_cores)
        steal = self.steal_fraction is not None and self.steal_fraction > STEAL_SHARE
        return others or steal

    def describe(self) -> str:
        parts = []
        if self.others_busy_cores is not None:
            parts.append(f"other processes used {self.others_busy_cores:.1f} of {self.usable_cores:g} usable cores")
        if self.steal_fraction is not None and self.steal_fraction > 0.005:
            parts.append(f"{self.steal_fraction:.0%} of CPU time stolen by the hypervisor")
        return ", ".join(parts) or "no load reading"


def usable_cores() -> float:
    """CPUs this process may run on: its affinity, capped by a cgroup v2 CPU quota where one is set."""
    try:
        cores: float = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = float(os.cpu_count() or 1)
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
        if quota != "max":
            cores = min(cores, int(quota) / int(period))
    except (OSError, ValueError):
        pass
    return cores


def _cpu_lines(cpus: set[int]) -> tuple[Optional[float], Optional[float], Optional[float]]:
    """(busy, steal, total) seconds of the given CPUs since boot, from /proc/stat; Nones where unreadable."""
    try:
        lines = _PROC_STAT.read_text().splitlines()
    except OSError:
        return None, None, None
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    busy = steal = total = 0.0
    seen = False
    for line in lines:
        name, _, rest = line.partition(" ")
        if not name.startswith("cpu") or name == "cpu" or not name[3:].isdigit() or int(name[3:]) not in cpus:
            continue
        fields = [float(v) for v in rest.split()]
        # user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
        stolen = fields[7] if len(fields) > 7 else 0.0
        everything = sum(fields[:8])
        busy += everything - idle - stolen
        steal += stolen
        total += everything
        seen = True
    if not seen:
        return None, None, None
    return busy / ticks, steal / ticks, total / ticks


def _usable_cpu_ids() -> set[int]:
    try:
        return set(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return set(range(os.cpu_count() or 1))


def read_load() -> LoadSample:
    busy, steal, total = _cpu_lines(_usable_cpu_ids())
    times = os.times()
    return LoadSample(wall=time.perf_counter(), busy_s=busy, steal_s=steal, total_s=total,
                      own_s=times.user + times.system)


def between(before: LoadSample, after: LoadSample, cores: Optional[float] = None) -> LoadBetween:
    wall = max(after.wall - before.wall, 1e-9)
    own = max(0.0, after.own_s - before.own_s)
    others = steal = None
    if before.busy_s is not None and after.busy_s is not None:
        # /proc/stat ticks at 100 Hz: over short stretches the busy time is coarse, so it is clamped at zero.
        others = max(0.0, (after.busy_s - before.busy_s) - own) / wall
    if before.steal_s is not None and after.steal_s is not None and before.total_s is not None \
            and after.total_s is not None and after.total_s > before.total_s:
        steal = (after.steal_s - before.steal_s) / (after.total_s - before.total_s)
    return LoadBetween(wall_s=wall, usable_cores=cores or usable_cores(), others_busy_cores=others,
                       steal_fraction=steal, own_cores=own / wall)


def load_average() -> Optional[float]:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None
