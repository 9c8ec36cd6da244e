"""HostFacts from collect_env's OS, compiler, Python and CPU lines.

The CPU block is whatever collect_env's platform command printed: lscpu on Linux, Win32_Processor properties
on Windows ("Name: ..." from powershell since 2.2, "Name=..." from wmic before), sysctl's brand string on macOS.
"""

from __future__ import annotations

import re
from typing import Optional

from advisor.ingest.collect_env_fields import RawCollectEnv
from advisor.ingest.shell import unavailable_model
from advisor.ingest.values import first_version, is_no_value, parse_int, printed_as
from advisor.models.common import Fact, missing
from advisor.models.facts import HostFacts

TOOL = "collect_env"
NOT_IN = "not in collect_env output"
#: The same performance-relevant flags the live probe keeps (advisor/probe/cpu.py), so rules see one vocabulary.
PERF_FLAGS = (
    "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16",
    "avx512_fp16", "avx_vnni", "amx_tile", "amx_bf16", "amx_int8", "amx_fp16",
    "asimd", "asimdhp", "asimddp", "sve", "sve2", "bf16", "i8mm", "svebf16", "svei8mm", "sme", "sme2",
)
_MACHINES = ("x86_64", "aarch64", "arm64", "ppc64le", "s390x", "riscv64", "i686", "i386", "armv7l", "AMD64")
_LSCPU_SIZE = re.compile(r"^(?P<number>[\d.,]{1,20}) ?(?P<unit>[KMG]i?B?)? ?\((?P<count>\d{1,6}) instances?\)$", re.I)
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def host_facts(raw: RawCollectEnv) -> HostFacts:
    os_name, os_machine = _os_and_machine(raw.value("OS"))
    platform_text = raw.value("Python platform")
    system = _system(platform_text, raw.value("OS"))
    kernel, platform_machine = _kernel_and_machine(platform_text)
    machine = os_machine or platform_machine
    cpu = _cpu_facts(raw)
    return unavailable_model(
        HostFacts, NOT_IN,
        os=_value_or_reason(os_name, raw.value("OS")),
        system=system if system else missing(NOT_IN),
        kernel=kernel,
        machine=machine if machine else missing("collect_env printed no machine architecture"),
        libc=_libc(raw.value("Libc version")),
        is_wsl=_is_wsl(system, kernel),
        python_version=_python_version(raw.value("Python version")),
        python_platform=_value_or_reason(platform_text, platform_text),
        gcc_version=_tool_version(raw.value("GCC version"), "gcc"),
        clang_version=_tool_version(raw.value("Clang version"), "clang"),
        cmake_version=_tool_version(raw.value("CMake version"), "cmake"),
        nvcc_version=_nvcc(raw.value("CUDA runtime version")),
        **cpu,
    )


def _value_or_reason(value: Optional[str], printed: Optional[str]) -> Fact[str]:
    if printed is None:
        return missing(NOT_IN)
    if value is None or is_no_value(value):
        return missing(printed_as(printed, TOOL))
    return value


def _os_and_machine(text: Optional[str]) -> tuple[Optional[str], Optional[str]]:
    if text is None or is_no_value(text):
        return text, None
    # "Ubuntu 22.04.4 LTS (x86_64)", "Microsoft Windows 11 Pro (10.0.26200 64-Bit)": the last "(...)" group.
    head, bracket, tail = text.rpartition("(")
    if bracket and tail.endswith(")"):
        inside = tail[:-1]
        if inside in _MACHINES:
            return head.rstrip(), inside
        version = inside.split(" ", 1)[0]
        if version.count(".") >= 2 and version.replace(".", "").isdecimal():
            return head.rstrip(), None
    return text, None


def _system(platform_text: Optional[str], os_text: Optional[str]) -> Optional[str]:
    probe = (platform_text or os_text or "").lower()
    if probe.startswith("linux"):
        return "Linux"
    if probe.startswith(("windows", "microsoft windows")):
        return "Windows"
    if probe.startswith(("macos", "darwin", "mac osx")):
        return "Darwin"
    return None


