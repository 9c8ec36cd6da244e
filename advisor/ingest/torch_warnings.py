"""What torch's own compatibility warning, printed into a collect_env paste, says about a GPU and the build.

collect_env does not print compute capabilities or the arch list, but when a GPU is too new (or too old) for
the build, torch's warning ahead of the output names both -- the very facts the architecture rule needs.
Formats seen across torch releases:
  "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.
   The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90."
  "Found GPU0 Tesla K40c which is of cuda capability 3.5. ... minimum cuda capability supported ... is 3.7."
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

# Anchored at line starts: unanchored, the lazy name is retried from every character of every line, which is
# quadratic in the line length (14 ms on an ordinary 5 kB paste with a long `pip list` line).
_SM_FORM = re.compile(r"^(?P<name>[^\n]+?) with CUDA capability sm_(?P<digits>\d+) is not compatible", re.MULTILINE)
_FOUND_FORM = re.compile(r"Found GPU(?P<index>\d+) (?P<name>[^\n]+?) which is of (?:cuda|compute) capability"
                         r"(?: \(CC\))? (?P<cc>\d+\.\d+)")
_SUPPORTED = re.compile(r"supports CUDA capabilities (?P<archs>(?:sm_\d+[a-z]?\s*)+)")


@dataclass
class TorchWarning:
    #: GPU name -> compute capability ("12.0") as torch's warning states it.
    capabilities: dict[str, str] = field(default_factory=dict)
    #: The arch list the warning says the build supports, when it prints one.
    arch_list: Optional[list[str]] = None


def read_torch_warning(text: str) -> TorchWarning:
    found = TorchWarning()
    for match in _SM_FORM.finditer(text):
        digits = match["digits"]
        found.capabilities[match["name"].strip()] = f"{digits[:-1]}.{digits[-1]}"
    for match in _FOUND_FORM.finditer(text):
        found.capabilities.setdefault(match["name"].strip(), match["cc"])
    if (match := _SUPPORTED.search(text)) is not None:
        found.arch_list = match["archs"].split()
    return found
