"""NVML: absent here, so the probe must say why; one failing query costs one fact, never the probe.

Error handling is tested by making a real pynvml function raise a real NVMLError: no GPU reading is faked.
"""

from __future__ import annotations

import pynvml
import pytest

from advisor.models.common import is_missing, missing
from advisor.probe import nvml
from advisor.probe.nvml import (
    NOT_SUPPORTED,
    cuda_version_text,
    decode_clock_event_reasons,
    probe_nvml,
    read_live_state,
)


def _nvml_works() -> bool:
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:
        return False
    pynvml.nvmlShutdown()
    return True


HAS_NVML = _nvml_works()
needs_no_nvml = pytest.mark.skipif(HAS_NVML, reason="this machine has NVML")


@needs_no_nvml
def test_without_nvml_the_reason_is_recorded_and_gpus_are_unavailable():
    driver, gpus = probe_nvml()
    assert driver.nvml_available is False
    assert isinstance(driver.nvml_error, str) and "NVML" in driver.nvml_error
    assert gpus == missing(driver.nvml_error)
    assert driver.version == missing(driver.nvml_error)
    assert driver.gpu_count == missing(driver.nvml_error)


def test_a_driver_that_is_not_loaded_is_said_plainly(monkeypatch):
    def not_loaded():
        raise pynvml.NVMLError(pynvml.NVML_ERROR_DRIVER_NOT_LOADED)

    monkeypatch.setattr(pynvml, "nvmlInit", not_loaded)
    driver, gpus = probe_nvml()
    assert driver.nvml_available is False
    assert driver.nvml_error == "Driver Not Loaded: the NVIDIA kernel driver is not loaded"
    assert gpus == missing(driver.nvml_error)


@needs_no_nvml
def test_live_state_without_nvml_is_unavailable_not_a_crash():
    state = read_live_state(0)
    assert all(is_missing(value) for value in vars(state).values())
    with pytest.raises(ValueError):
        read_live_state(0, uuid="GPU-x")


def _raise(code):
    def query(*args, **kwargs):
        raise pynvml.NVMLError(code)

    return query


def test_query_maps_not_supported_and_other_errors():
    wrapper = nvml._Nvml(pynvml)
    assert wrapper.query(_raise(pynvml.NVML_ERROR_NOT_SUPPORTED)) == missing(NOT_SUPPORTED)
    assert wrapper.query(_raise(pynvml.NVML_ERROR_NO_PERMISSION)) == missing("NVML error: Insufficient Permissions")
    assert wrapper.query(_raise(pynvml.NVML_ERROR_NOT_SUPPORTED), unsupported=None) is None
    assert wrapper.query(lambda: 7, convert=lambda v: v * 2) == 14


def test_query_falls_back_when_the_driver_or_binding_lacks_a_function():
    wrapper = nvml._Nvml(pynvml)
    assert wrapper.query(_raise(pynvml.NVML_ERROR_FUNCTION_NOT_FOUND), lambda: 3) == 3
    assert wrapper.query(lambda: pynvml.nvmlDeviceGetSomethingFromTheFuture(), lambda: 4) == 4
    only_missing = wrapper.query(_raise(pynvml.NVML_ERROR_FUNCTION_NOT_FOUND))
    assert only_missing == missing("not supported by this driver (NVML function not found)")


def test_clock_event_reasons_decode_by_name():
    assert decode_clock_event_reasons(0) == []
    assert decode_clock_event_reasons(0x1) == ["gpu_idle"]
    assert decode_clock_event_reasons(0x4 | 0x40) == ["sw_power_cap", "hw_thermal_slowdown"]
    assert decode_clock_event_reasons(0x1000) == ["unknown_0x1000"]
    # The binding's own constants agree with the fixed table.
    assert pynvml.nvmlClocksEventReasonSwThermalSlowdown == 0x20
    assert pynvml.nvmlClocksEventReasonHwPowerBrakeSlowdown == 0x80
    assert pynvml.nvmlClocksEventReasonDisplayClockSetting == 0x100


def test_cuda_driver_version_reads_like_nvidia_smi():
    assert cuda_version_text(13000) == "13.0"
    assert cuda_version_text(12080) == "12.8"
    assert cuda_version_text(11020) == "11.2"


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_NVML, reason="needs the NVIDIA driver (NVML could not be loaded)")
def test_one_failing_query_costs_only_its_field(monkeypatch):
    monkeypatch.setattr(pynvml, "nvmlDeviceGetRemappedRows", _raise(pynvml.NVML_ERROR_NOT_SUPPORTED))
    monkeypatch.setattr(pynvml, "nvmlDeviceGetEnforcedPowerLimit", _raise(pynvml.NVML_ERROR_UNKNOWN))
    driver, gpus = probe_nvml()
    assert driver.nvml_available is True and isinstance(driver.version, str)
    gpu = gpus[0]
    assert gpu.remapped_rows_pending == gpu.remapped_rows_failure == missing(NOT_SUPPORTED)
    assert gpu.power_limit_w == missing("NVML error: Unknown Error")
    assert isinstance(gpu.name, str) and isinstance(gpu.memory_total_bytes, int)
    assert isinstance(gpu.power_draw_w, float) and isinstance(gpu.pcie_width_max, int)


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_NVML, reason="needs the NVIDIA driver (NVML could not be loaded)")
def test_live_state_reads_a_real_gpu_by_index_and_uuid():
    _, gpus = probe_nvml()
    by_index = read_live_state(0)
    by_uuid = read_live_state(uuid=gpus[0].uuid.removeprefix("GPU-"))
    for state in (by_index, by_uuid):
        assert isinstance(state.pcie_gen, int) and isinstance(state.clock_sm_mhz, int)
        assert isinstance(state.clock_event_reasons, list)
    with nvml.nvml_session() as error:
        assert error is None
        assert isinstance(read_live_state(0).temperature_c, int)
