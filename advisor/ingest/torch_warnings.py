"""What torch's own warnings and errors, pasted around a collect_env output, say about the GPU and the build.

collect_env does not print compute capabilities or the arch list, and it cannot say why CUDA is unusable; torch's
messages printed beside it do, and they are the strongest evidence in a paste. Forms seen across releases:
  "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.
   The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90."
  "Found GPU0 Tesla K40c which is of cuda capability 3.5. PyTorch no longer supports this GPU because it is
   too old. The minimum cuda capability supported by this library is 3.7."
  "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver"
  "The NVIDIA driver on your system is too old (found version 10010)."
  "CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment ..."
  "Torch not compiled with CUDA enabled"
Lines are read with string methods only (find/partition), so a long or hostile paste is read in linear time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

_SM_FORM = " with CUDA capability sm_"
_NOT_COMPATIBLE = "is not compatible with the current PyTorch"
_FOUND_FORM = "Found GPU"
_SUPPORTED = "supports CUDA capabilities "
#: Substrings of torch's messages about CUDA being unusable, in the order they explain most.
REASON_MARKERS = (
    "Torch not compiled with CUDA enabled",
    "Found no NVIDIA driver on your system",
    "The NVIDIA driver on your system is too old",
    "PyTorch no longer supports this GPU",
    "Minimum and Maximum cuda capability supported",
    _NOT_COMPATIBLE,
    "no kernel image is available for execution on the device",
    "CUDA initialization:",
    "CUDA driver initialization failed",
    "no CUDA-capable device is detected",
    "CUDA driver version is insufficient for CUDA runtime version",
)
#: Lines that say `import torch` itself failed (printed by collect_env's own import, or above it).
IMPORT_MARKERS = ("No module named 'torch'", 'No module named "torch"', "No module named torch",
                  "Error loading \"", "cannot open shared object file", "DLL load failed",
                  "undefined symbol:", "[WinError 126]", "[WinError 127]")
#: A message line is cut here: the reason is shown to the user, and a hostile paste can make one line huge.
MAX_MESSAGE = 400
_MAX_LINE = 4096


@dataclass
class TorchWarning:
    #: GPU name -> compute capability ("12.0") as torch's warning states it.
    capabilities: dict[str, str] = field(default_factory=dict)
    #: The arch list the warning says the build supports, when it prints one.
    arch_list: Optional[list[str]] = None
    #: torch's own words on why CUDA is unusable, the most telling message first.
    reasons: list[str] = field(default_factory=list)
    #: The first line saying `import torch` failed, when one is in the text.
    import_error: Optional[str] = None
    #: (index, name, compute capability) of each "Found GPU<i> <name> which is of cuda capability X.Y".
    found_gpus: list[tuple[int, str, str]] = field(default_factory=list)


def read_torch_warning(text: str) -> TorchWarning:
    found = TorchWarning()
    reasons: dict[int, str] = {}
    lines = text.split("\n")
    for number, raw_line in enumerate(lines):
        line = raw_line[:_MAX_LINE].strip()
        if not line:
            continue
        _read_sm_form(line, found)
        _read_found_form(line, found)
        if found.arch_list is None and (at := line.find(_SUPPORTED)) >= 0:
            archs = [word.rstrip(".,") for word in line[at + len(_SUPPORTED):].split()]
            archs = [a for a in archs if _is_arch(a)]
            found.arch_list = archs or None
        if found.import_error is None and any(marker in line for marker in IMPORT_MARKERS) and (
                "torch" in line.lower() or "No module named" not in line):
            found.import_error = line[:MAX_MESSAGE]
        for rank, marker in enumerate(REASON_MARKERS):
            if rank not in reasons and marker in line:
                reasons[rank] = _message(line, marker, lines, number)
    found.reasons = [reasons[rank] for rank in sorted(reasons)]
    return found


def _is_arch(word: str) -> bool:
    kind, _, digits = word.partition("_")
    return kind in ("sm", "compute") and 2 <= len(digits) <= 5 and digits[:-1].isdecimal() and digits.isalnum()


def _message(line: str, marker: str, lines: list[str], number: int) -> str:
    """The message from its marker on, with the next line when torch wrapped it ("...too old.\\n Please ...")."""
    message = line[line.find(marker):]
    if marker == "CUDA initialization:" or len(message) < 60:
        following = lines[number + 1][:_MAX_LINE].strip() if number + 1 < len(lines) else ""
        if following and ":" not in following[:40] and not following.startswith(("[", "File ", "/")):
            message = f"{message} {following}"
    for prefix in ("UserWarning: ", "RuntimeError: ", "AssertionError: "):
        message = message.replace(prefix, "")
    return message[:MAX_MESSAGE].strip()


def _read_sm_form(line: str, found: TorchWarning) -> None:
    at = line.find(_SM_FORM)
    if at < 0 or _NOT_COMPATIBLE not in line:
        return
    name = line[:at]
    for prefix in ("UserWarning:", "warnings.warn("):
        if prefix in name:
            name = name.rsplit(prefix, 1)[1]
    digits = line[at + len(_SM_FORM):].split(" ", 1)[0]
    if name.strip() and digits.isdecimal() and 2 <= len(digits) <= 4:
        found.capabilities[name.strip().strip("'\"")] = f"{int(digits[:-1])}.{digits[-1]}"


def _read_found_form(line: str, found: TorchWarning) -> None:
    at = line.find(_FOUND_FORM)
    if at < 0:
        return
    rest = line[at + len(_FOUND_FORM):]
    index, _, rest = rest.partition(" ")
    for form in (" which is of cuda capability ", " which is of compute capability "):
        name, sep, after = rest.partition(form)
        if sep:
            break
    else:
        return
    cc = after.removeprefix("(CC) ").split(" ", 1)[0].rstrip(".,;")
    major, dot, minor = cc.partition(".")
    if index.isdecimal() and dot and major.isdecimal() and minor.isdecimal() and len(major) <= 2 and len(minor) <= 2:
        cc = f"{int(major)}.{int(minor)}"
        found.capabilities.setdefault(name.strip(), cc)
        if len(index) <= 4 and len(found.found_gpus) < 4096:
            found.found_gpus.append((int(index), name.strip(), cc))
