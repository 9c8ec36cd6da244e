"""The CPU: model, topology, the cores this process may really use, performance-relevant flags, L3, NUMA.

Linux answers from /proc and /sys (no subprocess); other systems get what ``platform`` and ``os`` know, and
the rest is recorded as unavailable rather than guessed.
"""

from __future__ import annotations

import math
import os
import platform
import re
from pathlib import Path
from typing import Optional

from advisor.models.common import Fact, missing

_SYS_CPU = Path("/sys/devices/system/cpu")
_SYS_NODE = Path("/sys/devices/system/node")
_CGROUP_ROOT = Path("/sys/fs/cgroup")

#: Flags that decide which CPU kernels torch can use (its cpu_capability) or how fast a CPU baseline is.
X86_FLAGS = (
    "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16",
    "avx512_fp16", "avx_vnni", "amx_tile", "amx_bf16", "amx_int8", "amx_fp16",
)
ARM_FLAGS = ("asimd", "asimdhp", "asimddp", "sve", "sve2", "bf16", "i8mm", "svebf16", "svei8mm", "sme", "sme2")

# /proc/cpuinfo on ARM names the implementer and part by number only.
_ARM_IMPLEMENTERS = {
    0x41: "ARM", 0x42: "Broadcom", 0x48: "HiSilicon", 0x4E: "NVIDIA", 0x51: "Qualcomm", 0x61: "Apple",
    0xC0: "Ampere",
}
_ARM_PARTS = {
    (0x41, 0xD0C): "Neoverse-N1", (0x41, 0xD40): "Neoverse-V1", (0x41, 0xD49): "Neoverse-N2",
    (0x41, 0xD4F): "Neoverse-V2", (0x41, 0xD84): "Neoverse-V3", (0x41, 0xD8E): "Neoverse-N3",
    (0x41, 0xD08): "Cortex-A72", (0x41, 0xD0B): "Cortex-A76", (0x4E, 0x004): "Carmel",
}


def read_text(path: Path) -> Optional[str]:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return None


def parse_cpuinfo(text: str) -> list[dict[str, str]]:
    """One dict per block of /proc/cpuinfo (one per logical CPU on x86 and ARM)."""
    blocks: list[dict[str, str]] = []
    current: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            if current:
                blocks.append(current)
                current = {}
            continue
        key, sep, value = line.partition(":")
        if sep:
            current[key.strip()] = value.strip()
    if current:
        blocks.append(current)
    return blocks


def _int(text: Optional[str], base: int = 10) -> Optional[int]:
    try:
        return int(text.strip(), base) if text is not None else None
    except ValueError:
        return None


def cpu_model_and_vendor(blocks: list[dict[str, str]]) -> tuple[Fact[str], Fact[str]]:
    first = blocks[0] if blocks else {}
    vendor: Fact[str] = first.get("vendor_id") or missing("/proc/cpuinfo names no vendor")
    model: Fact[str] = first.get("model name") or first.get("cpu model") or missing("/proc/cpuinfo names no model")
    implementer = _int(first.get("CPU implementer"), 0)
    if implementer is not None:  # ARM
        vendor = _ARM_IMPLEMENTERS.get(implementer, f"implementer 0x{implementer:02x}")
        part = _int(first.get("CPU part"), 0)
        if "model name" not in first and part is not None:
            model = _ARM_PARTS.get((implementer, part), f"{vendor} part 0x{part:03x}")
    if not blocks:
        processor = platform.processor()
        model = processor or missing("the OS does not report a CPU model")
        vendor = missing("the OS does not report a CPU vendor")
    return model, vendor


def _sysfs_topology() -> list[tuple[int, int]]:
    pairs = []
    for topology in _SYS_CPU.glob("cpu[0-9]*/topology"):
        package = _int(read_text(topology / "physical_package_id"))
        core = _int(read_text(topology / "core_id"))
        if package is not None and core is not None:
            pairs.append((package, core))
    return pairs


def sockets_and_cores(blocks: list[dict[str, str]]) -> tuple[Fact[int], Fact[int]]:
    pairs = [(b["physical id"], b["core id"]) for b in blocks if "physical id" in b and "core id" in b]
    if not pairs:
        pairs = _sysfs_topology()  # type: ignore[assignment]
    if not pairs:
        reason = missing("CPU topology not reported by /proc/cpuinfo or /sys")
        return reason, reason
    return len({package for package, _ in pairs}), len(set(pairs))


