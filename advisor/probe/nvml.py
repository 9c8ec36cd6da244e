"""NVML: the driver's view of every GPU. The ONLY module that imports pynvml, and only inside functions.

Every query goes through ``_Nvml.query``, which returns the value or Unavailable with NVML's own words, so a
consumer GPU that does not support one query (ECC, remapped rows, serial ...) loses that one fact only.
Nothing here creates a CUDA context, allocates GPU memory or changes a GPU setting: NVML reads only.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from advisor.models.clock_events import CLOCK_EVENT_REASONS
from advisor.models.common import Fact, Unavailable, is_missing, missing
from advisor.models.facts import DriverFacts, GpuFacts, GpuProcess

NOT_SUPPORTED = "not supported by this GPU/driver"

COMPUTE_MODES = {0: "default", 1: "exclusive_thread", 2: "prohibited", 3: "exclusive_process"}
_ENABLED = 1  # NVML_FEATURE_ENABLED and NVML_DEVICE_MIG_ENABLE


def decode_clock_event_reasons(mask: int) -> list[str]:
    names = [name for bit, name in CLOCK_EVENT_REASONS if mask & bit]
    known = 0
    for bit, _ in CLOCK_EVENT_REASONS:
        known |= bit
    unknown = mask & ~known
    names += [f"unknown_0x{1 << shift:x}" for shift in range(64) if unknown >> shift & 1]
    return names


def cuda_version_text(version: int) -> str:
    """NVML's 1000*major + 10*minor (13000, 12080) as nvidia-smi prints it ("13.0", "12.8")."""
    return f"{version // 1000}.{version % 1000 // 10}"


def _architecture_names(lib: Any) -> dict[int, str]:
    # Read from the binding's NVML_DEVICE_ARCH_* constants, so a newer nvidia-ml-py names newer GPUs.
    prefix = "NVML_DEVICE_ARCH_"
    return {value: name[len(prefix):].title() for name, value in vars(lib).items()
            if name.startswith(prefix) and isinstance(value, int) and name != prefix + "UNKNOWN"}


