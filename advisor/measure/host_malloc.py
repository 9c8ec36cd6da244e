"""glibc's malloc, held in the state a long-running program reaches, so that CPU timings do not depend on history.

glibc serves an allocation above its mmap threshold with a fresh mapping that is page-faulted in on first touch
and unmapped on free; the threshold starts at 128 KiB and rises (up to 32 MiB) each time such a mapping is
freed. Whether a 30 MiB temporary (conv2d float64's im2col buffer at batch 26: 26 x 1.18 MB) costs page faults
on every call therefore depended on what the process had freed before: one H200 diagnose timed the CPU conv2d
float64 at 26 and 32 images 0.9 and 4.1 ms, the next at 38 and 46 images 1.3 and 0.9 ms, moving that crossover
1.8x between two idle runs (here, conv2d float64 at 32 images page-faults 9,217 pages a call; at 26, 1,203).
A fixed threshold of 1 GiB (trim at 2 GiB) takes the history out: every temporary of a crossover's CPU side
then reuses heap memory after its first call, as it would under a caching allocator (jemalloc, tcmalloc, which
PyTorch's CPU performance guides recommend); here conv2d float64 at 46 images then page-faults 0 pages a call
instead of 13,249. Process-wide and kept after the measurements (glibc cannot go back to its dynamic rule):
`diagnose` and `crossover` are processes of their own.
"""

from __future__ import annotations

import ctypes
import ctypes.util

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
#: Above every temporary of the crossover workloads within their memory caps.
MMAP_THRESHOLD = 1 << 30

_settled = False


def settle_host_malloc() -> bool:
    """Fix glibc's mmap and trim thresholds for this process (once); False where there is no glibc."""
    global _settled
    if _settled:
        return True
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False  # not glibc (musl, macOS, Windows): nothing to settle
    _settled = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, 2 * MMAP_THRESHOLD))
    return _settled
