"""Before/after scenarios from real recordings: what a user comparing these machines must be told, exactly.

Rules are re-evaluated as the command does, so findings follow the current rule set; the facts and
measurements asserted here come from the recorded files and change only when the fixtures do.
"""

from __future__ import annotations

import pytest
from compare_helpers import CPU_ONLY, H200, H200_COLLECT_ENV, H200_SMI

from advisor.app.inputs import load_any_report
from advisor.app.reports import evaluate
from advisor.compare import compare_reports

NVML_MISSING = ("NVML Shared Library Not Found: libnvidia-ml could not be loaded "
                "(no NVIDIA driver installed, or not in this container)")


def loaded(path):
    return evaluate(load_any_report(str(path)), None)


@pytest.fixture(scope="module")
def cpu_to_h200():
    return compare_reports(loaded(CPU_ONLY), loaded(H200))


@pytest.fixture(scope="module")
def paste_to_h200():
    return compare_reports(loaded(H200_COLLECT_ENV), loaded(H200))


def test_cpu_only_to_h200_facts_that_differ(cpu_to_h200):
    assert [(d.path, d.a, d.b) for d in cpu_to_h200.facts.differences] == [
        ("host.os", "Debian GNU/Linux 12 (bookworm)", "Ubuntu 24.04.3 LTS"),
        ("host.kernel", "6.18.44-fc-v669", "6.18.44-fc-v657-gpu"),
        ("host.libc", "glibc 2.36", "glibc 2.39"),
        ("host.python_version", "3.11.7", "3.12.3"),
        ("host.python_platform", "Linux-6.18.44-fc-v669-x86_64-with-glibc2.36",
         "Linux-6.18.44-fc-v657-gpu-x86_64-with-glibc2.39"),
        ("host.physical_cores", 2, 16),
        ("host.logical_cores", 2, 16),
        ("host.usable_cores", 2, 16),
        ("host.l3_cache_bytes", 110100480, 314572800),
        ("host.memory_total_bytes", 25276502016, 135148564480),
        ("host.gcc_version", "12.2.0", "13.3.0"),
        ("host.cmake_version", "3.25.1", "4.4.3"),
        ("torch.version", "2.13.0+cpu", "2.11.0+cu130"),
        ("torch.git_version", "cf30153c4c131c8164ee7798e5022d810682e2cb", "70d99e998b4955e0049d13a98d77ae1b14db1f45"),
        ("torch.cuda_version", None, "13.0"),
        ("torch.cudnn_version", None, "9.19.0"),
        ("torch.arch_list", [], ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]),
        ("torch.cuda_available", False, True),
        ("torch.cuda_unavailable_reason", "Torch not compiled with CUDA enabled", None),
        ("torch.device_count", 0, 1),
        ("torch.devices[0]", None, "NVIDIA H200"),
        ("torch.num_threads", 2, 16),
        ("torch.num_interop_threads", 2, 16),
        ("torch.xnnpack_available", False, True),
        ("driver.nvml_available", False, True),
        ("driver.nvml_error", NVML_MISSING, None),
        ("env.CUDA_HOME", None, "/usr/local/cuda"),
        ("env.LD_LIBRARY_PATH", None, "/usr/local/nvidia/lib64:/usr/local/nvidia/lib"),
        ("env.NCCL_VERSION", None, "2.28.3-1"),
        ("env.NVIDIA_VISIBLE_DEVICES", None, "0"),
        ("env.TORCH_CUDA_ARCH_LIST", None, "9.0a"),
        ("packages.numpy", "2.4.6", "2.5.2"),
        ("packages.nvidia-ml-py", "13.615.71", "13.610.43"),
        ("packages.torch", "2.13.0+cpu", "2.11.0"),
    ]
    notes = {d.path: d.note for d in cpu_to_h200.facts.differences if d.note}
    assert notes["torch.devices[0]"] == "only in B" and notes["env.CUDA_HOME"] == "unset in A"


def test_cpu_only_to_h200_driver_facts_are_one_sided_not_different(cpu_to_h200):
    one_sided = {o.path: o for o in cpu_to_h200.facts.one_sided}
    driver_side = [(p, o.side, o.value) for p, o in one_sided.items() if not p.startswith("packages.")]
    assert driver_side == [
        ("driver.version", "b", "580.159.04"), ("driver.cuda_version", "b", "13.0"),
        ("driver.nvml_version", "b", "13.580.159.04"), ("driver.gpu_count", "b", 1), ("gpus", "b", "NVIDIA H200")]
    assert {o.missing_reason for p, o in one_sided.items() if not p.startswith("packages.")} == {NVML_MISSING}
    # The CPU machine lists only the packages it has; B's extra packages are "not listed in A", not differences.
    assert one_sided["packages.torchvision"].missing_reason == "not listed in A"
    assert len([p for p in one_sided if p.startswith("packages.")]) == 27
    assert cpu_to_h200.facts.not_compared == []  # both recordings were redacted by the same rules


