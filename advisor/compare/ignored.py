"""The facts a comparison leaves out, and why: data, in one place.

Paths are fact paths without list indexes ("gpus.temperature_c" covers every GPU). A fact is on this list
when it changes from minute to minute on one idle machine, or names the individual part or host rather
than what it is: listing it would bury the differences that explain a change in speed or behaviour.
"""

from __future__ import annotations

import re

IGNORED_FACTS: dict[str, str] = {
    "host.hostname": "names the host, not what it is",
    "host.memory_available_bytes": "changes with whatever else is running",
    "gpus.uuid": "identifies the physical part; differs between any two GPUs",
    "gpus.serial": "identifies the physical part; differs between any two GPUs",
    "gpus.pci_bus_id": "slot address; differs between machines without changing behaviour",
    "gpus.memory_used_bytes": "changes with whatever else is running",
    "gpus.memory_free_bytes": "changes with whatever else is running",
    "gpus.pcie_gen_current": "an idle link trains down to save power; the maximum and the loaded link are what count",
    "gpus.pcie_width_current": "an idle link trains down to save power; the maximum and the loaded link are what count",
    "gpus.clock_sm_mhz": "current clock, follows load",
    "gpus.clock_mem_mhz": "current clock, follows load",
    "gpus.clock_event_reasons": "momentary state (gpu_idle); throttling that matters fires the clocks-throttled rule",
    "gpus.power_draw_w": "follows load",
    "gpus.temperature_c": "follows load and room",
    "gpus.processes": "whatever else is running at that moment",
    "gpus.other_processes_memory_bytes": "whatever else is running; the other-process-holds-gpu-memory rule reports it",
    "gpus.ecc_corrected_volatile": "a counter that grows with uptime; corrected errors are harmless",
    "torch.devices.uuid": "identifies the physical part; differs between any two GPUs",
    "env.complete": "says how the environment was read, not a setting",
}

_INDEX = re.compile(r"\[[^\]]*\]")


def is_ignored(path: str) -> bool:
    return _INDEX.sub("", path) in IGNORED_FACTS