def _kernel_and_machine(platform_text: Optional[str]) -> tuple[Fact[str], Optional[str]]:
    """Kernel release and machine from platform.platform(), which reads "Linux-<release>-<machine>-with-<libc>",
    "Windows-11-10.0.26200-SP0" or "macOS-14.5-x86_64-i386-64bit"."""
    if not platform_text:
        return missing(NOT_IN), None
    if platform_text.startswith("Linux-"):
        body = platform_text[len("Linux-"):].split("-with-", 1)[0]
        for machine in _MACHINES:
            if body.endswith("-" + machine):
                return body[: -len(machine) - 1], machine
        return body, None
    if platform_text.startswith("Windows-"):
        parts = platform_text.split("-")
        return (parts[2] if len(parts) > 2 else missing(NOT_IN)), None
    if platform_text.startswith(("macOS-", "Darwin-")):
        machine = next((m for m in _MACHINES if f"-{m}-" in platform_text + "-"), None)
        return missing("collect_env prints the macOS version, not the Darwin kernel release"), machine
    return missing(f"collect_env's Python platform {platform_text!r} has no kernel release"), None


def _libc(text: Optional[str]) -> Fact[str]:
    if text is None:
        return missing(NOT_IN)
    if is_no_value(text) or text.strip("-") == "":
        return missing(f"{printed_as(text, TOOL)} (collect_env reads libc on Linux only)")
    # collect_env joins platform.libc_ver() with "-" ("glibc-2.39"); the probe reports "glibc 2.39".
    match = re.fullmatch(r"([A-Za-z]+)-(\d[\w.]*)", text.strip())
    return f"{match.group(1)} {match.group(2)}" if match else text


def _is_wsl(system: Optional[str], kernel: Fact[str]) -> Fact[bool]:
    if system in ("Windows", "Darwin"):
        return False  # a native Windows or macOS Python is not inside WSL
    if system == "Linux" and isinstance(kernel, str):
        return "microsoft" in kernel.lower()  # every WSL kernel release says so: "5.15.153.1-microsoft-standard-WSL2"
    return missing("no Linux kernel release in collect_env output")


def _python_version(text: Optional[str]) -> Fact[str]:
    if text is None:
        return missing(NOT_IN)
    match = re.match(r"\s*(\d+\.\d+(?:\.\d+)?)", text)
    return match.group(1) if match else missing(printed_as(text, TOOL))


def _tool_version(text: Optional[str], tool: str) -> Fact[str]:
    if text is None:
        return missing(NOT_IN)
    if is_no_value(text):
        return missing(f"collect_env could not run {tool} ({text.strip()!r})")
    version = first_version(text)
    return version if version else missing(printed_as(text, TOOL))


def _nvcc(text: Optional[str]) -> Fact[str]:
    # collect_env's "CUDA runtime version" is `nvcc --version` of the system toolkit, not torch's CUDA.
    if text is None:
        return missing(NOT_IN)
    if is_no_value(text):
        return missing(f"collect_env found no system nvcc ({text.strip()!r})")
    return text.strip()


def _cpu_facts(raw: RawCollectEnv) -> dict[str, Fact]:
    cpu = raw.fields.get("CPU")
    if cpu is None:
        return {}  # collect_env before 2.1 printed no CPU block: every CPU field stays "not in collect_env output"
    lines = cpu.lines()
    if not lines or is_no_value(lines[0]):
        reason = missing(printed_as(lines[0] if lines else "", TOOL) + " for the CPU")
        return {name: reason for name in ("cpu_model", "cpu_vendor", "cpu_sockets", "physical_cores",
                                          "logical_cores", "cpu_flags", "l3_cache_bytes", "numa_nodes")}
    entries = _key_values(lines)
    if "Model name" in entries[0] or "Architecture" in entries[0] and "CPU(s)" in entries[0]:
        return _lscpu(entries[0])
    if "Name" in entries[0]:
        return _windows(entries)
    # macOS: sysctl machdep.cpu.brand_string prints the brand string alone.
    return {"cpu_model": lines[0].strip(), "cpu_vendor": missing("collect_env prints only the CPU brand on macOS")}


