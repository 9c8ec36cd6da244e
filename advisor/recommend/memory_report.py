"""`gpu-advisor memory` results as Recommendations: headroom, "will this fit", an OOM message explained. Pure."""

from __future__ import annotations

from dataclasses import asdict
from typing import Optional

from advisor.formatting import human_bytes
from advisor.models.common import Confidence
from advisor.models.recommendations import (
    FitVerification,
    MemoryFitDetails,
    MemoryFitRecommendation,
    MemoryHeadroomDetails,
    MemoryHeadroomRecommendation,
    OomDetails,
    OomRecommendation,
    SquareMatmulFit,
    TensorFootprint,
)
from advisor.recommend.memory_fit import TABLE_DTYPES, footprint, largest_scaled, largest_square_matmul
from advisor.recommend.memory_probe import Headroom, OpCheck
from advisor.recommend.oom_explain import OomExplanation


def _shape(shape: tuple[int, ...]) -> str:
    return " x ".join(f"{d:,}" for d in shape)


def matmul_table(usable_bytes: int) -> list[SquareMatmulFit]:
    rows = []
    for dtype in TABLE_DTYPES:
        plain = largest_square_matmul(usable_bytes, dtype)
        copied = largest_square_matmul(usable_bytes, dtype, extra_copies=1)
        rows.append(SquareMatmulFit(dtype=dtype, n=plain, n_with_copy=copied,
                                    bytes=footprint("matmul", (plain, plain), dtype).total_bytes))
    return rows


def headroom_recommendation(headroom: Headroom) -> MemoryHeadroomRecommendation:
    h = headroom
    table = matmul_table(h.usable_bytes)
    fp32 = next(row for row in table if row.dtype == "float32")
    summary = (f"{human_bytes(h.usable_bytes)} usable of {human_bytes(h.total_bytes)} on GPU {h.device_index} "
               f"({h.device_name}); largest float32 square matmul: {fp32.n:,} x {fp32.n:,}")
    reasoning = []
    if h.context_bytes is not None:
        reasoning.append(f"The CUDA context of a process costs {human_bytes(h.context_bytes)} before any tensor, "
                         f"and the first matmul {human_bytes(h.cublas_outside_torch_bytes + h.cublas_workspace_bytes)}"
                         f" more (cuBLAS handle and workspace): every process using this GPU pays both.")
    if h.used_before_bytes:
        others = h.other_processes_bytes if h.other_processes_bytes is not None else h.used_before_bytes
        reasoning.append(f"Before this process started, {human_bytes(h.used_before_bytes)} was in use "
                         f"({human_bytes(others)} by other processes as NVML lists them).")
    reasoning.append("A matmul needs both inputs and the output alive together (3 n^2 elements); a non-contiguous "
                     "operand that must be made contiguous, or a dtype change on the way to the GPU, adds one more "
                     "full copy while it runs (the 'with a copy' column; the copy checks below show which patterns "
                     "copy on this torch).")
    if h.fragmented_bytes:
        reasoning.append(f"{human_bytes(h.fragmented_bytes)} of torch's reserved memory sits in split, inactive "
                         "blocks (fragmentation).")
    details = MemoryHeadroomDetails(
        device_index=h.device_index, device=h.device_name, total_bytes=h.total_bytes,
        free_bytes=h.free_bytes, used_before_bytes=h.used_before_bytes,
        other_processes_bytes=h.other_processes_bytes, context_bytes=h.context_bytes,
        cublas_outside_torch_bytes=h.cublas_outside_torch_bytes, cublas_workspace_bytes=h.cublas_workspace_bytes,
        torch_reserved_bytes=h.torch_reserved_bytes, torch_allocated_bytes=h.torch_allocated_bytes,
        reserved_unallocated_bytes=h.reserved_unallocated_bytes, fragmented_bytes=h.fragmented_bytes,
        driver_reserve_bytes=h.driver_reserve_bytes, usable_bytes=h.usable_bytes,
        allocator_conf=h.allocator_conf or None,
        matmul_fits=table, copy_checks=[asdict(c) for c in h.copies],
    )
    return MemoryHeadroomRecommendation(title="GPU memory headroom", summary=summary, value=h.usable_bytes,
                                        confidence=Confidence.measured, reasoning=reasoning, details=details)


