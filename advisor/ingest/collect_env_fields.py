"""Splitting collect_env output into its labelled fields, whatever the torch release printed.

collect_env prints "Label: value" lines, but several values run over more lines (the GPU list, the cuDNN
candidates, the CPU block, the package list), and the lines inside them can look like labels too ("GPU 0: ...",
"Model name: ..."). So fields start only at the labels collect_env itself prints; every other line belongs to
the field above it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: Every label torch's collect_env has printed from 1.x to 2.15 (and vLLM's copy, which pads " : ").
LABELS = (
    "PyTorch version", "Is debug build", "CUDA used to build PyTorch", "ROCM used to build PyTorch",
    "ROCm SDK used to build PyTorch", "HIP used to build PyTorch", "XPU used to build PyTorch",
    "OS", "GCC version", "Clang version", "CMake version", "Libc version",
    "Python version", "Python platform", "Is CUDA available", "CUDA runtime version",
    "CUDA_MODULE_LOADING set to", "GPU models and configuration", "Nvidia driver version", "cuDNN version",
    "Is XPU available", "Intel GPU driver version", "Intel GPU models onboard", "Intel GPU models detected",
    "HIP runtime version", "MIOpen runtime version", "Is XNNPACK available", "Caching allocator config",
    "CPU", "Versions of relevant libraries",
)
LABEL_LINE = re.compile(
    r"^\s*(?P<label>" + "|".join(re.escape(label) for label in sorted(LABELS, key=len, reverse=True))
    + r")\s*:[ \t]?(?P<value>.*)$")
_PACKAGE_LINE = re.compile(r"^\s*\[(?P<manager>pip3?|conda)\]\s*(?P<rest>.*)$")


@dataclass
class RawField:
    value: str  # what follows the label on its own line
    more: list[str] = field(default_factory=list)  # the lines after it, up to the next label

    def lines(self) -> list[str]:
        """The value's non-blank lines: the one after the label (if any) and those below it."""
        return [line for line in [self.value, *self.more] if line.strip()]


@dataclass
class RawCollectEnv:
    fields: dict[str, RawField]
    packages: list[tuple[str, str]]  # (manager, rest of line): ("pip3", "torch==2.3.0+cu121")

    def value(self, label: str) -> str | None:
        raw = self.fields.get(label)
        return raw.value.strip() if raw is not None else None


def split_fields(text: str) -> RawCollectEnv:
    fields: dict[str, RawField] = {}
    current: RawField | None = None
    packages: list[tuple[str, str]] = []
    for line in text.split("\n"):
        match = LABEL_LINE.match(line)
        if match and match["label"] not in fields:
            current = fields[match["label"]] = RawField(match["value"])
        elif (package := _PACKAGE_LINE.match(line)) is not None:
            packages.append((package["manager"], package["rest"].strip()))
        elif current is not None:
            current.more.append(line)
    return RawCollectEnv(fields, packages)
