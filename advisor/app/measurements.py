"""A measurement run on this machine, within a budget: the GPU when one is usable, CPU figures otherwise."""

from __future__ import annotations

import contextlib
import warnings
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


def run_measurements(facts: Facts, plan: MeasurePlan, *, device: int,
                     asked_budget_s: Optional[float] = None) -> tuple[Measurements, Optional[str]]:
    """(the measurements, None), or (CPU-only measurements, why the GPU was not usable). ``asked_budget_s``: the
    budget the user asked for (or the default), which the report shows -- with how much of it measuring had."""
    with warnings.catch_warnings():
        # Warnings torch raises about our synthetic workloads (deprecations, TF32 notes, numpy) are ours to
        # handle, not the user's to read: the report says what matters about the run.
        warnings.simplefilter("ignore")
        measurements, reason = _run(facts, plan, device=device)
    if asked_budget_s is not None:
        run = measurements.run
        if run.budget_s is not None and abs(asked_budget_s - run.budget_s) >= 0.5:
            run.notes.append(f"{run.budget_s:.0f} s of the {asked_budget_s:.0f} s budget went to measuring; start-up, "
                             "the probe and writing the report had the rest")
        run.budget_s = asked_budget_s
    return measurements, reason


def _run(facts: Facts, plan: MeasurePlan, *, device: int) -> tuple[Measurements, Optional[str]]:
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
