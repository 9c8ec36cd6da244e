"""One Facts from collect_env and nvidia-smi -q pasted together.

collect_env is the base (it knows the host and torch); nvidia-smi fills what it lacked: the driver's CUDA
version and every GPU field beyond the name. GPUs are matched by index when the names agree (both tools list
GPUs in NVML's order), otherwise by name, so a reordered or partial paste does not graft one GPU onto another.
When the two texts name different driver versions they were taken on different machines or at different
times; mixing them would invent a machine that never existed, so the nvidia-smi text is then left out.
"""

from __future__ import annotations

from collections import defaultdict, deque
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


def _name_key(gpu: GpuFacts) -> Optional[str]:
    return None if is_missing(gpu.name) else str(gpu.name).lower()


def _merge_gpus(base, smi_gpus: list[GpuFacts]):
    """Each nvidia-smi GPU onto the first free collect_env GPU of the same index and name, else the first free
    one of the same name, else appended. Queues per key keep this linear: a paste of thousands of GPUs merged
    in a scan of each list (the nested search it replaced was quadratic)."""
    if is_missing(base) or not base:
        return smi_gpus if smi_gpus else base
    merged = list(base)
    taken: set[int] = set()
    by_index_and_name: dict[tuple[object, str], deque[int]] = defaultdict(deque)
    by_name: dict[str, deque[int]] = defaultdict(deque)
    for slot, gpu in enumerate(merged):
        name = _name_key(gpu)
        if name is not None:
            by_index_and_name[(gpu.index, name)].append(slot)
            by_name[name].append(slot)
    for smi in smi_gpus:
        name = _name_key(smi)
        slot = None
        if name is not None:
            slot = _first_free(by_index_and_name.get((smi.index, name)), taken)
            if slot is None:
                slot = _first_free(by_name.get(name), taken)
        if slot is None:
            merged.append(smi)  # a GPU only nvidia-smi lists (collect_env's list was partial)
            taken.add(len(merged) - 1)
            continue
        # nvidia-smi's reasons replace collect_env's "nvidia-smi -q prints it" for what it did not print either.
        merged[slot] = fill_missing(smi, merged[slot]).model_copy(update={"index": merged[slot].index})
        taken.add(slot)
    return merged


def _first_free(slots: Optional[deque[int]], taken: set[int]) -> Optional[int]:
    """The first slot of the queue not taken yet; taken ones are dropped for good (amortised linear)."""
    while slots:
        if slots[0] not in taken:
            return slots[0]
        slots.popleft()
    return None
