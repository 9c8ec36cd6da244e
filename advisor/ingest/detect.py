"""Finding the collect_env output and the nvidia-smi -q output inside one pasted text.

Either may come with prose, prompts and warnings around it, and both may be pasted together in either order.
Each is recognised by its own structure, not by a single word: a sentence such as "PyTorch version: 2.1" in an
issue template is not collect_env output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from advisor.ingest.collect_env_fields import LABEL_LINE

_NVSMI_BANNER = re.compile(r"^\s*=+\s*NVSMI LOG\s*=+\s*$")
_SMI_DRIVER = re.compile(r"^\s*Driver Version\s*:")
_SMI_ATTACHED = re.compile(r"^\s*Attached GPUs\s*:")
_CE_START = re.compile(r"^\s*PyTorch version\s*:")
_PACKAGE_LINE = re.compile(r"^\s*\[(pip3?|conda)\]")
#: Distinct collect_env labels a region must show before it counts as collect_env output.
MIN_COLLECT_ENV_LABELS = 3


@dataclass(frozen=True)
class Sections:
    collect_env: Optional[str]
    nvidia_smi: Optional[str]


def find_sections(text: str) -> Sections:
    lines = text.split("\n")
    ce_start = _collect_env_start(lines)
    smi_start = _nvidia_smi_start(lines)
    ce_text = smi_text = None
    if ce_start is not None:
        stop = smi_start if smi_start is not None and smi_start > ce_start else len(lines)
        ce_lines = _until_packages_end(lines[ce_start:stop])
        if _label_count(ce_lines) >= MIN_COLLECT_ENV_LABELS:
            ce_text = "\n".join(ce_lines)
    if smi_start is not None:
        stop = ce_start if ce_start is not None and ce_start > smi_start else len(lines)
        smi_text = "\n".join(lines[smi_start:stop])
    return Sections(collect_env=ce_text, nvidia_smi=smi_text)


def _collect_env_start(lines: list[str]) -> Optional[int]:
    return next((i for i, line in enumerate(lines) if _CE_START.match(line)), None)


def _nvidia_smi_start(lines: list[str]) -> Optional[int]:
    for i, line in enumerate(lines):
        if _NVSMI_BANNER.match(line):
            return i
    # Without the banner (a partial copy), "Driver Version" followed closely by "Attached GPUs" is nvidia-smi -q.
    for i, line in enumerate(lines):
        if _SMI_DRIVER.match(line) and any(_SMI_ATTACHED.match(after) for after in lines[i + 1:i + 6]):
            return i
    return None


def _until_packages_end(lines: list[str]) -> list[str]:
    # The package lines are collect_env's last; whatever follows them (a shell prompt, more prose) is not.
    in_packages = False
    for i, line in enumerate(lines):
        if line.strip().startswith("Versions of relevant libraries"):
            in_packages = True
        elif in_packages and line.strip() and not _PACKAGE_LINE.match(line):
            return lines[:i]
    return lines


def _label_count(lines: list[str]) -> int:
    return len({match["label"] for line in lines if (match := LABEL_LINE.match(line))})
