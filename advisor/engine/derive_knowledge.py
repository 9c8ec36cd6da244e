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
from advisor.engine import derive_advice as advice
from advisor.formatting import plural
from advisor.models.common import NOT_COLLECTED, Fact, is_missing, missing
from advisor.models.facts import Facts, GpuFacts

#: torch's own words -> what they mean (derived.torch_says). Checked in order: the first that matches wins.
#: Messages only a CUDA build of torch prints: a paste carrying one is of a CUDA build.
_ONLY_CUDA_BUILDS_SAY = ("no_driver", "driver_too_old", "gpu_too_old", "arch_not_compiled", "no_device",
                         "init_failed")
_MIN_CC_WORDS = ("minimum cuda capability supported by this library is ",
                 "Minimum and Maximum cuda capability supported by this version of PyTorch is (")
_MESSAGE_KINDS = (
    ("Torch not compiled with CUDA enabled", "not_compiled_with_cuda"),
    ("Found no NVIDIA driver", "no_driver"),
    ("driver on your system is too old", "driver_too_old"),
    ("CUDA driver version is insufficient", "driver_too_old"),
    ("no longer supports this GPU", "gpu_too_old"),
    ("Minimum and Maximum cuda capability supported", "gpu_too_old"),
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
    #: arch_not_compiled, no_device, init_failed, other; None when no message of torch's is in the source.
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
    #: "torch 1.3.0 was built with CUDA 10.1.243", or "this torch is a CUDA build" when the paste lacks both.
    torch_build_with_cuda: str = "this torch is a CUDA build"
    #: torch's arch list as measured, else the wheel's published one (knowledge/torch_builds.yaml).
    torch_arch_list: Fact[list[str]] = NOT_COLLECTED
    #: True when some GPU's last driver can never run this build: updating the driver cannot help.
    driver_update_cannot_help: Fact[bool] = NOT_COLLECTED
    #: The driver cannot run torch's CUDA: its CUDA major is older, or it is under the minor-version floor.
    driver_too_old_for_build: Fact[bool] = NOT_COLLECTED
    #: Why the driver is too old, in words from what the source shows ("this driver is 410.104, which runs CUDA
    #: up to 10.0").
    driver_gap: Fact[str] = NOT_COLLECTED
    #: The driver to update to: "to 418.39 or newer", or "to one that runs CUDA 12.1".
    driver_needed: Fact[str] = NOT_COLLECTED
    #: A Linux paste in which collect_env could run nvidia-smi neither for the driver nor for the GPU list:
    #: no NVIDIA driver is installed (or visible in that container).
    nvidia_smi_failed_in_paste: Fact[bool] = NOT_COLLECTED
    #: How the source shows there is no usable NVIDIA driver (NVML's error, or torch's own message).
    no_driver_evidence: Fact[str] = NOT_COLLECTED
    #: " in Python 3.8.0 (Linux-4.15-x86_64)", as much as the source shows, or "".
    python_where: str = ""
    #: The CUDA wheel to install on this machine, as a command (its driver, GPUs and torch release considered).
    cuda_build_to_install: Fact[str] = NOT_COLLECTED


class GpuKnowledge(BaseModel):
    #: Compute capability as reported, else from the GPU's name (knowledge/gpus.yaml).
    known_compute_capability: Fact[str] = NOT_COLLECTED
    known_sm_arch: Fact[str] = NOT_COLLECTED  # "sm_86", from known_compute_capability
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
    #: What to install so that torch runs on this GPU, as a sentence with the command.
    build_fix: Fact[str] = NOT_COLLECTED


def _text(value: object) -> Optional[str]:
    return value if isinstance(value, str) and value else None


def _classify(reason: object) -> Optional[str]:
    # No message of torch's in the source reads as "torch said nothing": a paste that carries none, like a
    # probe that found CUDA working, gives no such evidence.
    if is_missing(reason) or reason is None:
        return None
    text = str(reason)
    return next((kind for marker, kind in _MESSAGE_KINDS if marker in text), "other")


def _cuda_major(version: object) -> Optional[int]:
    text = _text(version)
    head = text.split(".", 1)[0] if text else ""
    return int(head) if head.isdecimal() and len(head) <= 3 else None


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
    elif (from_message := _driver_cuda_in_message(facts.torch.cuda_unavailable_reason)) is not None:
        derived.driver_max_cuda = from_message
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
    elif isinstance(cuda, str) or isinstance(hip, str) or derived.torch_says in _ONLY_CUDA_BUILDS_SAY:
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
    cuda_built = _text(facts.torch.cuda_version)
    derived.torch_build_with_cuda = (f"{derived.torch_build} was built with CUDA {cuda_built}" if cuda_built
                                     else f"{derived.torch_build} is a CUDA build")
    derived.torch_arch_list = _arch_list(facts)
    drops = [gpu_facts(gpu, facts, derived).build_drops_this_gpu for gpu in gpus]
    if any(d is True for d in drops):
        derived.driver_update_cannot_help = True
    elif drops and all(d is False for d in drops):
        derived.driver_update_cannot_help = False
    else:
        derived.driver_update_cannot_help = next((d for d in drops if is_missing(d)), missing("no GPU listed"))
    derived.cuda_build_to_install = advice.build_to_install(
        [cc for gpu in gpus if (cc := _gpu_cc(gpu)[0]) is not None], _text(derived.driver_max_cuda),
        _text(facts.torch.version))
    derived.driver_too_old_for_build = _driver_too_old(facts, derived)
    _driver_words(derived, facts)
    python, platform = _text(facts.host.python_version), _text(facts.host.python_platform)
    derived.python_where = (f" in Python {python}" if python else "") + (f" ({platform})" if platform else "")


def _driver_words(derived: MachineKnowledge, facts: Facts) -> None:
    version, max_cuda = _text(facts.driver.version), _text(derived.driver_max_cuda)
    if version and max_cuda:
        derived.driver_gap = f"this driver is {version}, which runs CUDA up to {max_cuda}"
    elif version:
        derived.driver_gap = f"this driver is {version}"
    elif max_cuda:
        derived.driver_gap = f"the driver runs CUDA up to {max_cuda}, torch's message says"
    else:
        derived.driver_gap = "torch says the NVIDIA driver on this system is too old"
    floor, cuda = getattr(derived, "driver_floor_for_torch_cuda", None), _text(facts.torch.cuda_version)
    if isinstance(floor, str):
        derived.driver_needed = f"to {floor} or newer"
    else:
        derived.driver_needed = f"to one that runs CUDA {cuda}" if cuda else "to the newest one for this GPU"
    reason, error = _text(facts.torch.cuda_unavailable_reason), _text(facts.driver.nvml_error)
    derived.nvidia_smi_failed_in_paste = _smi_failed(facts)
    if derived.torch_says == "no_driver" and reason:
        derived.no_driver_evidence = f'torch says "{reason}"'
    elif derived.nvidia_smi_failed_in_paste is True:
        derived.no_driver_evidence = ("collect_env could get neither the driver version nor the GPU list from "
                                      "nvidia-smi")
    elif error:
        derived.no_driver_evidence = f"The NVIDIA driver's management library could not be loaded ({error})"
    else:
        derived.no_driver_evidence = "The NVIDIA driver's management library could not be loaded"


def _smi_failed(facts: Facts) -> Fact[bool]:
    driver, gpus = facts.driver.version, facts.gpus
    if not is_missing(driver) or not is_missing(gpus):
        return False
    if facts.host.system != "Linux":
        # Older collect_env looked for nvidia-smi.exe where new Windows drivers no longer put it.
        return missing("only a Linux paste's failed nvidia-smi means there is no driver")
    failed = (driver.unavailable.startswith("collect_env could not run nvidia-smi")  # type: ignore[union-attr]
              and gpus.unavailable.startswith("collect_env could not list GPUs"))  # type: ignore[union-attr]
    return failed if failed else missing("the source does not say whether nvidia-smi ran")


def _driver_cuda(facts: Facts) -> Optional[str]:
    if isinstance(facts.driver.cuda_version, str):
        return facts.driver.cuda_version
    version = _text(facts.driver.version)
    return (kb.driver_max_cuda(version) if version else None) or _driver_cuda_in_message(
        facts.torch.cuda_unavailable_reason)


def _driver_too_old(facts: Facts, derived: MachineKnowledge) -> Fact[bool]:
    if derived.torch_says == "driver_too_old":
        return True
    needs, has = _cuda_major(facts.torch.cuda_version), _cuda_major(derived.driver_max_cuda)
    if facts.torch.cuda_version is None:
        return False
    floor, version = getattr(derived, "driver_floor_for_torch_cuda", None), _text(facts.driver.version)
    under_floor = kb.version_at_least(version, floor) is False if isinstance(floor, str) and version else None
    if (needs is not None and has is not None and needs > has) or under_floor:
        return True
    if needs is not None and has is not None and under_floor is not True:
        return False
    return missing("the driver's CUDA version or torch's CUDA build is not known")


def _driver_cuda_in_message(reason: object) -> Optional[str]:
    """torch's "driver on your system is too old (found version 11040)" names the driver's CUDA: 11.4."""
    text = _text(reason)
    if not text or "(found version " not in text:
        return None
    number = text.split("(found version ", 1)[1].split(")", 1)[0].strip()
    if not number.isdecimal() or not 4 <= len(number) <= 6:
        return None
    value = int(number)
    return f"{value // 1000}.{value % 1000 // 10}"


def _nvidia_seen(driver_version: Optional[str], count: object, gpus: list[GpuFacts]) -> str:
    """"the NVIDIA driver 551.86 sees 1 GPU (NVIDIA GeForce RTX 4080 Laptop GPU)", or as much as is known."""
    names = sorted({str(gpu.name) for gpu in gpus if _text(gpu.name)})
    number = count if isinstance(count, int) and count > 0 else len(gpus)
    listed = plural(number, "GPU") + (f" ({', '.join(names[:3])})" if names else "")
    if driver_version and number:
        return f"the NVIDIA driver {driver_version} sees {listed}"
    if driver_version:
        return f"the NVIDIA driver {driver_version} is installed"
    return f"the driver sees {listed}" if number else "an NVIDIA GPU is present"


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
        for name in ("known_sm_arch", "generation", "last_driver_cuda", "build_drops_this_gpu",
                     "build_predates_this_gpu", "build_support_gap", "newest_supporting_build", "build_fix"):
            setattr(derived, name, reason)
        return
    derived.known_sm_arch = f"sm_{cc[0]}{cc[1]}"
    gen = kb.generation(cc)
    derived.generation = gen.name if gen else missing(f"no generation known for {cc}")
    derived.last_driver_cuda = gen.last_cuda if gen else missing(f"no generation known for {cc}")
    derived.newest_supporting_build = advice.newest_sentence(cc)
    arch_list = machine.torch_arch_list if machine is not None else _arch_list(facts)
    torch_cuda = facts.torch.cuda_version
    if torch_cuda is None:
        reason = missing("torch is not a CUDA build")
        derived.build_drops_this_gpu = derived.build_predates_this_gpu = derived.build_support_gap = reason
        derived.build_fix = reason
        return
    minimum = _min_cc_in_message(facts.torch.cuda_unavailable_reason)
    if minimum is not None and cc < minimum:
        # torch's own words: "the minimum cuda capability supported by this library is 7.5".
        derived.build_drops_this_gpu = True
        derived.build_predates_this_gpu = False
        derived.build_support_gap = (f"torch itself says this build's oldest supported compute capability is "
                                     f"{minimum[0]}.{minimum[1]}, so it warns the GPU is too old and runs no "
                                     f"CUDA kernel on it, whatever driver is installed")
        derived.build_fix = f"{derived.newest_supporting_build}; a driver update cannot help"
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
                f"its last driver (R{gen.last_branch}) runs CUDA up to {last_cuda}, and this build "  # type: ignore[union-attr]
                f"needs CUDA {torch_cuda}, so no driver update can make it work")
        else:
            derived.build_support_gap = (f"the build's oldest kernels are for sm_{oldest[0]}{oldest[1]}, newer than "
                                         f"this GPU's {name}")
    elif is_missing(arch_list):
        derived.build_drops_this_gpu = arch_list  # the driver can run it; whether kernels exist is unknown
    else:
        derived.build_drops_this_gpu = False
    if runs is None:
        derived.build_predates_this_gpu = arch_list
    else:
        derived.build_predates_this_gpu = runs is False and not too_old_for_kernels
        if derived.build_predates_this_gpu:
            derived.build_support_gap = (f"the build ships kernels only for {', '.join(arch_list)}, "  # type: ignore[arg-type]
                                         f"none of which runs on {name}")
    if derived.build_drops_this_gpu is True:
        derived.build_fix = f"{derived.newest_supporting_build}; a driver update cannot help"
    elif derived.build_predates_this_gpu is True:
        derived.build_fix = advice.fix_for_new_gpu(cc, _driver_cuda(facts), _text(facts.torch.version))
    else:
        derived.build_fix = missing("the build runs on this GPU")
    if is_missing(derived.build_support_gap) or derived.build_support_gap is NOT_COLLECTED:
        derived.build_support_gap = missing("the build runs on this GPU")


def _min_cc_in_message(reason: object) -> Optional[kb.CC]:
    text = _text(reason)
    for words in _MIN_CC_WORDS:
        if text and words in text:
            return kb.parse_cc(text.split(words, 1)[1][:8].split(")")[0].rstrip(". "))
    return None


def _arch_cc(arch: str) -> Optional[kb.CC]:
    kind, _, digits = arch.strip().partition("_")
    digits = digits.rstrip("af")
    if kind not in ("sm", "compute") or not digits.isdecimal() or len(digits) < 2:
        return None
    return int(digits[:-1]), int(digits[-1])
