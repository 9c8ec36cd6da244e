"""Build-tool versions: concurrent, bounded by one timeout, absent tools said plainly."""

from __future__ import annotations

import shutil
import sys
import time

import pytest

from advisor.models.common import missing
from advisor.probe.tools import parse_version, tool_versions

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="uses shell scripts as fake tools")


def _script(directory, name: str, body: str) -> None:
    path = directory / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


@posix_only
def test_a_hanging_tool_times_out_and_absent_tools_are_named(tmp_path, monkeypatch):
    # A wrapper that leaves a grandchild holding the output pipe: killing only the shell would still block.
    _script(tmp_path, "gcc", "/bin/sleep 30 &\nexec /bin/sleep 30")
    _script(tmp_path, "cmake", 'echo "cmake version 3.27.9"')
    monkeypatch.setenv("PATH", str(tmp_path))
    start = time.monotonic()
    versions = tool_versions()
    elapsed = time.monotonic() - start
    assert versions["gcc_version"] == missing("timed out after 2 s")
    assert versions["cmake_version"] == "3.27.9"
    assert versions["clang_version"] == missing("clang not found on PATH")
    assert versions["nvcc_version"] == missing("nvcc not found on PATH")
    assert 1.9 <= elapsed < 3.0


@posix_only
def test_a_failing_tool_reports_its_status(tmp_path, monkeypatch):
    _script(tmp_path, "clang", 'echo "clang: licence server unreachable" >&2; exit 3')
    monkeypatch.setenv("PATH", str(tmp_path))
    reason = tool_versions()["clang_version"]
    assert reason == missing("`clang --version` exited with status 3: clang: licence server unreachable")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc here")
def test_real_gcc_version_is_read():
    version = tool_versions()["gcc_version"]
    assert isinstance(version, str) and version[0].isdigit()


@pytest.mark.parametrize(("tool", "output", "expected"), [
    ("gcc", "gcc (Debian 12.2.0-14+deb12u1) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc.\n", "12.2.0"),
    ("gcc", "gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0\n", "11.4.0"),
    ("clang", "Ubuntu clang version 14.0.0-1ubuntu1.1\nTarget: x86_64-pc-linux-gnu\n", "14.0.0"),
    ("clang", "Apple clang version 15.0.0 (clang-1500.3.9.4)\n", "15.0.0"),
    ("cmake", "cmake version 3.25.1\n\nCMake suite maintained and supported by Kitware (kitware.com/cmake).\n",
     "3.25.1"),
    ("nvcc", "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2025 NVIDIA Corporation\n"
             "Built on Wed_Aug_20_01:58:59_PM_PDT_2025\nCuda compilation tools, release 13.0, V13.0.88\n"
             "Build cuda_13.0.r13.0/compiler.36424714_0\n", "13.0.88"),
    ("nvcc", "Cuda compilation tools, release 9.0\n", "9.0"),
])
def test_version_lines_parse(tool, output, expected):
    assert parse_version(tool, output) == expected