def _str(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


class _Nvml:
    """The one lazy wrapper: each attempt is tried in turn while the binding or the driver lacks the function."""

    def __init__(self, lib: Any) -> None:
        self.lib = lib
        self._mismatch = getattr(lib, "NVMLLibraryMismatchError", ())

    def reason(self, error: Exception) -> str:
        value = getattr(error, "value", None)
        if value == self.lib.NVML_ERROR_NOT_SUPPORTED:
            return NOT_SUPPORTED
        return f"NVML error: {error}"

    def query(self, *attempts: Callable[[], Any], convert: Optional[Callable[[Any], Any]] = None,
              unsupported: Any = Unavailable) -> Fact[Any]:
        """``unsupported``: the value to record when NVML says the GPU cannot have this (no ECC -> None)."""
        lib = self.lib
        last = "not available in this nvidia-ml-py version"
        for attempt in attempts:
            try:
                value = attempt()
            except (AttributeError, TypeError):  # the binding predates this function or argument
                continue
            except self._mismatch:
                last = "not supported by this driver (NVML function not found)"
                continue
            except lib.NVMLError as error:
                if getattr(error, "value", None) == lib.NVML_ERROR_FUNCTION_NOT_FOUND:
                    last = "not supported by this driver (NVML function not found)"
                    continue
                if unsupported is not Unavailable and error.value == lib.NVML_ERROR_NOT_SUPPORTED:
                    return unsupported
                return missing(self.reason(error))
            except Exception as error:  # noqa: BLE001 - a query must never take the probe down
                return missing(f"{type(error).__name__}: {error}")
            if convert is None:
                return value
            try:
                return convert(value)
            except Exception as error:  # noqa: BLE001
                return missing(f"unexpected NVML value {value!r}: {error}")
        return missing(last)


def _init(lib: Any) -> Optional[str]:
    """Start NVML; None on success, otherwise why not in words a user can act on."""
    try:
        lib.nvmlInit()
        return None
    except lib.NVMLError as error:
        value = getattr(error, "value", None)
        if value == lib.NVML_ERROR_LIBRARY_NOT_FOUND:
            return f"{error}: libnvidia-ml could not be loaded (no NVIDIA driver installed, or not in this container)"
        if value == lib.NVML_ERROR_DRIVER_NOT_LOADED:
            return f"{error}: the NVIDIA kernel driver is not loaded"
        return f"nvmlInit failed: {error}"
    except Exception as error:  # noqa: BLE001 - e.g. OSError from a broken library
        return f"nvmlInit failed: {type(error).__name__}: {error}"


def _shutdown(lib: Any) -> None:
    try:
        lib.nvmlShutdown()
    except Exception:  # noqa: BLE001 - nothing useful to do about a failed shutdown
        pass


def _import() -> tuple[Any, Optional[str]]:
    try:
        import pynvml

        return pynvml, None
    except Exception as error:  # noqa: BLE001
        return None, f"nvidia-ml-py (pynvml) cannot be imported: {error}"


def _process_name(nv: _Nvml, pid: int) -> Fact[str]:
    try:
        return Path(f"/proc/{pid}/comm").read_text(errors="replace").strip()
    except OSError:
        pass
    # Another user's or PID namespace's process: the driver still knows its executable.
    name = nv.query(lambda: nv.lib.nvmlSystemGetProcessName(pid), convert=lambda path: os.path.basename(_str(path)))
    return name if not is_missing(name) else missing(f"process {pid} is not visible from here ({name.unavailable})")


def _processes(nv: _Nvml, handle: Any) -> Fact[list[GpuProcess]]:
    lib = nv.lib
    compute = nv.query(lambda: lib.nvmlDeviceGetComputeRunningProcesses(handle),
                       lambda: lib.nvmlDeviceGetComputeRunningProcesses_v2(handle))
    if is_missing(compute):
        return compute
    graphics = nv.query(lambda: lib.nvmlDeviceGetGraphicsRunningProcesses(handle),
                        lambda: lib.nvmlDeviceGetGraphicsRunningProcesses_v2(handle))
    memory_by_pid: dict[int, Optional[int]] = {}
    for entry in list(compute) + ([] if is_missing(graphics) else list(graphics)):
        used = getattr(entry, "usedGpuMemory", None)  # None: the driver cannot say (Windows WDDM)
        previous = memory_by_pid.get(entry.pid)
        # A compute+graphics process is listed twice with the same allocation: count it once.
        memory_by_pid[entry.pid] = used if previous is None else max(previous, used or 0)
    me = os.getpid()
    return [GpuProcess(pid=pid, name=_process_name(nv, pid), used_memory_bytes=used, is_self=pid == me)
            for pid, used in sorted(memory_by_pid.items())]


def _other_processes_memory(processes: Fact[list[GpuProcess]]) -> Fact[int]:
    if is_missing(processes):
        return processes
    others = [p for p in processes if not p.is_self]
    if any(p.used_memory_bytes is None for p in others):
        return missing("the driver does not report per-process memory (Windows WDDM?)")
    return sum(p.used_memory_bytes for p in others)  # type: ignore[misc]


def probe_gpu(nv: _Nvml, index: int) -> GpuFacts:
    lib = nv.lib
    handle = nv.query(lambda: lib.nvmlDeviceGetHandleByIndex(index))
    if is_missing(handle):
        unreachable = {name: handle for name in GpuFacts.model_fields if name not in ("index", "torch_index", "sm_count")}
        return GpuFacts(index=index, **unreachable)
    q = nv.query
    h = handle
    memory = q(lambda: lib.nvmlDeviceGetMemoryInfo(h, version=lib.nvmlMemory_v2),  # v2: "used" without reserved
               lambda: lib.nvmlDeviceGetMemoryInfo(h))
    ecc_mode = q(lambda: lib.nvmlDeviceGetEccMode(h), convert=lambda modes: modes[0] == _ENABLED, unsupported=None)
    no_ecc = missing("this GPU has no ECC memory") if ecc_mode is None else None
    remapped = q(lambda: lib.nvmlDeviceGetRemappedRows(h))
    arch_names = _architecture_names(lib)

    def ecc_count(error_type: int, counter: int) -> Fact[int]:
        return no_ecc or q(lambda: lib.nvmlDeviceGetTotalEccErrors(h, error_type, counter))

    processes = _processes(nv, h)
    return GpuFacts(
        index=index,
        name=q(lambda: lib.nvmlDeviceGetName(h), convert=_str),
        uuid=q(lambda: lib.nvmlDeviceGetUUID(h), convert=_str),
        serial=q(lambda: lib.nvmlDeviceGetSerial(h), convert=_str, unsupported=None),
        pci_bus_id=q(lambda: lib.nvmlDeviceGetPciInfo(h), convert=lambda info: _str(info.busId)),
        architecture=q(lambda: lib.nvmlDeviceGetArchitecture(h),
                       convert=lambda value: arch_names.get(value, f"unknown ({value})")),
        compute_capability=q(lambda: lib.nvmlDeviceGetCudaComputeCapability(h), convert=lambda cc: f"{cc[0]}.{cc[1]}"),
        memory_total_bytes=memory if is_missing(memory) else memory.total,
        memory_used_bytes=memory if is_missing(memory) else memory.used,
        memory_free_bytes=memory if is_missing(memory) else memory.free,
        pcie_gen_current=q(lambda: lib.nvmlDeviceGetCurrPcieLinkGeneration(h)),
        pcie_gen_max=q(lambda: lib.nvmlDeviceGetMaxPcieLinkGeneration(h)),
        pcie_gen_gpu_max=q(lambda: lib.nvmlDeviceGetGpuMaxPcieLinkGeneration(h)),
        pcie_width_current=q(lambda: lib.nvmlDeviceGetCurrPcieLinkWidth(h)),
        pcie_width_max=q(lambda: lib.nvmlDeviceGetMaxPcieLinkWidth(h)),
        clock_sm_mhz=q(lambda: lib.nvmlDeviceGetClockInfo(h, lib.NVML_CLOCK_SM)),
        clock_sm_max_mhz=q(lambda: lib.nvmlDeviceGetMaxClockInfo(h, lib.NVML_CLOCK_SM)),
        clock_mem_mhz=q(lambda: lib.nvmlDeviceGetClockInfo(h, lib.NVML_CLOCK_MEM)),
        clock_mem_max_mhz=q(lambda: lib.nvmlDeviceGetMaxClockInfo(h, lib.NVML_CLOCK_MEM)),
        clock_event_reasons=_clock_event_reasons(nv, h),
        power_draw_w=_power_draw(nv, h),
        power_limit_w=q(lambda: lib.nvmlDeviceGetEnforcedPowerLimit(h), convert=lambda mw: mw / 1000.0),
        temperature_c=_temperature(nv, h),
        ecc_enabled=ecc_mode,
        ecc_uncorrected_volatile=ecc_count(lib.NVML_MEMORY_ERROR_TYPE_UNCORRECTED, lib.NVML_VOLATILE_ECC),
        ecc_corrected_volatile=ecc_count(lib.NVML_MEMORY_ERROR_TYPE_CORRECTED, lib.NVML_VOLATILE_ECC),
        ecc_uncorrected_aggregate=ecc_count(lib.NVML_MEMORY_ERROR_TYPE_UNCORRECTED, lib.NVML_AGGREGATE_ECC),
        # (corrected, uncorrected, pending, failure): row remapping exists from Ampere on.
        remapped_rows_pending=remapped if is_missing(remapped) else bool(remapped[2]),
        remapped_rows_failure=remapped if is_missing(remapped) else bool(remapped[3]),
        # A GPU that cannot do MIG is certainly not in MIG mode: a fact, not a gap.
        mig_enabled=q(lambda: lib.nvmlDeviceGetMigMode(h), convert=lambda modes: modes[0] == _ENABLED,
                      unsupported=False),
        compute_mode=q(lambda: lib.nvmlDeviceGetComputeMode(h),
                       convert=lambda mode: COMPUTE_MODES.get(mode, f"unknown ({mode})")),
        persistence_mode=q(lambda: lib.nvmlDeviceGetPersistenceMode(h), convert=lambda mode: mode == _ENABLED),
        processes=processes,
        other_processes_memory_bytes=_other_processes_memory(processes),
    )


def _clock_event_reasons(nv: _Nvml, handle: Any) -> Fact[list[str]]:
    lib = nv.lib
    return nv.query(lambda: lib.nvmlDeviceGetCurrentClocksEventReasons(handle),
                    lambda: lib.nvmlDeviceGetCurrentClocksThrottleReasons(handle),  # bindings/drivers before 535
                    convert=decode_clock_event_reasons)


def _power_draw(nv: _Nvml, handle: Any) -> Fact[float]:
    return nv.query(lambda: nv.lib.nvmlDeviceGetPowerUsage(handle), convert=lambda mw: mw / 1000.0)


def _temperature(nv: _Nvml, handle: Any) -> Fact[int]:
    lib = nv.lib
    current = nv.query(lambda: lib.nvmlDeviceGetTemperatureV(handle, lib.NVML_TEMPERATURE_GPU))
    if not is_missing(current):
        return current
    # The versioned call can also fail on a struct-version mismatch between binding and driver, not only
    # when absent: the deprecated call still answers on every driver up to CUDA 14.
    older = nv.query(lambda: lib.nvmlDeviceGetTemperature(handle, lib.NVML_TEMPERATURE_GPU))
    return older if not is_missing(older) else current


def _without_nvml(reason: str) -> tuple[DriverFacts, Fact[list[GpuFacts]]]:
    gone = missing(reason)
    driver = DriverFacts(nvml_available=False, nvml_error=reason, version=gone, cuda_version=gone,
                         nvml_version=gone, gpu_count=gone)
    return driver, gone


def probe_nvml() -> tuple[DriverFacts, Fact[list[GpuFacts]]]:
    """Driver facts and one GpuFacts per GPU NVML sees (all of them, whatever CUDA_VISIBLE_DEVICES says)."""
    lib, error = _import()
    if error is None:
        error = _init(lib)
    if error is not None:
        return _without_nvml(error)
    try:
        nv = _Nvml(lib)
        count = nv.query(lambda: lib.nvmlDeviceGetCount())
        driver = DriverFacts(
            nvml_available=True,
            nvml_error=None,
            version=nv.query(lambda: lib.nvmlSystemGetDriverVersion(), convert=_str),
            cuda_version=nv.query(lambda: lib.nvmlSystemGetCudaDriverVersion_v2(),
                                  lambda: lib.nvmlSystemGetCudaDriverVersion(), convert=cuda_version_text),
            nvml_version=nv.query(lambda: lib.nvmlSystemGetNVMLVersion(), convert=_str),
            gpu_count=count,
        )
        gpus = count if is_missing(count) else [probe_gpu(nv, index) for index in range(count)]
        return driver, gpus
    finally:
        _shutdown(lib)


# --- live readings for the measurement code -------------------------------------------------------------


@dataclass(frozen=True)
class GpuLiveState:
    """One reading of what changes under load: read it while a copy runs (an idle link downtrains)."""

    pcie_gen: Fact[int]
    pcie_width: Fact[int]
    clock_sm_mhz: Fact[int]
    clock_event_reasons: Fact[list[str]]
    temperature_c: Fact[int]
    power_draw_w: Fact[float]


@contextmanager
def nvml_session() -> Iterator[Optional[str]]:
    """Keep NVML initialised across many ``read_live_state`` calls, so each costs microseconds, not an nvmlInit.

    Yields None, or the reason NVML could not start (the readings inside will then say so too).
    """
    lib, error = _import()
    if error is None:
        error = _init(lib)
    try:
        yield error
    finally:
        if error is None:
            _shutdown(lib)


def _handle(nv: _Nvml, index: Optional[int], uuid: Optional[str]) -> Fact[Any]:
    lib = nv.lib
    if uuid is not None:
        # torch prints UUIDs bare; NVML wants its "GPU-" (or "MIG-") prefix.
        full = uuid if uuid.upper().startswith(("GPU-", "MIG-")) else f"GPU-{uuid}"
        return nv.query(lambda: lib.nvmlDeviceGetHandleByUUID(full))
    return nv.query(lambda: lib.nvmlDeviceGetHandleByIndex(index))


def read_live_state(index: Optional[int] = None, *, uuid: Optional[str] = None) -> GpuLiveState:
    """PCIe gen/width, SM clock, clock-event reasons, temperature and power of one GPU, now.

    ``index`` is NVML's index (GpuFacts.index), which is not torch's under CUDA_VISIBLE_DEVICES or the default
    CUDA_DEVICE_ORDER; pass ``uuid`` (TorchDevice.uuid or GpuFacts.uuid) to name the GPU torch is using.
    """
    if (index is None) == (uuid is None):
        raise ValueError("give exactly one of index or uuid")
    lib, error = _import()
    if error is None:
        error = _init(lib)
    if error is not None:
        gone = missing(error)
        return GpuLiveState(gone, gone, gone, gone, gone, gone)
    try:
        nv = _Nvml(lib)
        handle = _handle(nv, index, uuid)
        if is_missing(handle):
            return GpuLiveState(handle, handle, handle, handle, handle, handle)
        return GpuLiveState(
            pcie_gen=nv.query(lambda: lib.nvmlDeviceGetCurrPcieLinkGeneration(handle)),
            pcie_width=nv.query(lambda: lib.nvmlDeviceGetCurrPcieLinkWidth(handle)),
            clock_sm_mhz=nv.query(lambda: lib.nvmlDeviceGetClockInfo(handle, lib.NVML_CLOCK_SM)),
            clock_event_reasons=_clock_event_reasons(nv, handle),
            temperature_c=_temperature(nv, handle),
            power_draw_w=_power_draw(nv, handle),
        )
    finally:
        _shutdown(lib)


def sm_clock_reader(uuid: str) -> Optional[Callable[[], Optional[tuple[float, float]]]]:
    """A cheap reader of (SM clock now, SM clock under load) in MHz for one GPU, or None without NVML.

    For measure/'s clock guard, which reads it between samples: NVML stays initialised (one reference, held for
    the life of the process) and the handle is looked up once, so a reading costs tens of microseconds. "Under
    load" is the applications clock (what the GPU runs at when busy), else the maximum SM clock.
    """
    lib, error = _import()
    if error is None:
        error = _init(lib)
    if error is not None:
        return None
    nv = _Nvml(lib)
    handle = _handle(nv, None, uuid)
    if is_missing(handle):
        _shutdown(lib)
        return None
    under_load = nv.query(lambda: lib.nvmlDeviceGetApplicationsClock(handle, lib.NVML_CLOCK_SM))
    if is_missing(under_load) or not under_load:
        under_load = nv.query(lambda: lib.nvmlDeviceGetMaxClockInfo(handle, lib.NVML_CLOCK_SM))
    if is_missing(under_load) or not under_load:
        _shutdown(lib)
        return None

    def read() -> Optional[tuple[float, float]]:
        try:
            return float(lib.nvmlDeviceGetClockInfo(handle, lib.NVML_CLOCK_SM)), float(under_load)
        except Exception:
            return None

    return read
