"""A measurement run on this machine, within a budget: the GPU when one is usable, CPU figures otherwise."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Optional

from advisor.app.devices import device_info, usable_gpu
from advisor.app.progress import progress_bar
from advisor.models.facts import Facts

if TYPE_CHECKING:
    from advisor.measure.session import MeasurePlan
    from advisor.models.measurements import Measurements

#: Kept back from the budget for rules, redaction, rendering and releasing CUDA after the measurements.
REPORT_RESERVE_S = 1.0


def plan_for(budget_s: float, *, elapsed_s: float, quick: bool = False) -> MeasurePlan:
    """The plan for a run of ``budget_s`` of which ``elapsed_s`` went on start-up and the probe."""
    from advisor.measure.session import MeasurePlan

    return MeasurePlan.for_budget(budget_s, left_s=max(1.0, budget_s - elapsed_s - REPORT_RESERVE_S), quick=quick)


def run_measurements(facts: Facts, plan: MeasurePlan, *, device: int) -> tuple[Measurements, Optional[str]]:
    """(the measurements, None), or (CPU-only measurements, why the GPU was not usable)."""
    from advisor.measure.session import MeasurementSession
    from advisor.probe.nvml import nvml_session

    reason = usable_gpu(facts, device)
    info = device_info(facts, device) if reason is None else None
    with progress_bar("measuring") as progress:
        from advisor.probe import load as cpu_load

        session = MeasurementSession(plan, info, progress, load_probe=cpu_load)  # type: ignore[arg-type]
        if reason is not None:
            return session.run_cpu_only(reason), reason
        with nvml_session() if info.read_state else contextlib.nullcontext():
            return session.run(), None
