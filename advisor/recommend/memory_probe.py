"""GPU memory as this process finds it: what the CUDA context and cuBLAS cost, what is free, what torch holds,
and which common patterns make an extra copy -- measured, on this torch and this GPU.

The context's own cost is "used after our context exists" minus "used before" (NVML's reading, taken by the
probe before torch touched the GPU) minus what torch's allocator holds. Everything here frees what it made.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from typing import Any, Optional

from advisor.recommend.memory_fit import driver_reserve, footprint
from advisor.recommend.trials import first_line, is_oom_message


@dataclass
class CopyCheck:
    pattern: str
    result_bytes: int
    #: Peak allocated beyond the inputs and the result while it ran: the hidden copy (0: none).
    extra_bytes: int


@dataclass
class Headroom:
    device_index: int
    device_name: str
    total_bytes: int
    free_bytes: int  # after this process's context and cuBLAS exist
    used_before_bytes: Optional[int] = None  # NVML, before this process made a context
    other_processes_bytes: Optional[int] = None  # NVML's per-process list, this process excluded
    context_bytes: Optional[int] = None
    cublas_outside_torch_bytes: int = 0  # cuBLAS handle, its own allocations
    cublas_workspace_bytes: int = 0  # cuBLAS workspace, kept in torch's pool
    torch_reserved_bytes: int = 0
    torch_allocated_bytes: int = 0
    #: Reserved bytes in partly used segments (torch's inactive_split_bytes): the fragmentation there is now.
    fragmented_bytes: int = 0
    allocator_conf: str = ""
    copies: list[CopyCheck] = field(default_factory=list)

    @property
    def reserved_unallocated_bytes(self) -> int:
        return self.torch_reserved_bytes - self.torch_allocated_bytes

    @property
    def driver_reserve_bytes(self) -> int:
        return driver_reserve(self.total_bytes)

    @property
    def usable_bytes(self) -> int:
        """What new allocations in this process can reach: free on the device + cached by torch, less what the
        driver does not hand out in large blocks."""
        return max(0, self.free_bytes + self.reserved_unallocated_bytes - self.driver_reserve_bytes)


def probe_headroom(device_index: int, *, used_before_bytes: Optional[int] = None,
                   other_processes_bytes: Optional[int] = None, check_copies: bool = True) -> Headroom:
    import os

    import torch

    device = torch.device("cuda", device_index)
    torch.cuda.set_device(device)
    free_start, total = torch.cuda.mem_get_info(device)  # creates the context
    headroom = Headroom(device_index, torch.cuda.get_device_name(device), total, free_start,
                        used_before_bytes=used_before_bytes, other_processes_bytes=other_processes_bytes,
                        allocator_conf=os.environ.get("PYTORCH_CUDA_ALLOC_CONF", ""))
    reserved_start = torch.cuda.memory_reserved(device)
    if used_before_bytes is not None:
        headroom.context_bytes = max(0, (total - free_start) - used_before_bytes - reserved_start)
    # The first matmul creates the cuBLAS handle (memory outside torch) and its workspace (inside torch's pool,
    # kept for the life of the process): a user's program pays both before its first real matmul.
    a = torch.ones(64, 64, device=device)
    (a @ a).sum().item()
    del a
    torch.cuda.synchronize(device)
    torch.cuda.empty_cache()
    free_after, _ = torch.cuda.mem_get_info(device)
    reserved_after = torch.cuda.memory_reserved(device)
    headroom.cublas_workspace_bytes = torch.cuda.memory_allocated(device)
    headroom.cublas_outside_torch_bytes = max(0, (free_start - free_after) - (reserved_after - reserved_start))
    if check_copies:
        headroom.copies = measure_copies(device)
        torch.cuda.empty_cache()
    headroom.free_bytes, _ = torch.cuda.mem_get_info(device)
    headroom.torch_reserved_bytes = torch.cuda.memory_reserved(device)
    headroom.torch_allocated_bytes = torch.cuda.memory_allocated(device)
    stats = torch.cuda.memory_stats(device)
    headroom.fragmented_bytes = int(stats.get("inactive_split_bytes.all.current", 0))
    return headroom


def _extra_during(device: Any, run: Any) -> tuple[int, int]:
    """(result bytes, peak bytes beyond what was allocated before and the result itself) of ``run()``."""
    import torch

    torch.cuda.synchronize(device)
    before = torch.cuda.memory_allocated(device)
    torch.cuda.reset_peak_memory_stats(device)
    result = run()
    torch.cuda.synchronize(device)
    size = result.numel() * result.element_size() if result.device.type == "cuda" else 0
    extra = torch.cuda.max_memory_allocated(device) - before - size
    del result
    return size, max(0, extra)


def measure_copies(device: Any, n: int = 2048) -> list[CopyCheck]:
    """Which everyday patterns allocate a hidden full copy on the GPU (n x n float32 operands, 16 MiB each)."""
    import torch

    host = torch.randn(n, n)
    a = torch.randn(n, n, device=device)
    wide = torch.randn(n, 2 * n, device=device)
    strided = wide[:, ::2]  # n x n, every other column: no BLAS layout describes it
    checks = []
    for pattern, run in (
        ("x_cpu.to('cuda')", lambda: host.to(device)),
        ("x_cpu.t().to('cuda')", lambda: host.t().to(device)),
        ("x_cpu.t().to('cuda', torch.float16)", lambda: host.t().to(device, torch.float16)),
        ("a.t() @ a (transposed operand)", lambda: a.t() @ a),
        ("x[:, ::2] @ a (strided operand)", lambda: strided @ a),
        ("a.t().contiguous()", lambda: a.t().contiguous()),
    ):
        size, extra = _extra_during(device, run)
        checks.append(CopyCheck(pattern, size, extra))
    return checks  # the operands go with this frame


@dataclass
class OpCheck:
    ran: bool
    peak_bytes: int  # peak allocated beyond what was allocated before
    #: What the footprint predicts for this run; a non-contiguous operand is made as every other column of a
    #: twice-as-wide tensor, so its storage counts twice (the gaps) besides the copy the kernel makes.
    predicted_bytes: int = 0
    message: str = ""
    out_of_memory: bool = False


def verify_op(device_index: int, op: str, shape: tuple[int, ...], dtype: str, *, noncontiguous: bool) -> OpCheck:
    """Really allocate the operands and run the op once; the peak it took, or the out-of-memory it hit."""
    import torch

    device = torch.device("cuda", device_index)
    torch_dtype = getattr(torch, dtype)
    plan = footprint(op, shape, dtype, extra_copies=1 if noncontiguous else 0)
    predicted = plan.total_bytes + (plan.tensor_bytes()[0] if noncontiguous else 0)
    torch.cuda.synchronize(device)
    torch.cuda.empty_cache()
    before = torch.cuda.memory_allocated(device)
    torch.cuda.reset_peak_memory_stats(device)
    failure, oom = "", False
    try:
        _run_op(device, torch_dtype, op, [s for _, s in plan.tensors], noncontiguous)
    except Exception as error:  # noqa: BLE001 -- OOM is the answer; anything else (int8 matmul) is reported
        failure = f"{type(error).__name__}: {first_line(str(error))}"
        oom = isinstance(error, torch.cuda.OutOfMemoryError) or is_oom_message(str(error))
    # After the except block: the operands' frames are released, the cache can be emptied.
    peak = torch.cuda.max_memory_allocated(device) - before
    gc.collect()
    torch.cuda.synchronize(device)
    torch.cuda.empty_cache()
    return OpCheck(not failure, peak, predicted, failure, out_of_memory=oom)


def _run_op(device: Any, dtype: Any, op: str, shapes: list[tuple[int, ...]], noncontiguous: bool) -> None:
    import torch

    def operand(shape: tuple[int, ...]) -> Any:
        if not noncontiguous:
            return torch.ones(shape, device=device, dtype=dtype)
        # Twice as wide, every other column: a strided view the kernel must copy to contiguous memory.
        wide = torch.ones((*shape[:-1], 2 * shape[-1]), device=device, dtype=dtype)
        return wide[..., ::2]

    if op == "alloc":
        torch.ones(shapes[0], device=device, dtype=dtype)
    elif op == "add":
        torch.add(operand(shapes[0]), torch.ones(shapes[1], device=device, dtype=dtype))
    else:
        torch.matmul(operand(shapes[0]), torch.ones(shapes[1], device=device, dtype=dtype))
    torch.cuda.synchronize(device)
