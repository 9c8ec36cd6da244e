"""Facts from the text output of `python -m torch.utils.collect_env`, from torch 1.x to 2.15.

collect_env describes the machine around torch, not torch's own runtime: its "CUDA runtime version" is the
system nvcc and its cuDNN is whatever ldconfig finds. Those land in host facts or in reasons, never in the
torch fields they would be mistaken for. Everything the text does not print stays Unavailable with a reason.
"""

from __future__ import annotations

import ast
import re
from typing import Optional

from advisor.ingest.collect_env_fields import RawCollectEnv, split_fields
from advisor.ingest.collect_env_host import NOT_IN, TOOL, host_facts
from advisor.ingest.packages import packages_fact
from advisor.ingest.shell import unavailable_model
from advisor.ingest.torch_warnings import read_torch_warning
from advisor.ingest.values import is_no_value, parse_bool, printed_as
from advisor.models.common import Fact, Unavailable, missing
from advisor.models.env_allowlist import env_name_allowed
from advisor.models.facts import DriverFacts, EnvFacts, Facts, GpuFacts, TorchFacts

_GPU_LINE = re.compile(r"^\s*GPU (?P<index>\d+): (?P<name>.+?)(?: \(UUID: [^)]*\))?\s*$")
#: nvidia-smi -L style lines collect_env prints under a GPU split into MIG instances: "MIG 3g.40gb Device 0:".
_MIG_LINE = re.compile(r"^\s*MIG \S+\s+Device \d+:")
_GCN_ARCH = re.compile(r"^(?P<name>.+?) \((?P<arch>gfx[0-9a-f]+[^)]*)\)$")
NO_TORCH = "collect_env printed N/A: `import torch` failed in that environment"
ONLY_SMI_KNOWS = "not in collect_env output (nvidia-smi -q prints it)"


def parse_collect_env(text: str, surrounding: str = "") -> Facts:
    """``surrounding``: the whole paste, where torch's warnings printed before collect_env's output may sit."""
    raw = split_fields(text)
    torch_imported = _torch_imported(raw)
    torch = _torch_facts(raw, torch_imported)
    warning = read_torch_warning(surrounding or text)
    if warning.arch_list and torch_imported:
        torch.arch_list = warning.arch_list  # torch's own words: the build's arch list
    gpus = _gpus(raw)
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
        return unavailable_model(TorchFacts, NO_TORCH)
    cuda, hip = _built_cuda(raw, imported), _built_hip(raw, imported)
    return unavailable_model(
        TorchFacts, NOT_IN,
        # collect_env prints a version only after `import torch` succeeded, so torch is installed and imports.
        installed=True if imported else missing(NOT_IN),
        import_error=None if imported else missing(NOT_IN),
        version=raw.value("PyTorch version") if imported else missing(NOT_IN),
        debug_build=_bool(raw, "Is debug build"),
        cuda_version=cuda,
        hip_version=hip,
        cudnn_version=_cudnn(raw, cuda, hip),
        cuda_available=_bool(raw, "Is CUDA available"),
        xpu_available=_bool(raw, "Is XPU available"),
        xnnpack_available=_bool(raw, "Is XNNPACK available"),
    )


def _bool(raw: RawCollectEnv, label: str) -> Fact[bool]:
    text = raw.value(label)
    if text is None:
        return missing(NOT_IN)
    value = parse_bool(text.split()[0] if text.split() else text)
    return value if value is not None else missing(printed_as(text, TOOL))


def _built_cuda(raw: RawCollectEnv, imported: Optional[bool]) -> Fact[Optional[str]]:
    text = raw.value("CUDA used to build PyTorch")
    if text is None or not imported:
        return missing(NOT_IN)
    if re.fullmatch(r"\d+(\.\d+)+", text):
        return text
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


def _gpu_lines(raw: RawCollectEnv) -> list[tuple[int, str]]:
    field = raw.fields.get("GPU models and configuration")
    lines = field.lines() if field else []
    return [(int(m["index"]), m["name"].strip()) for line in lines if (m := _GPU_LINE.match(line))]


def _mig_parents(raw: RawCollectEnv) -> set[int]:
    """Indices of GPUs followed by MIG device lines (a GPU split into MIG instances)."""
    field = raw.fields.get("GPU models and configuration")
    parents, current = set(), None
    for line in field.lines() if field else []:
        if (match := _GPU_LINE.match(line)) is not None:
            current = int(match["index"])
        elif _MIG_LINE.match(line) and current is not None:
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
        gpus = [unavailable_model(GpuFacts, ONLY_SMI_KNOWS, index=index, name=name) for index, name in gpu_lines]
        for index in _mig_parents(raw):
            next(g for g in gpus if g.index == index).mig_enabled = True
        return gpus
    field = raw.fields.get("GPU models and configuration")
    lines = field.lines() if field else []
    if not lines or is_no_value(lines[0]):
        return _gpu_reason(raw)
    # ROCm and macOS builds print torch.cuda.get_device_name(0), with the gcnArchName after it on ROCm.
    name, arch = lines[0].strip(), None
    if (match := _GCN_ARCH.match(name)) is not None:
        name, arch = match["name"], match["arch"]
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
        # torch >= 2.8 prints a dict of the set *_ALLOC_CONF variables; literal_eval reads it without executing it.
        try:
            parsed = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return {}
        return {str(k): str(v) for k, v in parsed.items()} if isinstance(parsed, dict) else {}
    return {"PYTORCH_CUDA_ALLOC_CONF": text}  # older releases printed PYTORCH_CUDA_ALLOC_CONF's value alone
