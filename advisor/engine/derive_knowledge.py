"""Derived facts from public knowledge (advisor/knowledge/*.yaml) about what the facts name but do not state:
a GPU's compute capability from its name, a driver's highest CUDA from its version, a torch wheel's arch list
from its release and CUDA, each GPU generation's last driver, and which build a user can actually run.

Pasted text names the GPU, the driver and the torch build but rarely states these, so rules about them would be
skipped on most pastes. These facts never replace a measured one: rules read them under their own names, and
each is Unavailable, with the reason, when the table does not know. Pure lookups: no torch, no I/O beyond
reading the tables once.
"""

from __future__ import annotations

from typing import Optional

from pydantic import BaseModel

from advisor import knowledge as kb
from advisor.models.common import NOT_COLLECTED, Fact, is_missing, missing
from advisor.models.facts import Facts, GpuFacts

CPU_WHEEL = "pip install torch --index-url https://download.pytorch.org/whl/cpu"
#: torch's own words -> what they mean (derived.torch_says). Checked in order: the first that matches wins.
_MESSAGE_KINDS = (
    ("Torch not compiled with CUDA enabled", "not_compiled_with_cuda"),
    ("Found no NVIDIA driver", "no_driver"),
    ("driver on your system is too old", "driver_too_old"),
    ("CUDA driver version is insufficient", "driver_too_old"),
    ("no longer supports this GPU", "gpu_too_old"),
    ("is not compatible with the current PyTorch", "arch_not_compiled"),
    ("no kernel image is available", "arch_not_compiled"),
    ("no CUDA-capable device is detected", "no_device"),
    ("CUDA initialization", "init_failed"),
    ("CUDA driver initialization failed", "init_failed"),
)


class MachineKnowledge(BaseModel):
    #: The highest CUDA the driver runs: nvidia-smi's figure when the source has it, else from the version.
    driver_max_cuda: Fact[str] = NOT_COLLECTED
    #: What torch's own message says is wrong: not_compiled_with_cuda, no_driver, driver_too_old, gpu_too_old,
    #: arch_not_compiled, no_device, init_failed; None when torch printed no such message.
    torch_says: Fact[Optional[str]] = NOT_COLLECTED
    #: ' torch says: "..."' (with a leading blank), or "" when torch's words are not in the source.
    torch_says_sentence: Fact[str] = NOT_COLLECTED
    #: The build is CPU-only: no CUDA or ROCm in it, or torch itself says it was not compiled with CUDA.
    torch_is_cpu_build: Fact[bool] = NOT_COLLECTED
    #: The source shows an NVIDIA GPU or driver (a GPU listed, or a driver version printed).
    nvidia_gpu_present: Fact[bool] = NOT_COLLECTED
    #: What the source shows of it, as a phrase: "the NVIDIA driver 551.86 and 1 GPU (NVIDIA GeForce RTX 4080)".
    nvidia_seen: Fact[str] = NOT_COLLECTED
    #: "torch 2.2.2", or "this torch" when the version is not in the source.
    torch_build: str = "this torch"
    #: torch's arch list as measured, else the wheel's published one (knowledge/torch_builds.yaml).
    torch_arch_list: Fact[list[str]] = NOT_COLLECTED
    #: True when some GPU's last driver can never run this build: updating the driver cannot help.
    driver_update_cannot_help: Fact[bool] = NOT_COLLECTED
    #: The CUDA wheel to install on this machine, as a command (its driver, GPUs and torch release considered).
    cuda_build_to_install: Fact[str] = NOT_COLLECTED


class GpuKnowledge(BaseModel):
    #: Compute capability as reported, else from the GPU's name (knowledge/gpus.yaml).
    known_compute_capability: Fact[str] = NOT_COLLECTED
    generation: Fact[str] = NOT_COLLECTED  # Kepler, Pascal, Ampere ...
    #: The highest CUDA this GPU's last driver runs; None while current drivers still support it.
    last_driver_cuda: Fact[Optional[str]] = NOT_COLLECTED
    #: This torch build can never run on this GPU: its CUDA needs a driver the GPU never got, or every kernel
    #: in it is for newer architectures.
    build_drops_this_gpu: Fact[bool] = NOT_COLLECTED
    #: This torch build predates the GPU: no kernel or PTX in its arch list runs on it.
    build_predates_this_gpu: Fact[bool] = NOT_COLLECTED
    #: Why the build cannot run here, in one sentence.
    build_support_gap: Fact[str] = NOT_COLLECTED
    #: The newest PyTorch wheel that still runs on this GPU, as a command, or the CPU build when none does.
    newest_supporting_build: Fact[str] = NOT_COLLECTED


