"""Will these tensors fit? Footprints of one op, counted the way the caching allocator hands out memory. Pure.

Every operand and the output are alive together; a non-contiguous operand that the kernel needs contiguous
(a strided slice such as ``x[:, ::2]``, a permuted view fed to a kernel without stride support, a dtype change
on the way to the GPU) costs one more full copy while the op runs. Each block over 1 MiB is rounded up to the
allocator's 2 MiB granularity.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Optional, Sequence

MIB = 2**20
#: Bytes per element of the dtypes `gpu-advisor memory` reports.
DTYPE_BYTES = {"float64": 8, "float32": 4, "bfloat16": 2, "float16": 2, "int8": 1}
TABLE_DTYPES = ("float64", "float32", "bfloat16", "float16")
OPS = ("matmul", "add", "alloc")


def driver_reserve(total_bytes: int) -> int:
    """Free memory that cannot be had in large blocks, subtracted from "usable": on an H200 (driver 580,
    torch 2.11) three tensors sized to the last byte of free + cached memory failed and 0.1% less (153 MB) ran --
    the driver keeps some back for page tables and its own bookkeeping. max(256 MiB, 0.2% of the device)."""
    return max(256 * MIB, int(total_bytes * 0.002))


def block_bytes(nbytes: int) -> int:
    """What the caching allocator reserves for one tensor: under 1 MiB it shares 2 MiB segments (counted
    exactly here), above it the block is rounded up to a multiple of 2 MiB."""
    if nbytes <= MIB:
        return max(512, math.ceil(nbytes / 512) * 512)
    return math.ceil(nbytes / (2 * MIB)) * 2 * MIB


@dataclass(frozen=True)
class Footprint:
    op: str
    shape: tuple[int, ...]
    dtype: str
    #: (name, shape) of every tensor alive while the op runs, extra copies included.
    tensors: tuple[tuple[str, tuple[int, ...]], ...]

    @property
    def itemsize(self) -> int:
        return DTYPE_BYTES[self.dtype]

    def tensor_bytes(self) -> list[int]:
        return [math.prod(shape) * self.itemsize for _, shape in self.tensors]

    @property
    def total_bytes(self) -> int:
        return sum(block_bytes(b) for b in self.tensor_bytes())


def parse_shape(text: str) -> tuple[int, ...]:
    """'30000,30000' or '30000x30000' -> (30000, 30000); ValueError with a readable message otherwise."""
    parts = re.split(r"\s*[,x]\s*", text.strip())
    if not all(re.fullmatch(r"-?\d+", p) for p in parts):
        raise ValueError(f"shape {text!r}: expected integers separated by commas, e.g. 30000,30000")
    shape = tuple(int(p) for p in parts)
    if any(d < 1 for d in shape):
        raise ValueError(f"shape {text!r}: every dimension must be a positive integer")
    return shape


def footprint(op: str, shape: Sequence[int], dtype: str, *, extra_copies: int = 0) -> Footprint:
    """matmul: shape M,K[,N] is A (MxK) @ B (KxN), N defaulting to M; add: a + b -> out; alloc: one tensor."""
    if dtype not in DTYPE_BYTES:
        raise ValueError(f"dtype {dtype!r}: expected one of {', '.join(DTYPE_BYTES)}")
    shape = tuple(shape)
    if op == "matmul":
        if len(shape) not in (2, 3):
            raise ValueError(f"matmul takes --shape M,K or M,K,N (A is MxK, B is KxN), got {len(shape)} numbers")
        m, k = shape[0], shape[1]
        n = shape[2] if len(shape) == 3 else m
        tensors = [("A", (m, k)), ("B", (k, n)), ("out", (m, n))]
        bigger = max(tensors[:2], key=lambda t: math.prod(t[1]))
        tensors += [(f"contiguous copy of {bigger[0]}", bigger[1])] * extra_copies
    elif op == "add":
        tensors = [("a", shape), ("b", shape), ("out", shape)] + [("contiguous copy of a", shape)] * extra_copies
    elif op == "alloc":
        tensors = [("tensor", shape)] + [("copy", shape)] * extra_copies
    else:
        raise ValueError(f"op {op!r}: expected one of {', '.join(OPS)}")
    return Footprint(op, shape, dtype, tuple(tensors))


def largest_square_matmul(usable_bytes: int, dtype: str, *, extra_copies: int = 0) -> int:
    """The largest N for which N x N @ N x N (+ copies) fits in ``usable_bytes``."""
    per_element = DTYPE_BYTES[dtype] * (3 + extra_copies)
    low, high = 0, math.isqrt(max(0, usable_bytes) // per_element) + 1  # high never fits (rounding only adds)
    while high - low > 1:
        middle = (low + high) // 2
        if footprint("matmul", (middle, middle), dtype, extra_copies=extra_copies).total_bytes <= usable_bytes:
            low = middle
        else:
            high = middle
    return low


def largest_scaled(op: str, shape: Sequence[int], dtype: str, usable_bytes: int, *,
                   extra_copies: int = 0) -> Optional[tuple[int, ...]]:
    """The requested shape scaled by one common factor (aspect kept) to the largest that fits -- down when it
    does not fit, up when it does; None when not even all-ones fits."""
    def scaled(factor: float) -> tuple[int, ...]:
        return tuple(max(1, math.floor(d * factor)) for d in shape)

    def fits(factor: float) -> bool:
        return footprint(op, scaled(factor), dtype, extra_copies=extra_copies).total_bytes <= usable_bytes

    if not fits(0.0):
        return None
    low, high = 0.0, 1.0
    if fits(1.0):
        low, high = 1.0, 2.0
        while fits(high) and high < 2**40:
            low, high = high, high * 2
    for _ in range(60):  # to well under one element on any dimension
        middle = (low + high) / 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return scaled(low)
