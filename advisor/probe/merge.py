"""Joins torch's view of the GPUs to NVML's: which physical GPU each torch device is, matched by UUID.

Indexes cannot be trusted for this: CUDA_VISIBLE_DEVICES renumbers torch's devices, and CUDA's default
CUDA_DEVICE_ORDER (fastest first) need not match NVML's PCI order. UUIDs are the same GPU in both views.
"""

from __future__ import annotations

from advisor.models.common import Fact, is_missing, missing
from advisor.models.facts import GpuFacts, TorchFacts


def normalise_uuid(uuid: str) -> str:
    """NVML says "GPU-58e8a5b0-...", torch says "58e8a5b0-...": compare them without prefix or case."""
    text = uuid.strip().lower()
    return text[4:] if text.startswith(("gpu-", "mig-")) else text


def attach_torch_view(gpus: Fact[list[GpuFacts]], torch: TorchFacts) -> Fact[list[GpuFacts]]:
    """Fill each GPU's torch_index (None when torch cannot see it) and sm_count (only torch reports it)."""
    if is_missing(gpus):
        return gpus
    if torch.cuda_available is False:
        for gpu in gpus:
            gpu.torch_index = None  # torch in this process can use no GPU at all
            gpu.sm_count = missing("SM count comes from torch, which cannot use CUDA here")
        return gpus
    devices = torch.devices
    if is_missing(devices):
        for gpu in gpus:
            gpu.torch_index = gpu.sm_count = devices
        return gpus
    by_uuid = {normalise_uuid(d.uuid): d for d in devices if isinstance(d.uuid, str)}
    untraceable = missing("torch does not report device UUIDs, so its devices cannot be matched to NVML's")
    for gpu in gpus:
        if is_missing(gpu.uuid):
            gpu.torch_index = gpu.sm_count = gpu.uuid
            continue
        if not by_uuid and devices:
            gpu.torch_index = gpu.sm_count = untraceable
            continue
        device = by_uuid.get(normalise_uuid(gpu.uuid))
        if device is None:
            gpu.torch_index = None  # hidden by CUDA_VISIBLE_DEVICES (or a MIG parent whose slices torch sees)
            gpu.sm_count = missing("SM count comes from torch, which does not see this GPU")
        else:
            gpu.torch_index = device.index
            gpu.sm_count = device.sm_count
    return gpus
