"""Install advice from the public tables: which PyTorch wheel to install, as a sentence with the command.

Pure functions over compute capabilities, the driver's highest CUDA and torch's version, so a rule's
remediation names a build the user can actually run: never a driver update for a GPU whose last driver cannot
run the build, never a wheel without kernels for the GPU.
"""

from __future__ import annotations

from typing import Optional

from advisor import knowledge as kb

CPU_WHEEL = "pip install torch --index-url https://download.pytorch.org/whl/cpu"


def build_to_install(ccs: list[kb.CC], driver_cuda: Optional[str], torch_version: Optional[str]) -> str:
    """A wheel that runs on every GPU listed (compute capabilities ``ccs``) and that this driver runs (an old
    GPU's driver is never newer than its last branch, so its limit is respected too): the user's own release
    first (the smallest change that works), then the newest."""
    if driver_cuda is None:
        old = [cc for cc in ccs if (gen := kb.generation(cc)) is not None and gen.last_branch is not None]
        if old:
            return newest_sentence(min(old))  # no driver known: what the oldest GPU's last driver can run
    limit = kb._version_tuple(driver_cuda) if driver_cuda else None
    limit = limit or None  # a "CUDA Version" with no number in it (a mangled paste) limits nothing known
    prerelease = {str(r) for r in kb._load("torch_builds.yaml").get("prerelease", [])}
    own = kb._release_key(torch_version or "")
    order = sorted(kb._releases(), reverse=True)
    if own in kb._releases():
        order.insert(0, own)
    for release in order:
        if f"{release[0]}.{release[1]}" in prerelease and release != own:
            continue
        builds = kb._releases()[release]
        for cuda in sorted(builds, key=kb._version_tuple, reverse=True):
            if limit is not None and not driver_runs(limit, kb._version_tuple(cuda)):
                continue
            if ccs and not all(any(kb.arch_runs_on(a, cc) for a in builds[cuda]) for cc in ccs):
                continue
            build = kb.TorchBuild(f"{release[0]}.{release[1]}", cuda, tuple(builds[cuda]), True)
            fits = (f"torch {build.release} with CUDA {cuda}, which this driver (up to CUDA {driver_cuda}) runs"
                    if driver_cuda else f"torch {build.release} with CUDA {cuda}")
            return f"{fits}: {pip_command(build)}"
    return ("a CUDA build that this driver supports (pick the command at https://pytorch.org/get-started/locally/, "
            "and update the driver if it is older than the build needs)")


def driver_runs(driver_cuda: tuple[int, ...], build_cuda: tuple[int, ...]) -> bool:
    # From CUDA 11.1 on, minor-version compatibility runs any build of the driver's own CUDA major.
    if build_cuda >= (11, 1):
        return build_cuda[0] <= driver_cuda[0]
    return build_cuda[:2] <= driver_cuda[:2]


def newest_sentence(cc: kb.CC) -> str:
    build = kb.newest_build_for(cc)
    if build is None:
        return f"no PyTorch wheel runs on compute capability {cc[0]}.{cc[1]}; use the CPU build ({CPU_WHEEL})"
    return f"torch {build.release} with CUDA {build.cuda}, the newest wheel that still runs on it: {pip_command(build)} (or the CPU build)"


def pip_command(build: kb.TorchBuild) -> str:
    """The install command; before 1.10 the wheels were only on the find-links page, not per-CUDA indexes."""
    if kb._version_tuple(build.release) < (1, 10):
        return (f"pip install torch=={build.release}.* (the {build.wheel_tag} wheel from "
                f"https://download.pytorch.org/whl/torch_stable.html)")
    return f"pip install torch=={build.release}.* --index-url https://download.pytorch.org/whl/{build.wheel_tag}"


def fix_for_new_gpu(cc: kb.CC, driver_cuda: Optional[str], torch_version: Optional[str] = None) -> str:
    """The oldest CUDA whose wheels run on this GPU, and a wheel of it this driver runs (the user's own release
    where it has one), or the driver update it needs first."""
    first = None
    for builds in kb._releases().values():
        for cuda, archs in builds.items():
            if any(kb.arch_runs_on(arch, cc) for arch in archs):
                if first is None or kb._version_tuple(cuda) < kb._version_tuple(first):
                    first = cuda
    if first is None:
        return "a PyTorch build whose arch list includes this GPU (see https://pytorch.org/get-started/locally/)"
    needs = f"a build made with CUDA {first} or newer"
    if driver_cuda and not driver_runs(kb._version_tuple(driver_cuda), kb._version_tuple(first)):
        tag = "cu" + first.replace(".", "")
        return (f"{needs} (pip install torch --index-url https://download.pytorch.org/whl/{tag}), after updating "
                f"the driver (it runs CUDA up to {driver_cuda})")
    return f"{needs}, such as {build_to_install([cc], driver_cuda, torch_version)}"
