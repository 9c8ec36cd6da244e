"""The host: OS, Python, CPU, memory and build tools. Facts only; nothing here imports torch or pynvml."""

from __future__ import annotations

import os
import platform
import socket
import sys
from pathlib import Path
from typing import Optional

from advisor.models.common import Fact, Unavailable, missing
from advisor.models.facts import HostFacts
from advisor.probe import cpu
from advisor.probe.tools import ToolVersions


def parse_os_release(text: str) -> dict[str, str]:
    values = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            values[key.strip()] = value.strip().strip('"').strip("'")
    return values


def os_name() -> Fact[str]:
    system = platform.system()
    if system == "Windows":
        return f"Windows {platform.release()} ({platform.version()})"
    if system == "Darwin":
        return f"macOS {platform.mac_ver()[0]}"
    for path in (Path("/etc/os-release"), Path("/usr/lib/os-release")):
        text = cpu.read_text(path)
        if text:
            release = parse_os_release(text)
            name = release.get("PRETTY_NAME") or " ".join(filter(None, (release.get("NAME"), release.get("VERSION"))))
            if name:
                return name
    return f"{system} (no os-release file)" if system else missing("the OS does not name itself")


def libc() -> Fact[str]:
    try:
        version = os.confstr("CS_GNU_LIBC_VERSION")  # "glibc 2.36", without scanning the executable
    except (AttributeError, ValueError, OSError):
        version = None
    if version:
        return version
    name, version = platform.libc_ver()
    if name:
        return f"{name} {version}".strip()
    if platform.system() == "Linux":
        return missing("not glibc (musl or another libc that does not report its version)")
    return missing(f"no separate libc on {platform.system()}")


def is_wsl() -> Fact[bool]:
    if platform.system() != "Linux":
        return False
    release = (cpu.read_text(Path("/proc/sys/kernel/osrelease")) or platform.release()).lower()
    return "microsoft" in release or "wsl" in release or "WSL_DISTRO_NAME" in os.environ


def parse_meminfo(text: str) -> dict[str, int]:
    values = {}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        fields = rest.split()
        if fields and fields[0].isdigit():
            values[key.strip()] = int(fields[0]) * (1024 if fields[1:2] == ["kB"] else 1)
    return values


def memory() -> tuple[Fact[int], Fact[int]]:
    text = cpu.read_text(Path("/proc/meminfo"))
    if text:
        info = parse_meminfo(text)
        total = info.get("MemTotal")
        available = info.get("MemAvailable")
        return (total if total is not None else missing("/proc/meminfo has no MemTotal"),
                available if available is not None else missing("/proc/meminfo has no MemAvailable (kernel < 3.14)"))
    if sys.platform == "win32":
        return _windows_memory()
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        total = None
    return (total if total else missing("the OS does not report its memory"),
            missing(f"available memory is only read from /proc/meminfo (not on {platform.system()})"))


def _windows_memory() -> tuple[Fact[int], Fact[int]]:
    import ctypes

    class MemoryStatus(ctypes.Structure):
        _fields_ = [("dwLength", ctypes.c_ulong), ("dwMemoryLoad", ctypes.c_ulong),
                    ("ullTotalPhys", ctypes.c_ulonglong), ("ullAvailPhys", ctypes.c_ulonglong),
                    ("ullTotalPageFile", ctypes.c_ulonglong), ("ullAvailPageFile", ctypes.c_ulonglong),
                    ("ullTotalVirtual", ctypes.c_ulonglong), ("ullAvailVirtual", ctypes.c_ulonglong),
                    ("ullAvailExtendedVirtual", ctypes.c_ulonglong)]

    status = MemoryStatus(dwLength=ctypes.sizeof(MemoryStatus))
    if not ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined]
        reason = missing("GlobalMemoryStatusEx failed")
        return reason, reason
    return status.ullTotalPhys, status.ullAvailPhys


def _guard(function, *args) -> Fact:  # type: ignore[no-untyped-def]
    """One broken /proc file or odd platform must cost one fact, not the whole host section."""
    try:
        return function(*args)
    except Exception as error:  # noqa: BLE001
        return missing(f"{type(error).__name__}: {error}")


def _pair(function) -> tuple[Fact, Fact]:  # type: ignore[no-untyped-def]
    result = _guard(function)
    return (result, result) if isinstance(result, Unavailable) else result


def probe_host(tools: Optional[ToolVersions] = None) -> HostFacts:
    # Start the build tools first: they run in their own processes while the files below are read.
    tools = tools or ToolVersions()
    cpuinfo = cpu.read_text(Path("/proc/cpuinfo"))
    blocks = cpu.parse_cpuinfo(cpuinfo) if cpuinfo else []
    model, vendor = _pair(lambda: cpu.cpu_model_and_vendor(blocks))
    sockets, physical = _pair(lambda: cpu.sockets_and_cores(blocks))
    total, available = _pair(memory)
    hostname = _guard(socket.gethostname)
    return HostFacts(
        os=_guard(os_name),
        system=platform.system() or missing("platform.system() is empty"),
        kernel=platform.release() or missing("platform.release() is empty"),
        machine=platform.machine() or missing("platform.machine() is empty"),
        libc=_guard(libc),
        is_wsl=_guard(is_wsl),
        python_version=platform.python_version(),
        python_implementation=platform.python_implementation(),
        python_platform=_guard(platform.platform),
        cpu_model=model,
        cpu_vendor=vendor,
        cpu_sockets=sockets,
        physical_cores=physical,
        logical_cores=os.cpu_count() or missing("os.cpu_count() returned None"),
        usable_cores=_guard(cpu.usable_cores),
        cpu_flags=_guard(cpu.cpu_flags, blocks),
        l3_cache_bytes=_guard(cpu.l3_cache_bytes, blocks),
        numa_nodes=_guard(cpu.numa_nodes),
        memory_total_bytes=total,
        memory_available_bytes=available,
        hostname=hostname or missing("empty host name"),
        **tools.results(),
    )
