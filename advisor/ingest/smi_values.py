"""Reading nvidia-smi -q values that need more than one line: numbers with units, clock-event reasons, ECC
counters and remapped rows, each across the layouts drivers 418 to 610 have printed."""

from __future__ import annotations

import re
from typing import Optional, Sequence

from advisor.ingest.smi_tree import Node
from advisor.ingest.values import is_no_value, parse_bool, parse_number
from advisor.models.common import Fact, missing

NOT_IN = "not in nvidia-smi -q output"
#: nvidia-smi's labels for the clock-event (formerly throttle) reasons, named as the NVML probe names the bits.
REASON_NAMES = {
    "idle": "gpu_idle", "applications clocks setting": "applications_clocks_setting",
    "sw power cap": "sw_power_cap", "hw slowdown": "hw_slowdown", "hw thermal slowdown": "hw_thermal_slowdown",
    "hw power brake slowdown": "hw_power_brake_slowdown", "sync boost": "sync_boost",
    "sw thermal slowdown": "sw_thermal_slowdown", "display clock setting": "display_clock_setting",
}


def printed(value: str, what: str) -> Fact[str]:
    return missing(f"nvidia-smi printed {value!r} for the {what}") if is_no_value(value) else value


def number(node: Optional[Node], path: Sequence[str], scale: int = 1, integer: bool = True) -> Fact:
    """The number at ``path`` under ``node`` ("24564 MiB", "16x", "21.30 W"), times ``scale``."""
    value = node.get(*path) if node is not None else None
    if value is None:
        return missing(NOT_IN)
    parsed = None if is_no_value(value) else parse_number(value)
    if parsed is None:
        return missing(f"nvidia-smi printed {value!r} for {' > '.join(path)}")
    return int(parsed * scale) if integer else parsed * scale


def reasons(section: Optional[Node]) -> Fact[list[str]]:
    if section is None:
        return missing(NOT_IN)
    if not section.children:
        return missing(f"nvidia-smi printed {section.value!r} for the clock-event reasons")
    active = []
    for entry in section.walk():  # HW Thermal/Power Brake Slowdown sit one level under HW Slowdown
        if parse_bool(entry.value) is True:
            active.append(REASON_NAMES.get(entry.key.lower(), re.sub(r"\W+", "_", entry.key.lower()).strip("_")))
    return active


def ecc_counts(errors: Optional[Node]) -> dict[str, Fact[int]]:
    """Volatile corrected/uncorrected and aggregate uncorrected totals, as NVML's TotalEccErrors counts them."""
    if errors is None:
        reason = missing(NOT_IN)
        return {"ecc_uncorrected_volatile": reason, "ecc_corrected_volatile": reason,
                "ecc_uncorrected_aggregate": reason}
    return {
        "ecc_uncorrected_volatile": _ecc_total(errors.child("Volatile"), corrected=False),
        "ecc_corrected_volatile": _ecc_total(errors.child("Volatile"), corrected=True),
        "ecc_uncorrected_aggregate": _ecc_total(errors.child("Aggregate"), corrected=False),
    }


def _ecc_total(scope: Optional[Node], corrected: bool) -> Fact[int]:
    if scope is None:
        return missing(NOT_IN)
    # Drivers before ~450 print "Single Bit"/"Double Bit" sections with a Total each; later ones print one
    # counter per memory (SRAM/DRAM, and SRAM's uncorrectable split into Parity and SEC-DED since 550).
    old = scope.child("Single Bit" if corrected else "Double Bit")
    if old is not None:
        total = old.get("Total")
        values = [total] if total is not None else []
    else:
        word = "correctable" if corrected else "uncorrectable"
        values = [c.value or "" for c in scope.children if c.key.lower().split(" ", 1)[-1].startswith(word)
                  and c.key.lower().startswith(("sram", "dram", "device memory", "register file"))]
    # A counter is at most 20 digits (a 64-bit value); longer runs are garbage, not a count to convert.
    counts = [int(v.strip()) for v in values if v.strip().isdecimal() and v.strip().isascii() and len(v.strip()) <= 20]
    if not counts:
        shown = ", ".join(sorted(set(values))) or "nothing"
        return missing(f"nvidia-smi printed {shown} for these ECC counters (ECC unsupported or disabled)")
    return sum(counts)


def remapped_rows(node: Node) -> dict[str, Fact[bool]]:
    section = node.child("Remapped Rows")
    if section is None:
        reason = missing(f"{NOT_IN} (row remapping exists on A100 and later)")
        return {"remapped_rows_pending": reason, "remapped_rows_failure": reason}
    if not section.children:
        reason = missing(f"nvidia-smi printed {section.value!r}: this GPU does not remap rows")
        return {"remapped_rows_pending": reason, "remapped_rows_failure": reason}
    return {
        "remapped_rows_pending": _yes_no(section, "Pending"),
        "remapped_rows_failure": _yes_no(section, "Remapping Failure Occurred"),
    }


def _yes_no(section: Node, key: str) -> Fact[bool]:
    value = section.get(key)
    parsed = parse_bool(value)
    if parsed is None:
        return missing(f"nvidia-smi printed {value!r} for Remapped Rows > {key}" if value else NOT_IN)
    return parsed