def cpu_flags(blocks: list[dict[str, str]]) -> Fact[list[str]]:
    if not blocks:
        return missing("CPU flags are only read from /proc/cpuinfo (Linux)")
    present = set((blocks[0].get("flags") or blocks[0].get("Features") or "").split())
    if not present:
        return missing("/proc/cpuinfo lists no CPU flags")
    return [flag for flag in X86_FLAGS + ARM_FLAGS if flag in present]


def parse_cache_size(text: str) -> Optional[int]:
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)B?\s*", text, re.IGNORECASE)
    if not match:
        return None
    return int(match.group(1)) * {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}[match.group(2).upper()]


def l3_cache_bytes(blocks: list[dict[str, str]]) -> Fact[int]:
    """Total L3 over all its instances (what lscpu calls "L3: 64 MiB (2 instances)")."""
    level3 = [index.name for index in (_SYS_CPU / "cpu0" / "cache").glob("index[0-9]*")
              if (read_text(index / "level") or "").strip() == "3"]
    if level3:
        instances: dict[str, int] = {}
        for cache in _SYS_CPU.glob(f"cpu[0-9]*/cache/{level3[0]}"):
            shared, size = read_text(cache / "shared_cpu_list"), read_text(cache / "size")
            parsed = parse_cache_size(size) if size else None
            if shared is not None and parsed is not None:
                instances[shared.strip()] = parsed
        if instances:
            return sum(instances.values())
    if blocks and "cache size" in blocks[0]:  # x86 without sysfs caches: the size one core sees
        parsed = parse_cache_size(blocks[0]["cache size"])
        if parsed is not None:
            return parsed
    return missing("L3 size not reported (no L3, or not Linux)")


def numa_nodes() -> Fact[int]:
    if not _SYS_NODE.is_dir():
        return missing("NUMA topology is only read from /sys (Linux)")
    return len(list(_SYS_NODE.glob("node[0-9]*"))) or 1


def _cgroup_quota_cores(cgroup_text: Optional[str], root: Path = _CGROUP_ROOT) -> Optional[float]:
    """The tightest CPU quota (in CPUs) on this process's cgroup or its ancestors, v2 or v1; None if unlimited."""
    if cgroup_text is None:
        return None
    limits: list[float] = []
    for line in cgroup_text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            mount, files = root, ("cpu.max",)
        elif "cpu" in controllers.split(","):
            mount = next((p for p in (root / "cpu", root / "cpu,cpuacct", root / "cpuacct,cpu") if p.is_dir()), None)
            if mount is None:
                continue
            files = ("cpu.cfs_quota_us", "cpu.cfs_period_us")
        else:
            continue
        # Inside a container the path may name the host's hierarchy while the mount shows only ours: try the
        # path, each ancestor, and the mount root.
        relative = Path(path.lstrip("/"))
        for directory in {mount / relative, *(mount / parent for parent in relative.parents)}:
            limit = _read_quota(directory, files)
            if limit is not None:
                limits.append(limit)
    return min(limits) if limits else None


def _read_quota(directory: Path, files: tuple[str, ...]) -> Optional[float]:
    if len(files) == 1:  # v2: "max 100000" or "200000 100000"
        text = read_text(directory / files[0])
        fields = text.split() if text else []
        if len(fields) == 2 and fields[0] != "max":
            quota, period = _int(fields[0]), _int(fields[1])
            return quota / period if quota and period else None
        return None
    quota, period = _int(read_text(directory / files[0])), _int(read_text(directory / files[1]))
    if quota is None or period is None or quota <= 0 or period <= 0:  # -1: unlimited
        return None
    return quota / period


def usable_cores() -> Fact[int]:
    if hasattr(os, "process_cpu_count"):  # Python 3.13+: affinity-aware
        cores = os.process_cpu_count()
    elif hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0))
    else:
        cores = os.cpu_count()
    if cores is None:
        return missing("the OS does not report a CPU count")
    quota = _cgroup_quota_cores(read_text(Path("/proc/self/cgroup")))
    if quota is not None:
        # A quota of 1.5 CPUs lets two threads run part of the time: round up, as Go and Java runtimes do.
        cores = min(cores, max(1, math.ceil(quota)))
    return cores
