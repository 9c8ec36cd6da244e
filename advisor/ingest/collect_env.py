"""Facts from the text output of `python -m torch.utils.collect_env`, from torch 1.x to 2.15.

collect_env describes the machine around torch, not torch's own runtime: its "CUDA runtime version" is the
system nvcc and its cuDNN is whatever ldconfig finds. Those land in host facts or in reasons, never in the
torch fields they would be mistaken for. Everything the text does not print stays Unavailable with a reason.
"""

from __future__ import annotations

import re
from typing import Optional

from advisor.ingest.collect_env_fields import RawCollectEnv, normalise_line, split_fields
from advisor.ingest.collect_env_host import NOT_IN, TOOL, host_facts
from advisor.ingest.packages import packages_fact
from advisor.ingest.shell import unavailable_model
from advisor.ingest.torch_warnings import read_torch_warning
from advisor.ingest.values import is_no_value, parse_bool, printed_as
from advisor.models.common import Fact, Unavailable, is_missing, missing
from advisor.models.env_allowlist import env_name_allowed
from advisor.models.facts import DriverFacts, EnvFacts, Facts, GpuFacts, TorchFacts

#: GPUs kept from one paste (the count still says how many were listed): no machine has more, and each one
#: costs a model and a pass over the per-GPU rules.
MAX_GPUS = 4096
#: Digits beyond these in a version or count are not a version or count: refused, not converted.
_MAX_DIGITS = 12
NO_TORCH = "collect_env printed N/A: `import torch` failed in that environment"
ONLY_SMI_KNOWS = "not in collect_env output (nvidia-smi -q prints it)"


def parse_collect_env(text: str, surrounding: str = "") -> Facts:
    """``surrounding``: the whole paste, where torch's warnings printed before collect_env's output may sit."""
    raw = split_fields(text)
    torch_imported = _torch_imported(raw)
    torch = _torch_facts(raw, torch_imported)
    warning = read_torch_warning(surrounding or text)
    if warning.import_error and torch_imported is not True:
        torch.import_error = warning.import_error  # torch's real error beats "collect_env printed N/A"
    if warning.arch_list and torch_imported:
        torch.arch_list = warning.arch_list  # torch's own words: the build's arch list
    if warning.reasons and torch.cuda_available is not True:
        torch.cuda_unavailable_reason = warning.reasons[0]
        if is_missing(torch.cuda_available):
            torch.cuda_available = False  # torch said why CUDA cannot be used
    elif torch.cuda_available is True:
        torch.cuda_unavailable_reason = None
    gpus = _gpus(raw)
    if not isinstance(gpus, list) and warning.found_gpus:
        # No GPU list (a truncated paste), but torch's own "Found GPU0 <name> which is of cuda capability X.Y".
        seen: dict[int, GpuFacts] = {}
        for index, name, cc in warning.found_gpus:
            seen.setdefault(index, unavailable_model(GpuFacts, "not in the pasted text", index=index, name=name,
                                                     compute_capability=cc))
        gpus = [seen[index] for index in sorted(seen)]
    if isinstance(gpus, list):
        for gpu in gpus:
            if isinstance(gpu.name, str) and gpu.name in warning.capabilities:
                gpu.compute_capability = warning.capabilities[gpu.name]
    return unavailable_model(
        Facts, NOT_IN,
        host=host_facts(raw),
        torch=torch,
        driver=_driver_facts(raw),
        gpus=gpus,
        env=_env(raw),
        packages=packages_fact(raw.packages, raw.fields.get("Versions of relevant libraries") is not None),
    )


def _torch_imported(raw: RawCollectEnv) -> Optional[bool]:
    version = raw.value("PyTorch version")
    if version is None:
        return None
    return not is_no_value(version)


def _torch_facts(raw: RawCollectEnv, imported: Optional[bool]) -> TorchFacts:
    if imported is False:
        # collect_env prints N/A only when `import torch` failed: torch is missing from that Python or broken.
        printed = raw.value("PyTorch version") or "N/A"
        return unavailable_model(TorchFacts, NO_TORCH, import_error=(
            f"collect_env printed \"PyTorch version: {printed}\": torch is not installed in this Python, "
            "or importing it fails"))
    cuda, hip = _built_cuda(raw, imported), _built_hip(raw, imported)
    return unavailable_model(
        TorchFacts, NOT_IN,
        # collect_env prints a version only after `import torch` succeeded, so torch is installed and imports.
        installed=True if imported else missing(NOT_IN),
        import_error=None if imported else missing(NOT_IN),
        version=raw.value("PyTorch version") if imported else missing(NOT_IN),
        debug_build=_debug_build(raw),
        cuda_version=cuda,
        hip_version=hip,
        cudnn_version=_cudnn(raw, cuda, hip),
        cuda_available=_bool(raw, "Is CUDA available"),
        xpu_available=_bool(raw, "Is XPU available"),
        xnnpack_available=_bool(raw, "Is XNNPACK available"),
    )


