"""The host probe on this machine returns sane real values; its parsers read the formats they meet."""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

import pytest

from advisor.models.common import is_missing
from advisor.probe import cpu
from advisor.probe.host import parse_meminfo, parse_os_release, probe_host

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc and /sys")


@pytest.fixture(scope="module")
def host():
    return probe_host()


def test_python_and_platform_match_this_interpreter(host):
    assert host.python_version == platform.python_version()
    assert host.python_implementation == platform.python_implementation()
    assert host.system == platform.system()
    assert host.machine == platform.machine()
    assert host.logical_cores == os.cpu_count()


def test_core_counts_are_consistent(host):
    assert 1 <= host.usable_cores <= host.logical_cores
    if not is_missing(host.physical_cores):
        assert 1 <= host.physical_cores <= host.logical_cores
        assert 1 <= host.cpu_sockets <= host.physical_cores


@linux_only
def test_linux_facts_are_read(host):
    assert isinstance(host.os, str) and host.os
    assert host.is_wsl in (True, False)
    assert 0 < host.memory_available_bytes <= host.memory_total_bytes
    assert host.numa_nodes >= 1
    assert isinstance(host.cpu_model, str) and host.cpu_model
    # Only performance-relevant flags are kept, never the whole /proc/cpuinfo list.
    assert set(host.cpu_flags) <= set(cpu.X86_FLAGS + cpu.ARM_FLAGS)
    if host.cpu_vendor in ("GenuineIntel", "AuthenticAMD"):
        assert "avx" in host.cpu_flags or "sse4_2" in host.cpu_flags
    usable = len(os.sched_getaffinity(0))
    assert host.usable_cores <= usable


def test_hostname_is_recorded(host):
    import socket

    assert host.hostname == socket.gethostname()


def test_os_release_parsing():
    text = 'NAME="Ubuntu"\nVERSION="22.04.4 LTS (Jammy Jellyfish)"\nPRETTY_NAME="Ubuntu 22.04.4 LTS"\nID=ubuntu\n'
    assert parse_os_release(text)["PRETTY_NAME"] == "Ubuntu 22.04.4 LTS"
    assert parse_os_release(text)["ID"] == "ubuntu"


def test_meminfo_parsing_converts_kib():
    values = parse_meminfo("MemTotal:       24684084 kB\nMemAvailable:   24321060 kB\nHugePages_Total:       0\n")
    assert values == {"MemTotal": 24684084 * 1024, "MemAvailable": 24321060 * 1024, "HugePages_Total": 0}


def test_cache_size_parsing():
    assert cpu.parse_cache_size("107520K") == 107520 * 1024
    assert cpu.parse_cache_size("32 MB") == 32 * 1024**2
    assert cpu.parse_cache_size("1024 KB") == 1024 * 1024
    assert cpu.parse_cache_size("n/a") is None


@linux_only
def test_cpuinfo_of_this_machine_parses_into_one_block_per_cpu():
    blocks = cpu.parse_cpuinfo(Path("/proc/cpuinfo").read_text())
    assert len(blocks) == os.cpu_count()


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_cgroup_v2_quota_is_the_tightest_on_the_path(tmp_path):
    _write(tmp_path / "cpu.max", "max 100000\n")
    _write(tmp_path / "job" / "cpu.max", "400000 100000\n")
    _write(tmp_path / "job" / "step" / "cpu.max", "150000 100000\n")
    assert cpu._cgroup_quota_cores("0::/job/step\n", root=tmp_path) == 1.5
    assert cpu._cgroup_quota_cores("0::/\n", root=tmp_path) is None


def test_cgroup_v1_quota_and_unlimited(tmp_path):
    _write(tmp_path / "cpu" / "cpu.cfs_quota_us", "-1\n")
    _write(tmp_path / "cpu" / "cpu.cfs_period_us", "100000\n")
    text = "4:memory:/x\n1:cpu,cpuacct:/\n0::/\n"
    assert cpu._cgroup_quota_cores(text, root=tmp_path) is None
    _write(tmp_path / "cpu" / "cpu.cfs_quota_us", "200000\n")
    assert cpu._cgroup_quota_cores(text, root=tmp_path) == 2.0
