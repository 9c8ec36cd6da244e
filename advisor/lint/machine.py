"""What this machine measured, for lint messages: read from a gpu-advisor report (`lint --report report.json`).

A check quotes a measured number when the report has it ("~6.6 us per launch, measured on this machine")
and a typical figure otherwise ("typically 5-10 us"). Only the standard library: the report is read as
plain JSON, tolerantly -- a number that is missing or not collected is simply not known.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Optional


class BadReport(ValueError):
    """--report names a file that is not a gpu-advisor report with measurements: bad usage."""


@dataclass(frozen=True)
class Machine:
    device: Optional[str] = None  # "NVIDIA H200"
    launch_us: Optional[float] = None  # host time to launch one tiny op
    tiny_kernel_us: Optional[float] = None  # GPU time of a tiny kernel
    item_us: Optional[float] = None  # .item() round trip
    context_init_s: Optional[float] = None  # CUDA context + first kernel
    first_matmul_s: Optional[float] = None  # first cuBLAS matmul of the process
    add_crossover: Optional[int] = None  # float32 add, data resident on the GPU: elements from which the GPU wins
    add_gpu_never_wins: bool = False
    h2d_pinned_gbps: Optional[float] = None
    h2d_pageable_gbps: Optional[float] = None
    unsync_naive_s: Optional[float] = None  # a 4096x4096 float32 matmul timed without synchronizing ...
    unsync_correct_s: Optional[float] = None  # ... and with CUDA events
    unsync_workload: Optional[str] = None

    @property
    def where(self) -> str:
        return f"measured on this {self.device}" if self.device else "measured on this machine"

    @property
    def measured(self) -> bool:
        return any(v is not None for v in (self.launch_us, self.item_us, self.context_init_s, self.add_crossover,
                                           self.h2d_pageable_gbps, self.unsync_correct_s))


def load_machine(path: str) -> Machine:
    from advisor.safe_io import InputRefused, read_capped

    try:  # capped and never blocking (a FIFO or /dev/zero is refused), nesting and huge numbers refused
        data = json.loads(read_capped(path, 20 * 2**20).decode("utf-8"))
    except InputRefused as exc:
        raise BadReport(f"cannot read {path}: {exc}") from None
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise BadReport(f"{path} is not JSON: {str(exc)[:200]}") from None
    machine = machine_from_report(data)
    if not machine.measured:
        raise BadReport(f"{path} holds no GPU measurements (make a report with them by running `gpu-advisor "
                        "diagnose --output report.json` on the machine with the GPU)")
    return machine


def machine_from_report(data: Any) -> Machine:
    measurements = _get(data, "measurements")
    overheads = _get(measurements, "overheads")
    crossover = next((c for c in _list(measurements, "crossover")
                      if isinstance(c, dict) and (c.get("op"), c.get("dtype"), c.get("mode"))
                      == ("add", "float32", "resident") and c.get("status", "ok") == "ok"), {})
    size = crossover.get("crossover_size")
    transfer = _get(measurements, "transfer")
    unsync = _get(measurements, "unsync_timing")
    return Machine(
        device=_text(_get(_get(measurements, "run"), "device_name")),
        launch_us=_number(_get(overheads, "launch_us")),
        tiny_kernel_us=_number(_get(overheads, "tiny_kernel_us")),
        item_us=_number(_get(overheads, "item_us")),
        context_init_s=_number(_get(overheads, "context_init_s")),
        first_matmul_s=_number(_get(overheads, "first_matmul_s")),
        add_crossover=size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else None,
        add_gpu_never_wins=crossover.get("gpu_never_wins") is True,
        h2d_pinned_gbps=_number(_get(transfer, "h2d_pinned_gbps")),
        h2d_pageable_gbps=_number(_get(transfer, "h2d_pageable_gbps")),
        unsync_naive_s=_number(_get(unsync, "naive_s")),
        unsync_correct_s=_number(_get(unsync, "correct_s")),
        unsync_workload=_text(_get(unsync, "workload")))


def _get(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


def _list(data: Any, key: str) -> list:
    value = _get(data, key)
    return value if isinstance(value, list) else []


def _number(value: Any) -> Optional[float]:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


def _text(value: Any) -> Optional[str]:
    return value.strip() if isinstance(value, str) and value.strip() else None