def _debug_build(raw: RawCollectEnv) -> Fact[bool]:
    value = _bool(raw, "Is debug build")
    version = raw.value("PyTorch version") or ""
    if value is True and version.split("+", 1)[0] == "1.7.0":
        # The 1.7.0 release wheels set torch.version.debug = True by mistake; they are optimised release builds.
        return missing("torch 1.7.0's release wheels report debug=True by mistake")
    return value


def _bool(raw: RawCollectEnv, label: str) -> Fact[bool]:
    text = raw.value(label)
    if text is None:
        return missing(NOT_IN)
    value = parse_bool(text.split()[0] if text.split() else text)
    return value if value is not None else missing(printed_as(text, TOOL))


def _local_version(raw: RawCollectEnv) -> str:
    """The local part of torch's version ("cpu", "cu121", "rocm6.2"), lower-case; "" when there is none."""
    version = raw.value("PyTorch version") or ""
    return version.partition("+")[2].split()[0].lower() if "+" in version else ""


def _conda_cpu_build(raw: RawCollectEnv) -> bool:
    """conda's CPU build: the "cpuonly" package, or pytorch's build string ("py3.9_cpu_0") says so."""
    for manager, rest in raw.packages:
        words = rest.split()
        if manager == "conda" and words and words[0] == "cpuonly":
            return True
        if manager == "conda" and len(words) >= 3 and words[0] == "pytorch" and "_cpu_" in f"_{words[2]}_":
            return True
    return False


def _built_cuda(raw: RawCollectEnv, imported: Optional[bool]) -> Fact[Optional[str]]:
    text = raw.value("CUDA used to build PyTorch")
    local = _local_version(raw)
    if imported and (local == "cpu" or local.startswith("rocm")):
        return None  # the wheel's own tag: "2.1.0+cpu" is a CPU-only build whatever else the paste says
    version = text.split()[0] if text and text.split() else ""
    if imported is not False and _is_version(version):
        return version  # printed only by a torch that imported, even when the version line was cut off
    if imported and _conda_cpu_build(raw):
        return None  # conda's cpuonly package or a "py3.9_cpu_0" pytorch build, the CUDA line absent or empty
    if text is None or not imported:
        return missing(NOT_IN)
    # collect_env prints torch.version.cuda, and prints None as "None" (when nothing CUDA was found at all) or
    # as "Could not collect" (otherwise); "N/A" replaces it on ROCm builds. With torch imported, each of these
    # means torch.version.cuda is None: a CPU-only or ROCm build, not an unknown value.
    if text.lower() in ("none", "could not collect", "n/a"):
        return None
    return missing(printed_as(text, TOOL))


def _built_hip(raw: RawCollectEnv, imported: Optional[bool]) -> Fact[Optional[str]]:
    # torch >= 2.15 splits "ROCM used to build PyTorch" into "ROCm SDK ..." and "HIP used to build PyTorch";
    # both the old label and the new HIP one print torch.version.hip.
    label = "HIP used to build PyTorch" if "HIP used to build PyTorch" in raw.fields else "ROCM used to build PyTorch"
    text = raw.value(label)
    if imported and text is None and "rocm" not in (raw.value("PyTorch version") or "").lower():
        # torch < 1.8 printed no ROCm line: a build with a CUDA version, or one tagged "+cpu", is no ROCm build,
        # and neither is a CPU build whose CUDA line says None.
        cuda_text = (raw.value("CUDA used to build PyTorch") or "").lower()
        if _local_version(raw) == "cpu" or _is_version(cuda_text.split()[0] if cuda_text.split() else ""):
            return None
        if cuda_text in ("none", "could not collect", "n/a") or _conda_cpu_build(raw):
            return None
    if text is None or not imported:
        return missing(NOT_IN)
    if text.lower() in ("n/a", "none", "could not collect"):
        return None  # collect_env prints N/A exactly when torch.version.hip is None
    return text


def _cudnn(raw: RawCollectEnv, cuda: Fact, hip: Fact) -> Fact[Optional[str]]:
    if cuda is None and hip is None:
        return None  # a CPU-only build links no cuDNN at all
    field = raw.fields.get("cuDNN version")
    if field is None:
        return missing(NOT_IN)
    found = [line.strip() for line in field.lines() if not line.strip().startswith("Probably one of")]
    if not found or is_no_value(found[0]):
        return missing(f"collect_env reports the system's cuDNN, not torch's, and found none ({field.value.strip()!r})")
    names = ", ".join(re.split(r"[\\/]", path)[-1] for path in found)
    return missing(f"collect_env reports the system's cuDNN libraries, not the one torch loads; it found: {names}")


def _driver_facts(raw: RawCollectEnv) -> DriverFacts:
    text = raw.value("Nvidia driver version")
    if text is None:
        version: Fact[str] = missing(NOT_IN)
    elif is_no_value(text):
        version = missing(f"collect_env could not run nvidia-smi ({text!r})")
    else:
        version = text
    gpu_lines = _gpu_lines(raw)
    return unavailable_model(
        DriverFacts, NOT_IN,
        version=version,
        cuda_version=missing(ONLY_SMI_KNOWS),
        gpu_count=len(gpu_lines) if gpu_lines else _gpu_reason(raw),
    )


