"""Showing behaviourally that a command never imports torch: run it where importing torch fails loudly.

The command must still work, and the poisoned package must say nothing. (Looking into ``sys.modules`` would
pin how the code avoids torch; this pins only that it does.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: What the poisoned torch prints when something imports it.
TORCH_POISON = "IMPORTED-TORCH"


def make_poisoned_torch(folder: Path) -> Path:
    """``folder`` with a `torch` package whose import prints TORCH_POISON and raises ImportError."""
    (folder / "torch").mkdir()
    (folder / "torch" / "__init__.py").write_text(
        f"import sys\nsys.stderr.write({TORCH_POISON!r} + '\\n')\nraise ImportError('this test forbids torch')\n")
    return folder


def run_without_torch(poisoned: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """`gpu-advisor ARGS` (the console entry) in a process whose first ``torch`` on the path is ``poisoned``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(poisoned), str(REPO)])}
    return subprocess.run([sys.executable, "-m", "advisor", *args], capture_output=True, text=True, cwd=REPO,
                          env=env, input=stdin, timeout=120)
