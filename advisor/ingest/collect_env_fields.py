"""Splitting collect_env output into its labelled fields, whatever the torch release printed and however the
paste mangled it.

collect_env prints "Label: value" lines, but several values run over more lines (the GPU list, the cuDNN
candidates, the CPU block, the package list), and the lines inside them can look like labels too ("GPU 0: ...",
"Model name: ..."). So fields start only at the labels collect_env itself prints; every other line belongs to
the field above it.

People retype and re-quote the output: labels arrive in another case ("Os:", "Pytorch version"), with a
full-width colon ("OS："), with no colon at all ("PyTorch version 1.13.1"), as "Version of relevant libraries",
behind "> " quotes, list bullets or backticks. Labels are matched with plain string methods (no regex with
nested repetition), so splitting is linear in the text whatever it holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

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
#: Spellings seen in retyped pastes -> the label collect_env prints.
_VARIANTS = {
    "version of relevant libraries": "Versions of relevant libraries",
    "versions of relevant library": "Versions of relevant libraries",
    "torch version": "PyTorch version",
    "pytorch build version": "PyTorch version",
    "nvidia driver": "Nvidia driver version",
    "gpu models and configurations": "GPU models and configuration",
    "gpu model and configuration": "GPU models and configuration",
    "cudnn versions": "cuDNN version",
}
_BY_LOWER = {label.lower(): label for label in LABELS} | _VARIANTS
#: Candidates by first word, longest first, so "CUDA used to build PyTorch" wins over a shorter label it
#: starts with; a line is compared with the few labels sharing its first word, not with all of them.
_BY_FIRST_WORD: dict[str, list[str]] = {}
for _variant in sorted(_BY_LOWER, key=len, reverse=True):
    _BY_FIRST_WORD.setdefault(_variant.split()[0], []).append(_variant)
#: Labels short or common enough that, without their colon, they would swallow prose and lscpu lines
#: ("CPU family: 6", "OS X"): these need a colon.
_NEED_COLON = frozenset({"os", "cpu", "torch version", "nvidia driver", "pytorch build version"})
#: What quoting, list and code markup put in front of a line.
_LEAD = " \t>`*-•|\u00a0"
_COLONS = (":", "\uff1a")  # ASCII and full-width
_PACKAGE_MANAGERS = ("pip3", "pip", "conda")


def normalise_line(line: str) -> str:
    """The line without the quote/bullet/backtick markup in front of it and its closing backticks."""
    return line.lstrip(_LEAD).rstrip().rstrip("`").rstrip()


def match_label(line: str) -> Optional[tuple[str, str]]:
    """(label, value) when ``line`` is a collect_env label line, however retyped; else None."""
    text = normalise_line(line)
    lower = text[:64].lower()  # every label is shorter: a long line costs no more than a short one
    words = lower.split(None, 1)
    if not words:
        return None
    first = words[0].split(":", 1)[0].split("\uff1a", 1)[0]
    for variant in _BY_FIRST_WORD.get(first, ()):
        if not lower.startswith(variant):
            continue
        rest = text[len(variant):]
        stripped = rest.lstrip(" \t")
        if stripped[:1] in _COLONS:
            return _BY_LOWER[variant], stripped[1:].strip()
        if stripped[:1] == "|":  # a Markdown table row: "| PyTorch version | 2.1.0 |"
            return _BY_LOWER[variant], stripped[1:].strip().rstrip("|").strip()
        if stripped.startswith("(e.g"):  # the old issue template: "PyTorch Version (e.g., 1.0): 1.4"
            close = stripped.find(")")
            after = stripped[close + 1:].lstrip() if close >= 0 else ""
            if after[:1] in _COLONS:
                return _BY_LOWER[variant], after[1:].strip()
        if variant in _NEED_COLON or not rest[:1].isspace():
            continue  # "CPU family", "CUDA_MODULE_LOADING set to" inside a longer word
        return _BY_LOWER[variant], stripped.strip()
    return None


def package_line(line: str) -> Optional[tuple[str, str]]:
    """("pip3", "torch==2.3.0+cu121") for a "[pip3] torch==2.3.0+cu121" line; else None."""
    text = normalise_line(line)
    if not text.startswith("["):
        return None
    manager, bracket, rest = text[1:].partition("]")
    if not bracket or manager.strip() not in _PACKAGE_MANAGERS:
        return None
    return manager.strip(), rest.strip()


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


#: "Label:" forms searched for inside a line whose newlines were lost (with the blank before them).
_INLINE = tuple(f" {label}:" for label in LABELS) + (" [pip3]", " [pip]", " [conda]")
_MAX_UNFOLD = 20_000
_UNFOLD_PROBE = 400


def unfold_lines(lines: list[str]) -> list[str]:
    if not any(line.count(":") >= 3 for line in lines[:_UNFOLD_PROBE]):
        return lines
    return [piece for line in lines for piece in unfold_line(line)]


def unfold_line(line: str) -> list[str]:
    """A paste whose newlines were lost ("PyTorch version: 1.9.0 Is debug build: False CUDA used to ...") split
    back into one line per label; any other line unchanged. Each label is found with str.find: linear."""
    if len(line) > _MAX_UNFOLD or line.count(":") < 3:
        return [line]
    cuts = sorted({at + 1 for marker in _INLINE for at in _find_all(line, marker)})
    if len(cuts) < 2:
        return [line]
    pieces, start = [], 0
    for cut in cuts:
        pieces.append(line[start:cut])
        start = cut
    pieces.append(line[start:])
    return [piece for piece in pieces if piece.strip()]


def _find_all(line: str, marker: str) -> list[int]:
    found, at = [], line.find(marker)
    while at >= 0 and len(found) < 64:
        found.append(at)
        at = line.find(marker, at + 1)
    return found


def split_fields(text: str) -> RawCollectEnv:
    fields: dict[str, RawField] = {}
    current: RawField | None = None
    packages: list[tuple[str, str]] = []
    for line in text.split("\n"):
        labelled = match_label(line)
        if labelled is not None and labelled[0] not in fields:
            current = fields[labelled[0]] = RawField(labelled[1])
        elif (package := package_line(line)) is not None:
            packages.append(package)
        elif current is not None:
            current.more.append(normalise_line(line) if line.lstrip().startswith(">") else line)
    return RawCollectEnv(fields, packages)

