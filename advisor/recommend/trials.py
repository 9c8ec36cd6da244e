"""One trial of a batch size: did it run, what peak memory it reached, how fast its steps were. Pure data.

Both the search (pure decisions) and the driver (GPU steps) speak in these records, so the search can be tested
on CPU with numbers recorded on a real GPU.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal, Optional

FailureKind = Literal["oom", "error"]

#: Messages torch and its libraries use for "not enough device memory" besides torch.OutOfMemoryError. cuDNN's
#: NOT_SUPPORTED at a large batch is how some convolutions refuse an oversize workspace (Lightning's
#: ``is_oom_error`` treats it the same way); the others are allocation failures inside cuBLAS / cuDNN / the host.
_OOM_MARKERS = (
    "out of memory",
    "CUBLAS_STATUS_ALLOC_FAILED",
    "CUDNN_STATUS_ALLOC_FAILED",
    "cuDNN error: CUDNN_STATUS_NOT_SUPPORTED",
    "DefaultCPUAllocator: can't allocate memory",
)


def is_oom_message(text: str) -> bool:
    return any(marker.lower() in text.lower() for marker in _OOM_MARKERS)


def first_line(text: str, limit: int = 300) -> str:
    """The first line of an error, short enough for a table cell and a one-line CLI error."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


@dataclass
class Trial:
    batch: int
    fits: bool
    #: torch.cuda.max_memory_allocated / max_memory_reserved over the trial's steps (bytes); on a failure, the
    #: peak reached before it.
    peak_allocated: int = 0
    peak_reserved: int = 0
    failure: Optional[FailureKind] = None
    message: str = ""
    steps: int = 0
    #: Median wall time of one steady-state step (seconds), device synchronized; None when not timed or failed.
    step_s: Optional[float] = None
    timing_samples: int = 0
    timing_stable: Optional[bool] = None
    #: Which phase asked for it: "fit" (small batches for the memory model), "search", "throughput".
    phase: str = "search"
    wall_s: float = 0.0

    @property
    def samples_per_s(self) -> Optional[float]:
        return self.batch / self.step_s if self.fits and self.step_s else None

    def as_dict(self) -> dict:
        data = asdict(self)
        data["samples_per_s"] = self.samples_per_s
        return data
