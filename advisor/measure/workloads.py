"""The operations gpu-advisor times, defined once so every measurement runs exactly the same work.

Each workload knows how to build its inputs at a size (random data, never zeros: zeros run faster than real
data on some hardware), how to run itself, how many bytes that takes (to respect the GPU memory cap) and how
much work it is (to predict the CPU time of a size before running it).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional

from advisor.models.measurements import DType, Op

DTYPE_BYTES = {"float32": 4, "tf32": 4, "float16": 2, "bfloat16": 2, "float64": 8}
CONV_CHANNELS, CONV_SIDE = 16, 32


def torch_dtype(dtype: DType) -> Any:
    import torch

    return {"float32": torch.float32, "tf32": torch.float32, "float16": torch.float16,
            "bfloat16": torch.bfloat16, "float64": torch.float64}[dtype]


@contextlib.contextmanager
def precision_mode(dtype: DType) -> Iterator[None]:
    """TF32 on for "tf32", off for everything else, restored afterwards.

    cuDNN allows TF32 by default, so without this a "float32" convolution would really be a TF32 one.
    These are flags of gpu-advisor's own process, not GPU settings.
    """
    import torch

    matmul, cudnn = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    allow = dtype == "tf32"
    torch.backends.cuda.matmul.allow_tf32 = allow
    torch.backends.cudnn.allow_tf32 = allow
    try:
        yield
    finally:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = matmul, cudnn


@dataclass(frozen=True)
class Workload:
    op: Op
    size_unit: str
    description: str
    min_size: int
    max_size: int
    #: Tensors the op reads and writes, in elements, at a size (inputs + output).
    elements: Callable[[int], int]
    #: Amount of work at a size, in arbitrary consistent units (FLOPs, elements), for time extrapolation.
    work: Callable[[int], float]
    make_inputs: Callable[[int, Any, Any], tuple[Any, ...]]
    run: Callable[..., Any]
    #: The same op writing into an output allocated once (``run_into(out, *inputs)``), for the CPU side: a
    #: fresh output above glibc's mmap threshold (128 KiB) is page-faulted in on every call, a cost that swings
    #: with the kernel's state from run to run and that torch's GPU caching allocator does not have.
    run_into: Optional[Callable[..., Any]] = None

    def bytes_needed(self, size: int, dtype: DType) -> int:
        return self.elements(size) * DTYPE_BYTES[dtype]


def _torch() -> Any:
    import torch

    return torch


def _randn(shape: tuple[int, ...], dtype: Any, device: Any) -> Any:
    import torch

    return torch.randn(shape, dtype=dtype, device=device)


def _conv(x: Any, weight: Any) -> Any:
    import torch.nn.functional as F

    return F.conv2d(x, weight, padding=1)


WORKLOADS: dict[str, Workload] = {
    "matmul": Workload(
        op="matmul", size_unit="n (n x n matrices)", description="c = a @ b, a and b n x n",
        min_size=8, max_size=4096,
        elements=lambda n: 3 * n * n, work=lambda n: 2.0 * n ** 3,
        make_inputs=lambda n, dt, dev: (_randn((n, n), dt, dev), _randn((n, n), dt, dev)),
        run=lambda a, b: a @ b, run_into=lambda out, a, b: _torch().matmul(a, b, out=out),
    ),
    "add": Workload(
        op="add", size_unit="elements", description="z = x + y, x and y 1-D",
        min_size=256, max_size=1 << 27,
        elements=lambda n: 3 * n, work=lambda n: float(n),
        make_inputs=lambda n, dt, dev: (_randn((n,), dt, dev), _randn((n,), dt, dev)),
        run=lambda x, y: x + y, run_into=lambda out, x, y: _torch().add(x, y, out=out),
    ),
    "sum": Workload(
        op="sum", size_unit="elements", description="s = x.sum(), x 1-D",
        min_size=256, max_size=1 << 27,
        elements=lambda n: n + 1, work=lambda n: float(n),
        make_inputs=lambda n, dt, dev: (_randn((n,), dt, dev),),
        run=lambda x: x.sum(), run_into=lambda out, x: _torch().sum(x, dim=0, out=out),
    ),
    "conv2d": Workload(
        op="conv2d", size_unit="images (batch)",
        description=f"3x3 conv2d, {CONV_CHANNELS}->{CONV_CHANNELS} channels, {CONV_SIDE}x{CONV_SIDE} images, padding 1",
        min_size=1, max_size=1024,
        elements=lambda n: 2 * n * CONV_CHANNELS * CONV_SIDE * CONV_SIDE + CONV_CHANNELS * CONV_CHANNELS * 9,
        work=lambda n: 2.0 * n * CONV_CHANNELS * CONV_CHANNELS * 9 * CONV_SIDE * CONV_SIDE,
        make_inputs=lambda n, dt, dev: (_randn((n, CONV_CHANNELS, CONV_SIDE, CONV_SIDE), dt, dev),
                                        _randn((CONV_CHANNELS, CONV_CHANNELS, 3, 3), dt, dev)),
        run=_conv,
    ),
}

#: Which dtypes make sense per op: TF32 only changes matmul and convolution.
DTYPES_FOR_OP: dict[str, tuple[DType, ...]] = {
    "matmul": ("float32", "tf32", "float16", "bfloat16", "float64"),
    "conv2d": ("float32", "tf32", "float16", "bfloat16", "float64"),
    "add": ("float32", "float16", "bfloat16", "float64"),
    "sum": ("float32", "float16", "bfloat16", "float64"),
}
