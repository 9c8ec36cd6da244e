"""Which GPU a command may use, and wiring a measurement run to it: how to read its link and clocks.

The checks every GPU command makes (is a GPU usable at all, does --device name one torch sees) live here once."""

from __future__ import annotations

from typing import Any, Optional

from advisor.app.errors import EXIT_FAILURE, AdvisorError
from advisor.formatting import plural
from advisor.models.common import Unavailable
from advisor.models.facts import Facts, GpuFacts


def gpu_unusable_reason(facts: Facts) -> Optional[str]:
    """None when torch can run CUDA work here, else why not (in torch's words where it gave some)."""
    torch = facts.torch
    if isinstance(torch.import_error, str):
        return f"torch cannot be imported: {torch.import_error}"
    if torch.cuda_available is not True:
        reason = torch.cuda_unavailable_reason
        return reason if isinstance(reason, str) and reason else "torch.cuda.is_available() is False"
    if not isinstance(torch.device_count, int) or torch.device_count == 0:
        return "torch sees no CUDA device"
    return None


def usable_gpu(facts: Facts, device: int) -> Optional[str]:
    """``gpu_unusable_reason``, and when a GPU is usable, a check that ``--device`` names one torch sees
    (a mistake of the user's: raises)."""
    reason = gpu_unusable_reason(facts)
    count = facts.torch.device_count
    if reason is None and isinstance(count, int) and device >= count:
        raise AdvisorError(f"--device {device}: torch sees {plural(count, 'GPU')} (0..{count - 1})")
    return reason


def require_gpu(facts: Facts, device: int) -> None:
    """For a command that cannot do without the GPU: raises (exit 3) when there is none to use."""
    reason = usable_gpu(facts, device)
    if reason is not None:
        raise AdvisorError(f"no usable CUDA device: {reason}", EXIT_FAILURE)


def gpu_for_torch_index(facts: Facts, index: int) -> Optional[GpuFacts]:
    """The probe's NVML view of the GPU torch calls ``index``, when NVML saw it."""
    if isinstance(facts.gpus, Unavailable):
        return None
    return next((g for g in facts.gpus if g.torch_index == index), None)


def device_info(facts: Facts, torch_index: int):
    """The DeviceInfo a measurement session needs, with NVML readers bound to that GPU's UUID."""
    from advisor.measure.session import DeviceInfo

    devices = facts.torch.devices
    device = devices[torch_index] if isinstance(devices, list) and torch_index < len(devices) else None
    gpu = gpu_for_torch_index(facts, torch_index)
    info = DeviceInfo(torch_index=torch_index,
                      name=device.name if device is not None and isinstance(device.name, str) else None)
    if gpu is not None and isinstance(gpu.uuid, str):
        if isinstance(gpu.pcie_gen_max, int) and isinstance(gpu.pcie_width_max, int):
            info.pcie_gen_max, info.pcie_width_max = gpu.pcie_gen_max, gpu.pcie_width_max
        info.read_link, info.read_state = _nvml_readers(gpu.uuid)
        from advisor.probe.nvml import sm_clock_reader

        info.read_clock = sm_clock_reader(gpu.uuid)
    return info


def _nvml_readers(uuid: str):
    from advisor.probe.nvml import read_live_state

    def read_link() -> Optional[tuple[int, int]]:
        state = read_live_state(uuid=uuid)
        if isinstance(state.pcie_gen, int) and isinstance(state.pcie_width, int):
            return state.pcie_gen, state.pcie_width
        return None

    def read_state() -> Optional[dict[str, Any]]:
        state = read_live_state(uuid=uuid)
        sample = {"sm_clock_mhz": state.clock_sm_mhz, "clock_event_reasons": state.clock_event_reasons,
                  "temperature_c": state.temperature_c, "power_w": state.power_draw_w}
        return {k: v for k, v in sample.items() if not isinstance(v, Unavailable)}

    return read_link, read_state