def test_cpu_only_to_h200_measurements(cpu_to_h200):
    both = [(m.name, m.verdict, round(m.ratio, 2), m.noisy) for m in cpu_to_h200.measurements if m.ratio is not None]
    assert both == [("CPU matmul float32", "better", 7.52, True), ("CPU matmul float64", "better", 6.74, False)]
    only_b = [m for m in cpu_to_h200.measurements if m.verdict == "only_b"]
    assert len(only_b) == len(cpu_to_h200.measurements) - 2 == 61
    assert {m.group for m in only_b} == {"Peak throughput", "Host<->device bandwidth", "Overheads",
                                         "Timing without synchronize", "Crossover sizes"}
    crossovers = {m.name: (m.a_text, m.b_text) for m in only_b if m.group == "Crossover sizes"}
    assert len(crossovers) == 36  # the H200 run hit its budget: 40 crossovers were measured on neither side
    assert crossovers["matmul float32 (resident)"] == ("skipped: Torch not compiled with CUDA enabled", "142")
    assert crossovers["add float32 (copy pageable)"][1] == "GPU never wins (up to 37,575,661)"
    assert crossovers["conv2d float32 (resident)"][1] == "<= 1 (GPU wins from the smallest tried)"
    launch = next(m for m in only_b if m.name == "launch of a tiny op (host)")
    assert launch.a_text == "not measured: GPU measurements skipped: Torch not compiled with CUDA enabled"
    assert not any(m.regression for m in cpu_to_h200.measurements)


def test_cpu_only_to_h200_findings(cpu_to_h200):
    by_rule = {f.rule_id: f for f in cpu_to_h200.findings}
    gone = by_rule["no-nvidia-driver"]
    assert (gone.change, gone.severity_a, gone.undecided_reason) == ("disappeared", "info", None)
    b_rules = {f.rule_id for f in loaded(H200).findings}
    assert {f.rule_id for f in cpu_to_h200.findings if f.change == "appeared"} == b_rules
    assert [f for f in cpu_to_h200.findings if f.change == "persists"] == []


def test_collect_env_paste_to_the_same_h200(paste_to_h200):
    facts = paste_to_h200.facts
    # The same machine: no value differs (collect_env's "glibc-2.39" is read as the probe's "glibc 2.39").
    assert [(d.path, d.a, d.b) for d in facts.differences] == []
    # Whatever could not be compared is a placeholder in a redacted report, never a real value.
    assert all("redacted" in n.reason for n in facts.not_compared)
    one_sided = {o.path: o for o in facts.one_sided}
    cudnn = one_sided["torch.cudnn_version"]
    assert (cudnn.side, cudnn.value) == ("b", "9.19.0")
    assert cudnn.missing_reason.startswith("collect_env reports the system's cuDNN libraries")
    assert one_sided["gpus[0].sm_count"].missing_reason == "not in collect_env output (nvidia-smi -q prints it)"
    assert one_sided["env.CUDA_HOME"].missing_reason == "A's source does not record environment variables"
    assert [p for p, o in one_sided.items() if o.side == "a"] == [
        "packages.botorch", "packages.gpytorch", "packages.mypy-extensions", "packages.numpyro", "packages.onnx",
        "packages.onnx-ir", "packages.onnxruntime", "packages.onnxscript", "packages.torch-geometric",
        "packages.torchdiffeq", "packages.torchmetrics"]
    assert paste_to_h200.a.origin == "text" and paste_to_h200.b.origin == "report"
    assert paste_to_h200.measurements == [] and paste_to_h200.measurements_note.startswith("A holds no measurements")
    assert {f.change for f in paste_to_h200.findings} <= {"appeared"}
    assert all(f.undecided_reason for f in paste_to_h200.findings)  # the paste lacks what those rules need


def test_nvidia_smi_paste_agrees_with_the_probe_on_every_shared_fact():
    comparison = compare_reports(loaded(H200_SMI), loaded(H200))
    assert comparison.facts.differences == [] and comparison.facts.not_compared == []
    assert comparison.a.summary == "driver 580.159.04 · NVIDIA H200"
    assert comparison.b.summary == "torch 2.11.0+cu130 · driver 580.159.04 · NVIDIA H200"


def test_a_report_against_itself_is_quiet():
    report = loaded(H200)
    comparison = compare_reports(report, report)
    assert comparison.facts.differences == [] and comparison.facts.one_sided == []
    assert {m.verdict for m in comparison.measurements} == {"similar"}
    assert {f.change for f in comparison.findings} <= {"persists"}
    assert comparison.regressions == []