def fit_recommendation(op: str, shape: tuple[int, ...], dtype: str, usable_bytes: int, *, noncontiguous: bool,
                       check: Optional[OpCheck] = None) -> MemoryFitRecommendation:
    copies = 1 if noncontiguous else 0
    plan = footprint(op, shape, dtype, extra_copies=copies)
    needed = plan.total_bytes
    fits = needed <= usable_bytes
    best = largest_scaled(op, shape, dtype, usable_bytes, extra_copies=copies)
    what = f"{op} of {_shape(shape)} {dtype}" + (" (one operand non-contiguous)" if noncontiguous else "")
    if fits:
        summary = f"{what}: fits, needs {human_bytes(needed)} of {human_bytes(usable_bytes)} usable"
        if best and best != shape:
            summary += f"; up to {_shape(best)} would fit"
    elif best:
        summary = (f"{what}: does NOT fit, needs {human_bytes(needed)}, {human_bytes(usable_bytes)} usable; "
                   f"largest that fits with the same proportions: {_shape(best)}")
    else:
        summary = f"{what}: does NOT fit, and no scaled-down version does either"
    reasoning = ["Alive together: " + ", ".join(f"{name} {_shape(s)}" for name, s in plan.tensors)
                 + f" = {human_bytes(needed)} (blocks rounded to the allocator's 2 MiB)."]
    if not fits:
        reasoning.append("To make it fit: chunk the op (row blocks of A, or a loop over the batch), use a "
                         "smaller dtype (bf16 halves every tensor), or free other tensors first; "
                         "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True helps only against fragmentation.")
    details = MemoryFitDetails(
        op=op, shape=list(shape), dtype=dtype, noncontiguous=noncontiguous,
        tensors=[TensorFootprint(name=n, shape=list(s), bytes=b) for (n, s), b in zip(plan.tensors, plan.tensor_bytes(), strict=True)],
        needed_bytes=needed, usable_bytes=usable_bytes, fits=fits, largest_fitting_shape=list(best) if best else None)
    confidence = Confidence.inferred
    if check is not None:
        details.verified = FitVerification(ran=check.ran, out_of_memory=check.out_of_memory,
                                           peak_bytes=check.peak_bytes, predicted_bytes=check.predicted_bytes,
                                           message=check.message or None)
        confidence = Confidence.measured
        outcome = "ran" if check.ran else ("out of memory" if check.out_of_memory else f"failed: {check.message}")
        reasoning.append(f"Verified by running it: {outcome}, peak {human_bytes(check.peak_bytes)} "
                         f"(predicted {human_bytes(check.predicted_bytes)}).")
    return MemoryFitRecommendation(title="Will it fit", summary=summary, value=fits, confidence=confidence,
                                   reasoning=reasoning, details=details)


def oom_recommendation(explanation: OomExplanation) -> OomRecommendation:
    r = explanation.reading
    labels = {"too_big_for_gpu": "one tensor is larger than the GPU", "fragmentation": "fragmentation",
              "other_processes": "other processes hold the memory", "non_pytorch": "memory outside torch",
              "genuinely_full": "the live tensors need more than the GPU has", "unknown": "not enough numbers"}
    details = OomDetails(
        cause=explanation.cause, tried_bytes=r.tried, gpu=r.gpu, total_bytes=r.total, free_bytes=r.free,
        this_process_bytes=r.this_process, allocated_bytes=r.allocated, reserved_unallocated_bytes=r.reserved_unallocated,
        private_pool_bytes=r.private_pools, non_pytorch_bytes=r.non_pytorch, other_processes_bytes=r.others,
        other_processes={str(k): v for k, v in r.other_processes.items()}, message_style=r.style)
    return OomRecommendation(title="Out of memory, explained", summary=f"cause: {labels[explanation.cause]}",
                             confidence=Confidence.inferred,
                             reasoning=[*explanation.meaning, *(f"Try: {tip}" for tip in explanation.try_next)],
                             details=details)
