"""Watching the GPU while it is measured: throttling during the run makes every number pessimistic."""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

from advisor.models.measurements import GpuStateDuringRun

#: Returns {"sm_clock_mhz": int, "clock_event_reasons": [str], "temperature_c": int, "power_w": float}
#: for the GPU under test (keys may be missing); supplied by the caller so measure/ never imports NVML.
StateReader = Callable[[], Optional[dict[str, Any]]]


class GpuMonitor:
    def __init__(self, read_state: Optional[StateReader], interval_s: float = 0.1) -> None:
        self._read = read_state
        self._interval = interval_s
        self._samples: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def __enter__(self) -> "GpuMonitor":
        if self._read is not None:
            self._thread = threading.Thread(target=self._run, name="gpu-advisor-monitor", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                sample = self._read()  # type: ignore[misc]
            except Exception:  # a monitor must never break the measurement it watches
                sample = None
            if sample:
                self._samples.append(sample)
            self._stop.wait(self._interval)

    def summary(self) -> GpuStateDuringRun:
        state = GpuStateDuringRun()
        if self._read is None:
            return state.model_copy(update={"clock_event_reasons_seen": _missing("NVML unavailable")})
        if not self._samples:
            return state.model_copy(update={"clock_event_reasons_seen": _missing("no NVML sample was taken")})
        reasons = sorted({r for s in self._samples for r in s.get("clock_event_reasons", [])})
        clocks = [s["sm_clock_mhz"] for s in self._samples if isinstance(s.get("sm_clock_mhz"), int)]
        temps = [s["temperature_c"] for s in self._samples if isinstance(s.get("temperature_c"), int)]
        powers = [s["power_w"] for s in self._samples if isinstance(s.get("power_w"), (int, float))]
        update: dict[str, Any] = {"clock_event_reasons_seen": reasons}
        if clocks:
            update.update(sm_clock_min_mhz=min(clocks), sm_clock_max_mhz=max(clocks))
        if temps:
            update["temperature_max_c"] = max(temps)
        if powers:
            update["power_max_w"] = float(max(powers))
        return state.model_copy(update=update)


def _missing(reason: str):
    from advisor.models.common import missing

    return missing(reason)