def _is_version(text: str) -> bool:
    parts = text.split(".")
    return len(parts) >= 2 and all(p.isdecimal() and len(p) <= _MAX_DIGITS for p in parts)


def _gpu_line(line: str) -> Optional[tuple[int, str]]:
    """(index, name) from "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-...)"; string methods, linear in the line."""
    text = normalise_line(line).replace("\uff1a", ":")
    if not text.startswith("GPU "):
        return None
    index, colon, name = text[4:].partition(":")
    index = index.strip()
    if not colon or not index.isdecimal() or len(index) > 6:
        return None
    name = name.split("(UUID:", 1)[0].strip()
    return (int(index), name) if name else None


def _is_mig_line(line: str) -> bool:
    # nvidia-smi -L style lines collect_env prints under a GPU split into MIG instances: "MIG 3g.40gb Device 0:".
    words = line.split()
    return len(words) >= 3 and words[0] == "MIG" and words[2].startswith("Device")


def _gpu_lines(raw: RawCollectEnv) -> list[tuple[int, str]]:
    field = raw.fields.get("GPU models and configuration")
    lines = field.lines() if field else []
    return [found for line in lines if (found := _gpu_line(line)) is not None]


def _mig_parents(raw: RawCollectEnv) -> set[int]:
    """Indices of GPUs followed by MIG device lines (a GPU split into MIG instances)."""
    field = raw.fields.get("GPU models and configuration")
    parents, current = set(), None
    for line in field.lines() if field else []:
        if (found := _gpu_line(line)) is not None:
            current = found[0]
        elif _is_mig_line(line) and current is not None:
            parents.add(current)
    return parents


def _gpu_reason(raw: RawCollectEnv) -> Unavailable:
    text = raw.value("GPU models and configuration")
    if text is None:
        return missing(NOT_IN)
    if raw.fields["GPU models and configuration"].lines() and not is_no_value(text):
        return missing("collect_env names only torch's device 0 here (ROCm or macOS), not every GPU")
    return missing(f"collect_env could not list GPUs ({text!r})")


def _gpus(raw: RawCollectEnv) -> Fact[list[GpuFacts]]:
    gpu_lines = _gpu_lines(raw)
    if gpu_lines:
        gpus = [unavailable_model(GpuFacts, ONLY_SMI_KNOWS, index=index, name=name)
                for index, name in gpu_lines[:MAX_GPUS]]
        by_index = {gpu.index: gpu for gpu in gpus}
        for index in _mig_parents(raw):
            if index in by_index:
                by_index[index].mig_enabled = True
        return gpus
    field = raw.fields.get("GPU models and configuration")
    lines = field.lines() if field else []
    if not lines or is_no_value(lines[0]):
        return _gpu_reason(raw)
    # ROCm and macOS builds print torch.cuda.get_device_name(0), with the gcnArchName after it on ROCm.
    name, arch = lines[0].strip(), None
    head, sep, tail = name.rpartition(" (")
    if sep and tail.startswith("gfx") and tail.endswith(")") and head:
        name, arch = head, tail[:-1]
    return [unavailable_model(GpuFacts, "not in collect_env output", index=0, name=name,
                              **({"architecture": arch} if arch else {}))]


def _env(raw: RawCollectEnv) -> EnvFacts:
    variables: dict[str, str] = {}
    loading = raw.value("CUDA_MODULE_LOADING set to")
    # Printed only when CUDA initialised ("N/A" otherwise); empty means the variable was not set.
    if loading and not is_no_value(loading):
        variables["CUDA_MODULE_LOADING"] = loading
    variables.update(_allocator_config(raw.value("Caching allocator config")))
    # Two variables out of the allowlist were seen: absence of the others says nothing.
    return EnvFacts(variables={k: v for k, v in sorted(variables.items()) if env_name_allowed(k)}, complete=False)


def _allocator_config(text: Optional[str]) -> dict[str, str]:
    if not text or is_no_value(text):
        return {}
    if text.startswith("{"):
        # torch >= 2.8 prints a dict of the set *_ALLOC_CONF variables: {'PYTORCH_CUDA_ALLOC_CONF': 'x:y'}.
        # Read as flat 'key': 'value' pairs with string methods: never evaluated, and linear in its length.
        return _flat_string_dict(text)
    return {"PYTORCH_CUDA_ALLOC_CONF": text}  # older releases printed PYTORCH_CUDA_ALLOC_CONF's value alone


def _flat_string_dict(text: str) -> dict[str, str]:
    body = text.strip()
    if not body.endswith("}") or len(body) > 4096:
        return {}
    strings: list[str] = []
    at = 0
    while (start := _next_quote(body, at)) >= 0:
        end = body.find(body[start], start + 1)
        if end < 0:
            return {}
        strings.append(body[start + 1:end])
        at = end + 1
    if len(strings) % 2:
        return {}
    return {key: value for key, value in zip(strings[0::2], strings[1::2], strict=True) if key.replace("_", "").isalnum()}


def _next_quote(text: str, at: int) -> int:
    found = [i for i in (text.find("'", at), text.find('"', at)) if i >= 0]
    return min(found) if found else -1
