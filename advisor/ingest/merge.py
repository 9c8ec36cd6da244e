"""One Facts from collect_env and nvidia-smi -q pasted together.

collect_env is the base (it knows the host and torch); nvidia-smi fills what it lacked: the driver's CUDA
version and every GPU field beyond the name. GPUs are matched by index when the names agree (both tools list
GPUs in NVML's order), otherwise by name, so a reordered or partial paste does not graft one GPU onto another.
When the two texts name different driver versions they were taken on different machines or at different
times; mixing them would invent a machine that never existed, so the nvidia-smi text is then left out.
"""

from __future__ import annotations

from collections import deque
from typing import Optional

from advisor.ingest.shell import fill_missing
from advisor.models.common import is_missing
from advisor.models.facts import DriverFacts, Facts, GpuFacts


def driver_conflict(facts: Facts, driver: DriverFacts) -> Optional[str]:
    """Why the nvidia-smi text cannot describe the same machine as the collect_env text, or None."""
    mine, theirs = facts.driver.version, driver.version
    if is_missing(mine) or is_missing(theirs) or mine == theirs:
        return None
    return f"its driver {theirs} differs from collect_env's {mine}"


def merge_smi(facts: Facts, driver: DriverFacts, smi_gpus: list[GpuFacts]) -> Facts:
    merged_driver = fill_missing(facts.driver, driver)
    return facts.model_copy(update={"driver": merged_driver, "gpus": _merge_gpus(facts.gpus, smi_gpus)})


def _merge_gpus(base, smi_gpus: list[GpuFacts]):
    if is_missing(base) or not base:
        return smi_gpus if smi_gpus else base
    merged = list(base)
    # Free slots by (index, name) and by name, so thousands of GPUs merge in linear time, not pairwise.
    by_index_name: dict[tuple[int, str], deque[int]] = {}
    by_name: dict[str, deque[int]] = {}
    for slot, gpu in enumerate(merged):
        if not is_missing(gpu.name):
            name = str(gpu.name).lower()
            by_index_name.setdefault((gpu.index, name), deque()).append(slot)
            by_name.setdefault(name, deque()).append(slot)
    taken: set[int] = set()
    for smi in smi_gpus:
        name = None if is_missing(smi.name) else str(smi.name).lower()
        slot = None
        if name is not None:
            slot = _first_free(by_index_name.get((smi.index, name), deque()), taken)
            if slot is None:
                slot = _first_free(by_name.get(name, deque()), taken)
        if slot is None:
            merged.append(smi)  # a GPU only nvidia-smi lists (collect_env's list was partial)
            taken.add(len(merged) - 1)
            continue
        # nvidia-smi's reasons replace collect_env's "nvidia-smi -q prints it" for what it did not print either.
        merged[slot] = fill_missing(smi, merged[slot]).model_copy(update={"index": merged[slot].index})
        taken.add(slot)
    return merged


def _first_free(slots: deque[int], taken: set[int]) -> Optional[int]:
    # Taken slots are dropped from the front as they are met, so each is skipped at most once overall.
    while slots and slots[0] in taken:
        slots.popleft()
    return slots[0] if slots else None
