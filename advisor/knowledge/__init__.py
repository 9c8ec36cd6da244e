"""Public facts a paste does not state, kept as data files beside this module (each names its sources):

- ``gpus.yaml``: GPU product name -> compute capability, Tesla (1.x) to Blackwell (12.x);
- ``drivers.yaml``: driver branch -> the highest CUDA it runs; each CUDA toolkit's minimum driver;
- ``torch_builds.yaml``: the CUDA builds of each PyTorch release with their arch lists; each GPU generation's
  last driver branch.

Lookups are pure functions over data loaded once; nothing here imports torch, so ``explain`` stays fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

import yaml

_HERE = Path(__file__).parent
#: Words that say nothing about the chip: vendor, brand, form factor, marketing suffixes.
_NOISE = frozenset({"nvidia", "geforce", "tesla", "graphics", "gpu", "laptop", "mobile", "with", "max", "q",
                    "design", "generation", "edition", "workstation", "server", "(r)", "(tm)", "r", "tm"})
_MAX_NAME = 200
_MAX_WORDS = 8

CC = tuple[int, int]


@lru_cache(maxsize=None)
def _load(name: str) -> dict[str, Any]:
    return yaml.safe_load((_HERE / name).read_text(encoding="utf-8"))


def normalise_gpu_name(name: str) -> list[str]:
    text = name[:_MAX_NAME].lower().replace("(r)", " ").replace("(tm)", " ")
    for char in "-_/,()[]:;.\"'":
        text = text.replace(char, " ")
    return [word for word in text.split() if word not in _NOISE][:_MAX_WORDS]


@lru_cache(maxsize=None)
def _gpu_table() -> tuple[dict[str, str], frozenset[str]]:
    data = _load("gpus.yaml")
    table: dict[str, str] = {}
    ambiguous = {" ".join(normalise_gpu_name(str(n))) for n in data.get("ambiguous", [])}
    for cc, names in data["compute_capability"].items():
        for raw in names:
            key = " ".join(normalise_gpu_name(str(raw)))
            if key in table and table[key] != cc:
                ambiguous.add(key)  # one name, two chips: the first (older) entry stays, flagged
                continue
            table.setdefault(key, str(cc))
    return table, frozenset(ambiguous)


@dataclass(frozen=True)
class GpuModel:
    compute_capability: str  # "8.6"
    matched: str  # the table entry the name matched: "rtx 3060"
    ambiguous: bool  # the name covers chips of different compute capabilities


def gpu_model(name: str) -> Optional[GpuModel]:
    """The compute capability of a GPU from its product name, or None when the name is not known."""
    table, ambiguous = _gpu_table()
    words = normalise_gpu_name(name)
    for count in range(len(words), 0, -1):
        key = " ".join(words[:count])
        if key in table:
            return GpuModel(table[key], key, key in ambiguous)
    return None


def parse_cc(text: str) -> Optional[CC]:
    major, dot, minor = str(text).strip().partition(".")
    if not (dot and major.isdecimal() and minor.isdecimal() and len(major) <= 2 and len(minor) <= 2):
        return None
    return int(major), int(minor)


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for part in str(text).strip().split(".")[:4]:
        digits = "".join(ch for ch in part[:12] if ch.isdecimal()) if part[:1].isdecimal() else ""
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def driver_max_cuda(driver_version: str) -> Optional[str]:
    """The highest CUDA a driver runs ("535.183.01" -> "12.2", Windows "551.86" -> "12.4"), by its branch."""
    version = _version_tuple(driver_version)
    if not version or not 100 <= version[0] <= 9999:
        return None
    best = None
    for row in _load("drivers.yaml")["branches"]:
        if version[0] >= int(row["branch"]):
            best = str(row["cuda"])
    return best


def is_windows_driver(driver_version: str, system: Optional[str]) -> bool:
    if system in ("Windows", "Linux"):
        return system == "Windows"
    # Windows drivers print "major.minor" with a two-digit minor ("551.86"); Linux ones mostly three parts.
    parts = str(driver_version).split(".")
    return len(parts) == 2 and len(parts[1]) == 2


def min_driver_for_cuda(cuda: str, system: Optional[str] = None, *, driver_hint: str = "") -> Optional[str]:
    """The oldest driver that runs a CUDA ``cuda`` build: the major's minor-version floor from CUDA 11.1 on,
    the release's own minimum before that."""
    version = _version_tuple(cuda)
    if len(version) < 2:
        return None
    data = _load("drivers.yaml")
    column = "windows" if is_windows_driver(driver_hint, system) else "linux"
    floor = data["minor_floor"].get(str(version[0]))
    if floor is not None and version >= (11, 1):
        return str(floor[column])
    release = data["toolkits"].get(f"{version[0]}.{version[1]}")
    return str(release[column]) if release else None