def _text(value: object) -> Optional[str]:
    return value if isinstance(value, str) and value else None


def _classify(reason: object) -> Fact[Optional[str]]:
    if is_missing(reason):
        return reason  # type: ignore[return-value]
    if reason is None:
        return None
    text = str(reason)
    return next((kind for marker, kind in _MESSAGE_KINDS if marker in text), "other")


def _cuda_major(version: object) -> Optional[int]:
    text = _text(version)
    head = text.split(".", 1)[0] if text else ""
    return int(head) if head.isdigit() and len(head) <= 3 else None


def _gpus(facts: Facts) -> list[GpuFacts]:
    return [] if is_missing(facts.gpus) else list(facts.gpus)  # type: ignore[arg-type]


def _gpu_cc(gpu: GpuFacts) -> tuple[Optional[kb.CC], Fact[str]]:
    if not is_missing(gpu.compute_capability):
        text = str(gpu.compute_capability)
        return kb.parse_cc(text), text
    name = _text(gpu.name)
    model = kb.gpu_model(name) if name else None
    if model is None:
        return None, missing(f"compute capability of {name!r} not in the GPU table" if name else "GPU name unknown")
    if model.ambiguous:
        return None, missing(f"{name!r} names chips of different compute capabilities")
    return kb.parse_cc(model.compute_capability), model.compute_capability


def _arch_list(facts: Facts) -> Fact[list[str]]:
    torch = facts.torch
    if not is_missing(torch.arch_list) and torch.arch_list:
        return list(torch.arch_list)  # type: ignore[arg-type]
    version, cuda = _text(torch.version), _text(torch.cuda_version)
    if version is None or cuda is None:
        absent = torch.version if version is None else torch.cuda_version
        return absent if is_missing(absent) else missing("torch is not a CUDA build")  # type: ignore[return-value]
    if "a0" in version or "+git" in version or ("+" in version and not version.split("+", 1)[1].startswith("cu")
                                                and "dev" not in version):
        return missing(f"torch {version} is a source or vendor build: its arch list is its builder's choice")
    build = kb.torch_build(version, cuda)
    if build is None:
        return missing(f"no published wheel of torch {version} with CUDA {cuda} in the build table")
    return list(build.arch_list)


def enrich_machine(derived: MachineKnowledge, facts: Facts) -> None:
    driver_version = _text(facts.driver.version)
    if not is_missing(facts.driver.cuda_version):
        derived.driver_max_cuda = str(facts.driver.cuda_version)
    elif driver_version is not None:
        derived.driver_max_cuda = kb.driver_max_cuda(driver_version) or missing(
            f"driver {driver_version} is not in the driver table")
    else:
        derived.driver_max_cuda = facts.driver.cuda_version
    if is_missing(getattr(derived, "driver_cuda_major", None)) and isinstance(derived.driver_max_cuda, str):
        major = _cuda_major(derived.driver_max_cuda)
        if major is not None and hasattr(derived, "driver_cuda_major"):
            derived.driver_cuda_major = major  # type: ignore[attr-defined]

    reason = facts.torch.cuda_unavailable_reason
    derived.torch_says = _classify(reason)
    derived.torch_says_sentence = f' torch says: "{reason}"' if _text(reason) else ""
    cuda, hip = facts.torch.cuda_version, facts.torch.hip_version
    if derived.torch_says == "not_compiled_with_cuda" or (cuda is None and hip is None):
        derived.torch_is_cpu_build = True
    elif isinstance(cuda, str) or isinstance(hip, str):
        derived.torch_is_cpu_build = False
    else:
        derived.torch_is_cpu_build = cuda if is_missing(cuda) else hip  # type: ignore[assignment]
    gpus = _gpus(facts)
    count = facts.driver.gpu_count
    if isinstance(count, int):
        derived.nvidia_gpu_present = count > 0
    elif driver_version is not None or gpus:
        derived.nvidia_gpu_present = True
    else:
        derived.nvidia_gpu_present = count if is_missing(count) else missing("the source lists no NVIDIA GPU")
    derived.nvidia_seen = _nvidia_seen(driver_version, count, gpus)
    version = _text(facts.torch.version)
    derived.torch_build = f"torch {version}" if version else "this torch"
    derived.torch_arch_list = _arch_list(facts)
    drops = [gpu_facts(gpu, facts, derived).build_drops_this_gpu for gpu in gpus]
    if any(d is True for d in drops):
        derived.driver_update_cannot_help = True
    elif drops and all(d is False for d in drops):
        derived.driver_update_cannot_help = False
    else:
        derived.driver_update_cannot_help = next((d for d in drops if is_missing(d)), missing("no GPU listed"))
    derived.cuda_build_to_install = _build_to_install(facts, derived, gpus)