def _key_values(lines: list[str]) -> list[dict[str, str]]:
    """Key/value lines, one dict per CPU package (Windows separates them with dashes); first key wins."""
    entries: list[dict[str, str]] = [{}]
    for line in lines:
        if set(line.strip()) == {"-"}:
            if entries[-1]:
                entries.append({})
            continue
        if (entry := _key_value(line)) is not None:
            entries[-1].setdefault(*entry)
    return [entry for entry in entries if entry] or [{}]


def _key_value(line: str) -> Optional[tuple[str, str]]:
    """lscpu's "Key:   value" or wmic's "Key=value": split at the first ':' or '=', with string methods."""
    cut = min((at for at in (line.find(":"), line.find("=")) if at >= 0), default=-1)
    key = line[:cut].strip() if cut > 0 else ""
    return (key, line[cut + 1:].strip()) if key else None


def _lscpu(info: dict[str, str]) -> dict[str, Fact]:
    sockets, per_socket = parse_int(info.get("Socket(s)")), parse_int(info.get("Core(s) per socket"))
    logical = parse_int(info.get("CPU(s)"))
    flags = info.get("Flags")
    return {
        "cpu_model": info.get("Model name") or missing("lscpu printed no model name"),
        "cpu_vendor": info.get("Vendor ID") or missing("lscpu printed no vendor"),
        "cpu_sockets": sockets if sockets is not None else missing("lscpu printed no socket count"),
        "physical_cores": (sockets * per_socket if sockets is not None and per_socket is not None
                           else missing("lscpu printed no sockets x cores-per-socket")),
        "logical_cores": logical if logical is not None else missing("lscpu printed no CPU(s) count"),
        "cpu_flags": ([flag for flag in PERF_FLAGS if flag in flags.split()] if flags
                      else missing("lscpu printed no flags")),
        "l3_cache_bytes": _l3_total(info.get("L3 cache")),
        "numa_nodes": parse_int(info.get("NUMA node(s)")) or missing("lscpu printed no NUMA node count"),
    }


def _l3_total(text: Optional[str]) -> Fact[int]:
    # lscpu >= 2.34 prints the sum over instances ("64 MiB (2 instances)"), the same total the probe records.
    # Older lscpu printed one instance ("30720K") without saying how many there are: no total can be derived.
    if not text:
        return missing("lscpu printed no L3 cache")
    match = _LSCPU_SIZE.match(" ".join(text.split())) if len(text) < 200 else None
    if match is None:
        return missing(f"lscpu printed L3 as {text.strip()!r}: one instance's size, not the total")
    number = float(match["number"].replace(",", "."))
    unit = (match["unit"] or "").upper()[:1]
    return int(number * _UNITS[unit])


def _windows(entries: list[dict[str, str]]) -> dict[str, Fact]:
    # One Win32_Processor entry per physical package, so their count is the socket count.
    first = entries[0]
    cores = [parse_int(entry.get("NumberOfCores")) for entry in entries]
    threads = [parse_int(entry.get("NumberOfLogicalProcessors")) for entry in entries]
    not_queried = "collect_env does not query {} on Windows"
    return {
        "cpu_model": first.get("Name") or missing("Win32_Processor printed no Name"),
        "cpu_vendor": first.get("Manufacturer") or missing("Win32_Processor printed no Manufacturer"),
        "cpu_sockets": len(entries),
        "physical_cores": (sum(cores) if all(c is not None for c in cores)
                           else missing(not_queried.format("NumberOfCores"))),
        "logical_cores": (sum(threads) if all(t is not None for t in threads)
                          else missing(not_queried.format("NumberOfLogicalProcessors"))),
        "cpu_flags": missing("collect_env prints no CPU flags on Windows"),
        "l3_cache_bytes": missing("collect_env prints only the L2 size on Windows"),
        "numa_nodes": missing("collect_env prints no NUMA topology on Windows"),
    }