def version_at_least(version: str, floor: str) -> Optional[bool]:
    left, right = _version_tuple(version), _version_tuple(floor)
    return None if not left or not right else left >= right


def _release_key(torch_version: str) -> Optional[tuple[int, int]]:
    version = _version_tuple(str(torch_version).split("+", 1)[0])
    return (version[0], version[1]) if len(version) >= 2 else None


@lru_cache(maxsize=None)
def _releases() -> dict[tuple[int, int], dict[str, list[str]]]:
    data = _load("torch_builds.yaml")
    sets = data["arch_sets"]
    releases = {}
    for release, builds in data["releases"].items():
        major, minor = str(release).split(".")
        releases[(int(major), int(minor))] = {str(cuda): list(sets[name]) for cuda, name in builds.items()}
    return releases


@dataclass(frozen=True)
class TorchBuild:
    release: str  # "2.6"
    cuda: str  # "12.6"
    arch_list: tuple[str, ...]
    exact: bool  # the release and CUDA are both in the table (not the nearest older release)

    @property
    def wheel_tag(self) -> str:
        return "cu" + self.cuda.replace(".", "")


def torch_build(torch_version: str, cuda_version: str) -> Optional[TorchBuild]:
    """The arch list of the wheel ``torch_version`` built with CUDA ``cuda_version``, from the table."""
    key = _release_key(torch_version)
    cuda = _version_tuple(cuda_version)
    if key is None or len(cuda) < 2:
        return None
    cuda_text = f"{cuda[0]}.{cuda[1]}"
    releases = _releases()
    older = [release for release in releases if release <= key]
    if not older:
        return None
    nearest = max(older)
    builds = releases[nearest]
    if cuda_text not in builds:
        return None  # a CUDA this release never shipped as a wheel: a source or conda build, arch list unknown
    return TorchBuild(f"{nearest[0]}.{nearest[1]}", cuda_text, tuple(builds[cuda_text]), nearest == key)


def arch_runs_on(arch: str, cc: CC) -> bool:
    """sm_XY machine code runs on the same major with minor >= Y; sm_XYa only on X.Y; compute_XY PTX on >= X.Y."""
    kind, _, digits = arch.strip().partition("_")
    suffix = digits[-1] if digits[-1:] in ("a", "f") else ""
    digits = digits[:-1] if suffix else digits
    # "sm_9" or "sm_99999" is no architecture: it runs nowhere.
    if kind not in ("sm", "compute") or not digits.isdecimal() or not 2 <= len(digits) <= 4:
        return False
    built = (int(digits[:-1]), int(digits[-1]))
    if suffix == "a":
        return built == cc
    if kind == "compute":
        return cc >= built
    return built[0] == cc[0] and cc[1] >= built[1]


@dataclass(frozen=True)
class Generation:
    name: str
    last_branch: Optional[int]  # None: still supported by current drivers

    @property
    def last_cuda(self) -> Optional[str]:
        return driver_max_cuda(str(self.last_branch)) if self.last_branch else None


def generation(cc: CC) -> Optional[Generation]:
    for row in _load("torch_builds.yaml")["generations"]:
        below = parse_cc(str(row["cc_below"]))
        if below is not None and cc < below:
            return Generation(str(row["name"]), row.get("last_branch"))
    return None


def newest_build_for(cc: CC) -> Optional[TorchBuild]:
    """The newest PyTorch wheel whose arch list runs on ``cc`` and whose driver floor the GPU's last driver meets."""
    gen = generation(cc)
    last_cuda = _version_tuple(gen.last_cuda) if gen and gen.last_cuda else None
    prerelease = {str(r) for r in _load("torch_builds.yaml").get("prerelease", [])}
    for release in sorted(_releases(), reverse=True):
        if f"{release[0]}.{release[1]}" in prerelease:
            continue
        builds = _releases()[release]
        for cuda in sorted(builds, key=_version_tuple, reverse=True):
            if not any(arch_runs_on(arch, cc) for arch in builds[cuda]):
                continue
            # Minor-version compatibility (11.1 on) lets a same-major driver run the build.
            needed = _version_tuple(cuda)
            if last_cuda is not None and (needed[0] > last_cuda[0] or needed[0] < 11 and needed > last_cuda):
                continue
            return TorchBuild(f"{release[0]}.{release[1]}", cuda, tuple(builds[cuda]), True)
    return None