def _nvidia_seen(driver_version: Optional[str], count: object, gpus: list[GpuFacts]) -> str:
    """"the NVIDIA driver 551.86 sees 1 GPU(s) (NVIDIA GeForce RTX 4080 Laptop GPU)", or as much as is known."""
    names = sorted({str(gpu.name) for gpu in gpus if _text(gpu.name)})
    number = count if isinstance(count, int) and count > 0 else len(gpus)
    listed = f"{number} GPU(s)" + (f" ({', '.join(names[:3])})" if names else "")
    if driver_version and number:
        return f"the NVIDIA driver {driver_version} sees {listed}"
    if driver_version:
        return f"the NVIDIA driver {driver_version} is installed"
    return f"the driver sees {listed}" if number else "an NVIDIA GPU is present"


def _build_to_install(facts: Facts, derived: MachineKnowledge, gpus: list[GpuFacts]) -> str:
    ccs = [cc for gpu in gpus if (cc := _gpu_cc(gpu)[0]) is not None]
    driver_cuda = _text(derived.driver_max_cuda)
    for cc in ccs:
        gen = kb.generation(cc)
        if gen is not None and gen.last_branch is not None:
            return _newest_sentence(cc)  # an old GPU decides: only builds its last driver runs
    limit = kb._version_tuple(driver_cuda) if driver_cuda else None
    prerelease = {str(r) for r in kb._load("torch_builds.yaml").get("prerelease", [])}
    # The user's own release first (the smallest change that works), then the newest.
    own = kb._release_key(_text(facts.torch.version) or "")
    order = sorted(kb._releases(), reverse=True)
    if own in kb._releases():
        order.insert(0, own)
    for release in order:
        if f"{release[0]}.{release[1]}" in prerelease and release != own:
            continue
        builds = kb._releases()[release]
        for cuda in sorted(builds, key=kb._version_tuple, reverse=True):
            if limit is not None and not _driver_runs(limit, kb._version_tuple(cuda)):
                continue
            if ccs and not all(any(kb.arch_runs_on(a, cc) for a in builds[cuda]) for cc in ccs):
                continue
            build = kb.TorchBuild(f"{release[0]}.{release[1]}", cuda, tuple(builds[cuda]), True)
            fits = (f"torch {build.release} with CUDA {cuda}, which this driver (up to CUDA {driver_cuda}) runs"
                    if driver_cuda else f"torch {build.release} with CUDA {cuda}")
            return f"{fits}: {_pip(build)}"
    return ("a CUDA build that this driver supports (pick the command at https://pytorch.org/get-started/locally/, "
            "and update the driver if it is older than the build needs)")


def _driver_runs(driver_cuda: tuple[int, ...], build_cuda: tuple[int, ...]) -> bool:
    # From CUDA 11.1 on, minor-version compatibility runs any build of the driver's own CUDA major.
    if build_cuda >= (11, 1):
        return build_cuda[0] <= driver_cuda[0]
    return build_cuda[:2] <= driver_cuda[:2]


def _newest_sentence(cc: kb.CC) -> str:
    build = kb.newest_build_for(cc)
    if build is None:
        return f"no PyTorch wheel runs on compute capability {cc[0]}.{cc[1]}; use the CPU build ({CPU_WHEEL})"
    return f"torch {build.release} with CUDA {build.cuda}, the newest wheel that still runs on it: {_pip(build)} (or the CPU build)"


