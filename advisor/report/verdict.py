"""The one-line answer every report starts with: can torch use a GPU here, and if not, why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from advisor.formatting import plural
from advisor.models.common import Severity, Unavailable
from advisor.models.report import Report

# Findings that explain, in order of precedence, why CUDA is not usable.
_BLOCKING_RULES = (
    "torch-not-importable", "cpu-only-torch-on-gpu-machine", "driver-too-old-for-torch-cuda",
    "cuda-visible-devices-hides-gpus", "torch-cuda-init-failed", "gpu-arch-not-in-torch-build", "no-nvidia-driver",
)


@dataclass(frozen=True)
class Verdict:
    usable: Optional[bool]  # None: the source does not say
    headline: str  # "GPU usable: yes", "GPU usable: no", "GPU usable: unknown"
    because: str


def _gpu_names(report: Report) -> str:
    devices = report.facts.torch.devices
    if not isinstance(devices, Unavailable) and devices:
        names = [d.name for d in devices if isinstance(d.name, str)]
    else:
        gpus = report.facts.gpus
        names = [g.name for g in gpus if isinstance(g.name, str)] if not isinstance(gpus, Unavailable) else []
    if not names:
        return ""
    if len(set(names)) == 1:
        return f"{len(names)} x {names[0]}" if len(names) > 1 else names[0]
    return ", ".join(names)


def verdict(report: Report) -> Verdict:
    from advisor.report.sections import has_facts

    if not has_facts(report) and report.recommendations:
        # Nothing about a machine here (an OOM message explained offline): the answer is the recommendation's.
        return Verdict(None, f"{report.recommendations[0].title} (offline)",
                       "nothing about the machine that printed it is in this report")
    torch = report.facts.torch
    blocking = {f.rule_id: f for f in report.findings if f.rule_id in _BLOCKING_RULES}
    available = torch.cuda_available
    # torch can say CUDA is available and still have no kernels for the GPU (or be told so by a driver that
    # later refuses): a blocking finding outranks is_available().
    for rule_id in _BLOCKING_RULES:
        if rule_id in blocking and rule_id != "no-nvidia-driver":
            return Verdict(False, "GPU usable: no", blocking[rule_id].title)
    if available is True:
        names = _gpu_names(report)
        if isinstance(torch.device_count, int):
            because = f"torch {torch.version} (CUDA {torch.cuda_version}) sees {plural(torch.device_count, 'GPU')}: {names}"
        else:
            because = f"torch {torch.version} (CUDA {torch.cuda_version}) reports CUDA available; GPUs: {names}"
        serious = [f for f in report.findings if f.severity == Severity.high]
        if serious:
            because += (f" -- but {plural(len(serious), 'high-severity problem')} below "
                        f"{'needs' if len(serious) == 1 else 'need'} attention")
        return Verdict(True, "GPU usable: yes", because)
    if "no-nvidia-driver" in blocking:
        return Verdict(False, "GPU usable: no", blocking["no-nvidia-driver"].title)
    if available is False:
        reason = torch.cuda_unavailable_reason
        because = reason if isinstance(reason, str) and reason else "torch.cuda.is_available() is False"
        return Verdict(False, "GPU usable: no", because)
    why = available.unavailable if isinstance(available, Unavailable) else "not recorded"
    return Verdict(None, "GPU usable: unknown", f"the source does not say whether CUDA works ({why})")
