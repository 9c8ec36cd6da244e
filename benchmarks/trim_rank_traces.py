"""Keep a torchrun profile's kept traces (``--trace-out DIR``: DIR/rank0, DIR/rank1, ...) as small test fixtures:
each trace without its Python frames (most of its size), so the step marks, the operators, the annotations
(gloo's collectives), the runtime calls and the GPU's kernels stay exactly as recorded.

    python benchmarks/trim_rank_traces.py DIR OUT_DIR
"""

from __future__ import annotations

import gzip
import json
import shutil
import sys
from pathlib import Path

TRACE = "gpu_advisor.pt.trace.json.gz"
RUN = "gpu_advisor_run.json"


def trim(source: Path, target: Path) -> None:
    with gzip.open(source / TRACE, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    data["traceEvents"] = [e for e in data.get("traceEvents", []) if e.get("cat") != "python_function"]
    target.mkdir(parents=True, exist_ok=True)
    with gzip.open(target / TRACE, "wt", encoding="utf-8", compresslevel=9) as handle:
        json.dump(data, handle, separators=(",", ":"))
    shutil.copyfile(source / RUN, target / RUN)


def main() -> None:
    source, target = Path(sys.argv[1]), Path(sys.argv[2])
    for rank_dir in sorted(source.glob("rank*")):
        trim(rank_dir, target / rank_dir.name)


if __name__ == "__main__":
    main()