def _pip(build: kb.TorchBuild) -> str:
    """The install command; before 1.10 the wheels were only on the find-links page, not per-CUDA indexes."""
    if kb._version_tuple(build.release) < (1, 10):
        return (f"pip install torch=={build.release}.* (the {build.wheel_tag} wheel from "
                f"https://download.pytorch.org/whl/torch_stable.html)")
    return f"pip install torch=={build.release}.* --index-url https://download.pytorch.org/whl/{build.wheel_tag}"


def gpu_facts(gpu: GpuFacts, facts: Facts, machine: Optional[MachineKnowledge] = None) -> GpuKnowledge:
    derived = GpuKnowledge()
    enrich_gpu(derived, gpu, facts, machine)
    return derived


def enrich_gpu(derived: GpuKnowledge, gpu: GpuFacts, facts: Facts,
               machine: Optional[MachineKnowledge] = None) -> None:
    cc, cc_fact = _gpu_cc(gpu)
    derived.known_compute_capability = cc_fact
    if cc is None:
        reason = cc_fact if is_missing(cc_fact) else missing(f"cannot read compute capability {cc_fact!r}")
        for name in ("generation", "last_driver_cuda", "build_drops_this_gpu", "build_predates_this_gpu",
                     "build_support_gap", "newest_supporting_build"):
            setattr(derived, name, reason)
        return
    gen = kb.generation(cc)
    derived.generation = gen.name if gen else missing(f"no generation known for {cc}")
    derived.last_driver_cuda = gen.last_cuda if gen else missing(f"no generation known for {cc}")
    derived.newest_supporting_build = _newest_sentence(cc)
    arch_list = machine.torch_arch_list if machine is not None else _arch_list(facts)
    torch_cuda = facts.torch.cuda_version
    if torch_cuda is None:
        reason = missing("torch is not a CUDA build")
        derived.build_drops_this_gpu = derived.build_predates_this_gpu = derived.build_support_gap = reason
        return
    needs = _cuda_major(torch_cuda)
    last_cuda = _text(derived.last_driver_cuda)
    last_major = _cuda_major(last_cuda)
    name = f"compute capability {cc[0]}.{cc[1]}"
    driver_gap = needs is not None and last_major is not None and needs > last_major
    if is_missing(arch_list):
        runs, oldest = None, None
    else:
        runs = any(kb.arch_runs_on(arch, cc) for arch in arch_list)  # type: ignore[union-attr]
        built = [c for a in arch_list if (c := _arch_cc(a)) is not None]  # type: ignore[union-attr]
        oldest = min(built) if built else None
    too_old_for_kernels = runs is False and oldest is not None and cc < oldest
    if driver_gap or too_old_for_kernels:
        derived.build_drops_this_gpu = True
        if driver_gap:
            derived.build_support_gap = (
                f"its last driver ({gen.last_branch if gen else '?'}) runs CUDA up to {last_cuda}, and this build "
                f"needs CUDA {torch_cuda}, so no driver update can make it work")
        else:
            derived.build_support_gap = (f"the build's oldest kernels are for sm_{oldest[0]}{oldest[1]}, newer than "
                                         f"this GPU's {name}")
    elif is_missing(arch_list) and not (needs is not None and last_major is not None):
        derived.build_drops_this_gpu = arch_list
    else:
        derived.build_drops_this_gpu = False
    if runs is None:
        derived.build_predates_this_gpu = arch_list
    else:
        derived.build_predates_this_gpu = runs is False and not too_old_for_kernels
        if derived.build_predates_this_gpu:
            derived.build_support_gap = (f"the build ships kernels only for {', '.join(arch_list)}, "  # type: ignore[arg-type]
                                         f"none of which runs on {name}")
    if is_missing(derived.build_support_gap) or derived.build_support_gap is NOT_COLLECTED:
        derived.build_support_gap = missing("the build runs on this GPU")


def _arch_cc(arch: str) -> Optional[kb.CC]:
    kind, _, digits = arch.strip().partition("_")
    digits = digits.rstrip("af")
    if kind not in ("sm", "compute") or not digits.isdigit() or len(digits) < 2:
        return None
    return int(digits[:-1]), int(digits[-1])
