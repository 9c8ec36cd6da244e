"""Versions of build tools on PATH (gcc, clang, cmake, nvcc), asked concurrently and never waited on for long.

A tool that hangs (a wrapper script waiting on a licence server, a network home directory) must not hold the
report up: every tool gets the same deadline, and one that misses it is killed with its whole process group.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Optional

from advisor.models.common import Fact, missing

TOOL_TIMEOUT_S = 2.0
_GRACE_S = 0.1

#: Fact name -> executable. Each is run as ``<tool> --version``.
TOOLS = {"gcc_version": "gcc", "clang_version": "clang", "cmake_version": "cmake", "nvcc_version": "nvcc"}

# "Cuda compilation tools, release 13.0, V13.0.88": the V-number is the full one; older nvcc lack it.
_NVCC_FULL = re.compile(r"\bV(\d+\.\d+\.\d+)")
_NVCC_RELEASE = re.compile(r"release (\d+\.\d+)")
_VERSION = re.compile(r"\b(\d+\.\d+(?:\.\d+)?)\b")
_SAYS_VERSION = re.compile(r"\bversion (\d+\.\d+(?:\.\d+)?)\b")


@dataclass
class _Running:
    tool: str
    process: Optional[subprocess.Popen] = None
    result: Optional[Fact[str]] = None


def parse_version(tool: str, output: str) -> Optional[str]:
    if tool == "nvcc":
        match = _NVCC_FULL.search(output) or _NVCC_RELEASE.search(output)
        return match.group(1) if match else None
    lines = [line for line in output.splitlines() if line.strip()]
    if not lines:
        return None
    # "cmake version 3.25.1", "Apple clang version 15.0.0 (clang-1500.3.9.4)": the number after "version";
    # "gcc (Debian 12.2.0-14) 12.2.0": otherwise the last dotted number of the first line.
    says = _SAYS_VERSION.search(lines[0])
    if says:
        return says.group(1)
    numbers = _VERSION.findall(lines[0])
    return numbers[-1] if numbers else None


def _start(tool: str) -> _Running:
    path = shutil.which(tool)
    if path is None:
        return _Running(tool, result=missing(f"{tool} not found on PATH"))
    env = dict(os.environ, LC_ALL="C")  # untranslated output, so the version line parses everywhere
    try:
        process = subprocess.Popen(
            [path, "--version"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, text=True, errors="replace",
            # Own process group, so a wrapper script and whatever it started can be killed together.
            start_new_session=(sys.platform != "win32"),
        )
    except OSError as error:
        return _Running(tool, result=missing(f"could not run {tool}: {error}"))
    return _Running(tool, process=process)


def _kill(process: subprocess.Popen) -> None:
    try:
        if sys.platform != "win32":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except OSError:
        pass
    try:
        process.wait(timeout=1.0)
    except subprocess.TimeoutExpired:
        pass
    # A grandchild could still hold the pipes open: close them instead of reading to EOF.
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def _finish(running: _Running, deadline: float, timeout_s: float) -> Fact[str]:
    if running.result is not None:
        return running.result
    process = running.process
    assert process is not None
    try:
        # A small grace even past the deadline: a tool that finished while an earlier one hung is not late.
        out, err = process.communicate(timeout=max(_GRACE_S, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        _kill(process)
        return missing(f"timed out after {timeout_s:g} s")
    if process.returncode != 0:
        first = (err or out or "").strip().splitlines()[:1]
        detail = f": {first[0]}" if first else ""
        return missing(f"`{running.tool} --version` exited with status {process.returncode}{detail}")
    version = parse_version(running.tool, out)
    if version is None:
        first_line = (out.strip().splitlines() or [""])[0]
        return missing(f"could not read a version from `{running.tool} --version`: {first_line!r}")
    return version


class ToolVersions:
    """Starts every tool at once; ``results()`` collects them against one shared deadline.

    Start it before other work so the tools run while that work does: the total wait is at most one timeout.
    """

    def __init__(self, timeout_s: float = TOOL_TIMEOUT_S) -> None:
        self.timeout_s = timeout_s
        self._started = {field: _start(tool) for field, tool in TOOLS.items()}
        self._deadline = time.monotonic() + timeout_s

    def results(self) -> dict[str, Fact[str]]:
        return {field: _finish(running, self._deadline, self.timeout_s) for field, running in self._started.items()}


def tool_versions(timeout_s: float = TOOL_TIMEOUT_S) -> dict[str, Fact[str]]:
    return ToolVersions(timeout_s).results()
