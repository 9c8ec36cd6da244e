"""Does a file show any sign that it runs on CUDA at all?

The project's labelling convention (issue 12, session 5): a file with no `cuda`, no `device`, no `.to(...)` of
anything, no `torch.device` and no GPU-only API is CPU code, and checks that report a GPU cost stay silent on it.
The linter otherwise guesses that a snippet's free `model` / `net` is the program's CUDA model; without a single
sign of the accelerator in the file that guess is wrong more often than right (a CPU tutorial's loop).

Read from the code, not from comments: "# runs on the GPU" is no sign. A regular expression over the text (a
match after a `#` on its line is a comment) is much faster than a walk of the syntax tree, and runs for every file.
"""

from __future__ import annotations

import ast
import re

# Identifiers, attribute and keyword names, strings that only code meant for an accelerator writes, and `.to(`:
# a move the author meant to make.
_SIGN = re.compile(r"cuda|gpu|device|cudnn|nccl|nvidia|nvml|accelerat|DataParallel|DistributedDataParallel|"
                   r"pin_memory|autocast|GradScaler|tensorrt|triton|\.to\(|\.to_empty\(", re.IGNORECASE)


# Words only code meant for an accelerator writes (not `device` or `.to(`: a CPU program moves things to 'cpu' too).
_ACCELERATOR = re.compile(r"cuda|gpu|cudnn|nccl|nvidia|nvml|accelerat|DataParallel|pin_memory|autocast|GradScaler|"
                          r"tensorrt|triton|(?<![a-z])(mps|xla|tpu)(?![a-z])", re.IGNORECASE)  # (not outPUt)


def shows_cuda(text: str) -> bool:
    """True when a line's code (not its comment) names CUDA, a device or a GPU-only API, or moves a value."""
    return _in_code(_SIGN, text)


def _in_code(pattern: re.Pattern, text: str) -> bool:
    for match in pattern.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if "#" not in text[line_start:match.start()]:
            return True
    return False


# Words only code meant for an NVIDIA GPU writes; and the name of Apple's GPU backend as a word.
_NVIDIA = re.compile(r"cuda|gpu|cudnn|nccl|nvidia|nvml|tensorrt|triton", re.IGNORECASE)
_MPS = re.compile(r"(?<![A-Za-z0-9_])mps(?![A-Za-z0-9_])")


def another_accelerator_only(text: str) -> bool:
    """The code picks Apple's GPU or the CPU (``torch.device("mps" if torch.backends.mps.is_available() else
    "cpu")``) and names nothing of CUDA: run as written it never runs on an NVIDIA GPU, so checks of CUDA costs stay
    silent, as on CPU code (the labellers of r66 and r68 set such files clean)."""
    return _in_code(_MPS, text) and not _in_code(_NVIDIA, text)


def fixed_to_cpu(tree: ast.AST, text: str) -> bool:
    """The code names no accelerator, binds its devices only to the CPU (``device = 'cpu'``, ``torch.device("cpu")``,
    or a ``.device`` read off what those made) and takes none from outside (no parameter or command-line option
    named device): every move it makes goes to the CPU, so it is CPU code like a file with no device at all. (A
    default of 'cpu' on a parameter or option is a device the caller can change: not fixed.)"""
    if _in_code(_ACCELERATOR, text):
        return False
    bound = False
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and "device" in node.arg.lower():
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument" \
                and any(isinstance(a, ast.Constant) and "device" in str(a.value) for a in node.args):
            return False
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and "device" in t.id.lower()
                                                for t in node.targets):
            if _cpu(node.value):
                bound = True
            elif not (isinstance(node.value, ast.Attribute) and node.value.attr == "device"):
                return False  # device = args.device, device = get_device(): not known to be the CPU
    return bound


def _cpu(value: ast.AST) -> bool:
    if isinstance(value, ast.Call) and value.args and not value.keywords:  # torch.device("cpu")
        value = value.args[0]
    return isinstance(value, ast.Constant) and value.value == "cpu"
