"""The raw trace `gpu-advisor profile --trace-out DIR` keeps: gzip-compressed, named so TensorBoard's profiler
plugin and Perfetto both open it, with what the bootstrap noted beside it (``report_from_kept_trace`` in
profile_service.py summarises it again later)."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Optional

from advisor.profile.early_read import EarlyTask

TRACE_NAME = "gpu_advisor.pt.trace.json.gz"
RUN_NAME = "gpu_advisor_run.json"


def keep_trace(trace: Path, directory: Path, run_info: dict, compressed: Optional[EarlyTask] = None) -> None:
    """The trace and the run's notes into ``directory`` (OSError when it cannot take them). ``compressed``: the
    copy made in the work folder while the program exited, moved here; nothing is written to ``directory``
    before the run is known to have a trace to keep."""
    directory.mkdir(parents=True, exist_ok=True)
    packed = _early_copy(compressed)
    if packed is not None:
        shutil.move(str(packed), str(directory / TRACE_NAME))
    else:
        _compress(trace, directory / TRACE_NAME)
    (directory / RUN_NAME).write_text(json.dumps(run_info), encoding="utf-8")


def _early_copy(compressed: Optional[EarlyTask]) -> Optional[Path]:
    if compressed is None:
        return None
    try:
        return compressed.result()
    except OSError:  # the work folder could not take it: compressed again into the directory asked for
        return None


def compress_beside(trace: Path) -> Path:
    """The gzip copy, in the work folder beside the trace, under the name it will be kept by."""
    return _compress(trace, trace.with_name(TRACE_NAME))


def _compress(trace: Path, packed: Path) -> Path:
    # Large chunks: zlib lets go of the GIL while it compresses each, so this overlaps the parse of the trace.
    with open(trace, "rb") as source, gzip.open(packed, "wb", compresslevel=6) as sink:
        shutil.copyfileobj(source, sink, 1 << 20)
    return packed


