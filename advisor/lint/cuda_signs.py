"""Does a file show any sign that it runs on CUDA at all?

The project's labelling convention (issue 12, session 5): a file with no `cuda`, no `device`, no `.to(...)` of
anything, no `torch.device` and no GPU-only API is CPU code, and checks that report a GPU cost stay silent on it.
The linter otherwise guesses that a snippet's free `model` / `net` is the program's CUDA model; without a single
sign of the accelerator in the file that guess is wrong more often than right (a CPU tutorial's loop).

Read from the code, not from comments: "# runs on the GPU" is no sign. A regular expression over the text (a
match after a `#` on its line is a comment) is much faster than a walk of the syntax tree, and runs for every file.
"""

from __future__ import annotations

import re

# Identifiers, attribute and keyword names, strings that only code meant for an accelerator writes, and `.to(`:
# a move the author meant to make.
_SIGN = re.compile(r"cuda|gpu|device|cudnn|nccl|nvidia|nvml|accelerat|DataParallel|DistributedDataParallel|"
                   r"pin_memory|autocast|GradScaler|tensorrt|triton|\.to\(|\.to_empty\(", re.IGNORECASE)


def shows_cuda(text: str) -> bool:
    """True when a line's code (not its comment) names CUDA, a device or a GPU-only API, or moves a value."""
    for match in _SIGN.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if "#" not in text[line_start:match.start()]:
            return True
    return False
