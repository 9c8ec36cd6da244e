"""Finding the collect_env output and the nvidia-smi -q output inside one pasted text.

Either may come with prose, prompts and warnings around it, and both may be pasted together in either order.
Each is recognised by its own structure, not by a single word: a sentence such as "PyTorch version: 2.1" in an
issue template is not collect_env output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from advisor.ingest.collect_env_fields import LABELS, match_label, package_line
from advisor.ingest.torch_warnings import read_torch_warning

_NVSMI_BANNER = re.compile(r"^\s*=+\s*NVSMI LOG\s*=+\s*$")
_SMI_DRIVER = re.compile(r"^\s*Driver Version\s*:")
_SMI_ATTACHED = re.compile(r"^\s*Attached GPUs\s*:")
_BANNER = "collecting environment information"
#: Distinct collect_env labels a region must show before it counts as collect_env output ...
MIN_COLLECT_ENV_LABELS = 3
#: ... or two, when one of them is a label nothing but collect_env prints.
DISTINCTIVE_LABELS = frozenset({
    "Is debug build", "CUDA used to build PyTorch", "ROCM used to build PyTorch", "Is CUDA available",
    "GPU models and configuration", "Nvidia driver version", "Versions of relevant libraries",
    "CUDA_MODULE_LOADING set to", "Is XNNPACK available", "HIP runtime version", "MIOpen runtime version",
})
#: How far below a candidate start its labels are counted when choosing where the output begins.
_WINDOW = 40
_MAX_CANDIDATES = 200


@dataclass(frozen=True)
class Sections:
    collect_env: Optional[str]
    nvidia_smi: Optional[str]


def find_sections(text: str) -> Sections:
    lines = text.split("\n")
    labels = [(i, found[0]) for i, line in enumerate(lines) if (found := match_label(line)) is not None]
    ce_start = _collect_env_start(lines, labels)
    smi_start = _nvidia_smi_start(lines)
    ce_text = smi_text = None
    if ce_start is not None:
        stop = smi_start if smi_start is not None and smi_start > ce_start else len(lines)
        ce_lines = _until_packages_end(lines[ce_start:stop])
        found = {label for i, label in labels if ce_start <= i < ce_start + len(ce_lines)}
        if _recognised(found, _has_banner(lines, ce_start)):
            ce_text = "\n".join(ce_lines)
    if ce_text is None and (banner := _banner_line(lines)) is not None and _torch_spoke(text):
        # Only the banner and torch's own warnings survived (a paste cut short): still collect_env's output,
        # and torch's words are the strongest evidence in it.
        stop = smi_start if smi_start is not None and smi_start > banner else len(lines)
        ce_text = "\n".join(lines[banner:stop])
    if smi_start is not None:
        stop = ce_start if ce_start is not None and ce_start > smi_start else len(lines)
        smi_text = "\n".join(lines[smi_start:stop])
    return Sections(collect_env=ce_text, nvidia_smi=smi_text)


def _recognised(found: set[str], banner: bool) -> bool:
    distinctive = len(found & DISTINCTIVE_LABELS)
    return (len(found) >= MIN_COLLECT_ENV_LABELS or (len(found) >= 2 and distinctive >= 1)
            or (banner and distinctive >= 1))


def _torch_spoke(text: str) -> bool:
    warning = read_torch_warning(text)
    return bool(warning.reasons or warning.import_error)


def _banner_line(lines: list[str]) -> Optional[int]:
    return next((i for i, line in enumerate(lines) if _BANNER in line[:200].lower()), None)


def _has_banner(lines: list[str], start: int) -> bool:
    return any(_BANNER in line.lower() for line in lines[max(0, start - 5):start + 1])


def _collect_env_start(lines: list[str], labels: list[tuple[int, str]]) -> Optional[int]:
    """The label line where the output most likely begins: the "PyTorch version" line (else any label line)
    with the most distinct labels in the lines below it; prose that mentions a version earlier loses to it."""
    if not labels:
        return None
    # Real pastes hold one to three outputs; the first few hundred candidates bound the work on hostile text.
    candidates = ([k for k, (_, label) in enumerate(labels) if label == "PyTorch version"] or range(len(labels)))
    candidates = candidates[:_MAX_CANDIDATES]
    best, best_count = None, 0
    for k in candidates:
        first = labels[k][0]
        window = set()
        for i, label in labels[k:k + len(LABELS)]:  # bounded: at most one of each label in a window
            if i - first > _WINDOW:
                break
            window.add(label)
        if len(window) > best_count:
            best, best_count = first, len(window)
    return best


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
        if (found := match_label(line)) is not None and found[0] == "Versions of relevant libraries":
            in_packages = True
        elif in_packages and line.strip() and package_line(line) is None:
            return lines[:i]
    return lines
