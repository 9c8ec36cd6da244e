"""Issue 4's scenarios: each recorded machine yields exactly the findings a user must be told, and no others.

Every fixture is loaded the way `gpu-advisor explain` loads it and re-evaluated on the shipped rules.
Sources: tests/fixtures/scenarios/SOURCES.md.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import pytest

from advisor.app.inputs import load_any_report
from advisor.app.reports import evaluate
from advisor.models.findings import Finding
from advisor.models.report import Report
from scenarios import derive_scenario_reports as derive

TESTS = Path(__file__).resolve().parent.parent
SCENARIOS = TESTS / "fixtures" / "scenarios"
H200_REPORT = TESTS / "fixtures" / "reports" / "h200_diagnose.json"

# Rules that read measurements: a pasted text has none, so they must be skipped there -- never fired, never passed.
MEASUREMENT_RULES = frozenset({
    "first-call-costs", "fp64-slow-on-this-gpu", "launch-bound-small-ops", "noisy-measurements",
    "small-tensors-cpu-wins", "tf32-and-mixed-precision-available", "transfer-overhead", "unsynchronized-timing",
    "weak-gpu-vs-strong-cpu", "host-transfer-below-link", "pcie-link-degraded-under-load",
    "throttled-during-measurement",
})
# Why a rule was skipped, in the product's words: each "(reason)" in a skip must be one of these, whole.
_NOT_MEASURED = (r"not collected", r"[\w .]+ not measured", r"[\w .]+ was not measured",
                 r"[\w .-]+ were not both measured", r"no [\w .]+ was measured", r"no crossover timings")
_ENV_NOT_RECORDED = (r"\w+ was not recorded in this source", r"CUDA_VISIBLE_DEVICES is not in the source")
NOT_MEASURED = re.compile("|".join(_NOT_MEASURED))
COLLECT_ENV_REASONS = re.compile("|".join(_NOT_MEASURED + _ENV_NOT_RECORDED + (
    r"not in collect_env output", r"not in collect_env output \(nvidia-smi -q prints it\)",
    r"no known driver floor for CUDA \d+")))
NVIDIA_SMI_REASONS = re.compile("|".join(_NOT_MEASURED + _ENV_NOT_RECORDED + (
    r"not in nvidia-smi -q output",
    r"not in nvidia-smi -q output \(paste `python -m torch\.utils\.collect_env` output for it\)",
    r"nvidia-smi -q does not print the compute capability",
    r"nvidia-smi printed N/A for these ECC counters \(ECC unsupported or disabled\)",
    r"only known when probed from inside the user's own process")))
def skip_reasons(reason: str) -> list[str]:
    """The distinct reasons of a skip ("why; other why"): each said once, the fact paths are in ``missing``."""
    return reason.split("; ")


@dataclass(frozen=True)
class Scenario:
    name: str
    path: Path
    expected: frozenset  # {(rule_id, gpu_index)}
    skip_reasons: Optional[re.Pattern] = None  # every skip must give one of these reasons (None: none skipped)


HEALTHY_H200 = Scenario(
    "healthy_h200", H200_REPORT,
    frozenset({("first-call-costs", None), ("launch-bound-small-ops", None), ("small-tensors-cpu-wins", None),
               ("tf32-and-mixed-precision-available", None), ("transfer-overhead", None),
               ("unsynchronized-timing", None)}))
CPU_ONLY = Scenario(
    "cpu_only_torch_on_gpu_machine", SCENARIOS / "cpu_only_torch2.2.2_rtx4080_laptop_windows.txt",
    frozenset({("cpu-only-torch-on-gpu-machine", None)}), COLLECT_ENV_REASONS)
DRIVER_TOO_OLD = Scenario(
    "driver_too_old", SCENARIOS / "driver_too_old_torch1.3.0_cu101_t4_driver410.txt",
    # One cause, one finding: the failed CUDA initialisation is the driver's age, which its own rule explains.
    frozenset({("driver-too-old-for-torch-cuda", None)}), COLLECT_ENV_REASONS)
SM120 = Scenario(
    "rtx50_torch_without_sm120", SCENARIOS / "rtx5090d_torch2.6.0_cu126_no_sm120.txt",
    frozenset({("gpu-arch-not-in-torch-build", 0)}), COLLECT_ENV_REASONS)
WEAK_LAPTOP_GPU = Scenario(
    "weak_laptop_gpu_vs_16_core_cpu", derive.WEAK_LAPTOP_GPU,
    frozenset({("weak-gpu-vs-strong-cpu", None), ("fp64-slow-on-this-gpu", None), ("first-call-costs", None),
               ("launch-bound-small-ops", None), ("small-tensors-cpu-wins", None), ("transfer-overhead", None),
               ("unsynchronized-timing", None)}),
    re.compile(r"GeForce GPUs have no ECC memory or row remapping"))
MIG = Scenario(
    "mig_slice", SCENARIOS / "mig_a100_80gb_3g40gb_torch2.5_cu121.txt",
    frozenset({("mig-enabled", 0)}), COLLECT_ENV_REASONS)
OTHER_PROCESS_SMI = Scenario(
    "other_process_holds_memory_nvidia_smi", SCENARIOS / "other_process_2x_rtx2070_driver450_nvidia_smi_q.txt",
    frozenset({("low-gpu-memory-headroom", 0), ("pcie-link-below-max", 0), ("pcie-link-below-max", 1)}),
    NVIDIA_SMI_REASONS)
OTHER_PROCESS_PROBED = Scenario(
    "other_process_holds_memory_probed", derive.OTHER_PROCESS,
    frozenset({("other-process-holds-gpu-memory", 0), ("low-gpu-memory-headroom", 0)}),
    NOT_MEASURED)

ALL = (HEALTHY_H200, CPU_ONLY, DRIVER_TOO_OLD, SM120, WEAK_LAPTOP_GPU, MIG, OTHER_PROCESS_SMI, OTHER_PROCESS_PROBED)
PASTES = (CPU_ONLY, DRIVER_TOO_OLD, SM120, MIG, OTHER_PROCESS_SMI)


def _cases(scenarios):
    return [pytest.param(scenario, id=scenario.name) for scenario in scenarios]


_REPORTS: dict[Path, Report] = {}


def report_for(scenario: Scenario) -> Report:
    if scenario.path not in _REPORTS:
        _REPORTS[scenario.path] = evaluate(load_any_report(str(scenario.path)), None)
    return _REPORTS[scenario.path]


def fired(report: Report) -> set[tuple[str, Optional[int]]]:
    return {(f.rule_id, f.gpu_index) for f in report.findings}


def finding(report: Report, rule_id: str, gpu_index: Optional[int] = None) -> Finding:
    matches = [f for f in report.findings if (f.rule_id, f.gpu_index) == (rule_id, gpu_index)]
    assert matches, f"{rule_id} (GPU {gpu_index}) did not fire; fired: {sorted(fired(report), key=str)}"
    return matches[0]


# --- the exact set of findings ----------------------------------------------------------------------------------

@pytest.mark.parametrize("scenario", _cases(ALL))
def test_exactly_the_expected_findings(scenario):
    assert fired(report_for(scenario)) == scenario.expected


@pytest.mark.parametrize("scenario", _cases(ALL))
def test_no_finding_beyond_the_expected(scenario):
    assert fired(report_for(scenario)) - scenario.expected == set()


@pytest.mark.parametrize("scenario", _cases(ALL))
def test_every_expected_finding_fires(scenario):
    assert scenario.expected - fired(report_for(scenario)) == set()


# --- skipped rules: for honest reasons, and measurement rules never decided from a paste ----------------------

@pytest.mark.parametrize("scenario", [pytest.param(s, id=s.name) for s in ALL])
def test_skipped_rules_say_why_in_the_inputs_own_terms(scenario):
    report = report_for(scenario)
    if scenario.skip_reasons is None:
        assert report.skipped == [], [s.reason for s in report.skipped]
        return
    for skipped in report.skipped:
        assert skipped.missing, skipped
        whys = skip_reasons(skipped.reason)
        assert 1 <= len(whys) <= len(skipped.missing) and len(set(whys)) == len(whys), skipped.reason
        assert not any(path in skipped.reason for path in skipped.missing), "a reason repeats its fact path"
        for why in whys:
            assert scenario.skip_reasons.fullmatch(why), f"{skipped.rule_id}: {why!r}"
    decided = fired(report) | {(s.rule_id, s.gpu_index) for s in report.skipped}
    assert len(decided) == len(report.findings) + len(report.skipped), "a rule both fired and was skipped"


@pytest.mark.parametrize("scenario", [pytest.param(s, id=s.name) for s in PASTES + (OTHER_PROCESS_PROBED,)])
def test_measurement_rules_are_skipped_as_not_measured(scenario):
    report = report_for(scenario)
    assert {rule for rule, _ in fired(report)} & MEASUREMENT_RULES == set()
    skipped = {s.rule_id: s.reason for s in report.skipped if s.rule_id in MEASUREMENT_RULES}
    assert set(skipped) == MEASUREMENT_RULES
    for rule_id, reason in skipped.items():
        # Some also lack a setting a paste does not print; at least one fact missing is a measurement.
        assert any(NOT_MEASURED.fullmatch(why) for why in skip_reasons(reason)), f"{rule_id}: {reason}"


# --- healthy H200 (standing in for a healthy H100: same Hopper generation, sm_90) ------------------------------

def test_healthy_h200_yields_only_information():
    report = report_for(HEALTHY_H200)
    assert report.findings
    assert {f.severity.value for f in report.findings} == {"info"}


def test_healthy_h200_messages_carry_its_numbers():
    report = report_for(HEALTHY_H200)
    tf32 = finding(report, "tf32-and-mixed-precision-available").message
    assert "6.9x" in tf32 and "349 vs 51 TFLOP/s" in tf32
    assert "142 (data resident)" in finding(report, "small-tensors-cpu-wins").message
    assert "30x too small" in finding(report, "unsynchronized-timing").message


# --- CPU-only torch on a machine whose driver sees a GPU -------------------------------------------------------

def test_cpu_only_torch_names_the_build_the_driver_and_the_gpu_count():
    report = report_for(CPU_ONLY)
    found = finding(report, "cpu-only-torch-on-gpu-machine")
    assert found.severity.value == "high"
    assert "torch 2.2.2 is a CPU-only build" in found.message
    assert "driver 551.86 sees 1 GPU" in found.message
    assert "download.pytorch.org/whl/cu12" in found.remediation
    assert found.evidence["derived.torch_is_cpu_build"] is True
    # A CPU-only build is not a failed CUDA initialisation: that rule is decided (not fired), not skipped.
    assert "torch-cuda-init-failed" not in {s.rule_id for s in report.skipped}


# --- driver too old for torch's CUDA -------------------------------------------------------------------------

def test_driver_too_old_is_one_finding_not_also_a_failed_cuda_initialisation():
    # The failed initialisation is the driver's age: torch-cuda-init-failed stands down (decided, not skipped).
    report = report_for(DRIVER_TOO_OLD)
    assert "torch-cuda-init-failed" not in {f.rule_id for f in report.findings}
    assert "torch-cuda-init-failed" not in {s.rule_id for s in report.skipped}


def test_driver_too_old_names_the_driver_and_the_floor():
    found = finding(report_for(DRIVER_TOO_OLD), "driver-too-old-for-torch-cuda")
    assert found.severity.value == "high"
    assert "CUDA 10.1.243" in found.message
    assert "410.104" in found.message
    assert "418.39" in found.message  # CUDA 10.1's minimum Linux driver (CUDA Toolkit release notes, table 3)


# --- RTX 50-series with a torch build lacking sm_120 ------------------------------------------------------------

def test_rtx50_paste_is_read_as_a_working_cuda_build_on_one_gpu():
    report = report_for(SM120)
    assert report.facts.torch.version == "2.6.0+cu126"
    assert report.facts.torch.cuda_version == "12.6"
    assert report.facts.torch.cuda_available is True
    assert [g.name for g in report.facts.gpus] == ["NVIDIA GeForce RTX 5090 D"]
    assert report.facts.driver.version == "570.124.04"


def test_rtx50_without_sm120_suggests_the_cu128_wheel():
    found = finding(report_for(SM120), "gpu-arch-not-in-torch-build", 0)
    assert found.severity.value == "high"
    assert "NVIDIA GeForce RTX 5090 D" in found.message
    assert "12.0 (sm_120)" in found.message
    assert "2.6.0+cu126" in found.message and "sm_90" in found.message
    assert "https://download.pytorch.org/whl/cu128" in found.remediation
    assert "CUDA 12.8 or newer" in found.remediation


# --- a weak laptop GPU next to a 16-core CPU (derived from the H200 recording) -------------------------------

def test_weak_laptop_gpu_fixture_is_what_the_derivation_writes():
    h200 = json.loads(H200_REPORT.read_text())
    assert derive.WEAK_LAPTOP_GPU.read_text() == derive.render(derive.derive_weak_laptop_gpu(h200))
    assert derive.OTHER_PROCESS.read_text() == derive.render(derive.derive_other_process(h200))


def test_weak_laptop_gpu_is_measured_against_the_cpu():
    report = report_for(WEAK_LAPTOP_GPU)
    weak = finding(report, "weak-gpu-vs-strong-cpu")
    assert weak.severity.value == "medium"
    assert "5.43 TFLOP/s" in weak.message and "1612 GFLOP/s with 16 threads" in weak.message
    assert "only 3.4x faster" in weak.message
    assert "n = 660 (data resident)" in weak.message
    fp64 = finding(report, "fp64-slow-on-this-gpu")
    assert "0.09 TFLOP/s" in fp64.message and "2% of float32" in fp64.message
    # TF32 buys nothing on a GeForce Ampere part (its TF32 tensor rate equals its FP32 rate): no advice to use it.
    assert ("tf32-and-mixed-precision-available", None) not in fired(report)


# --- a MIG slice ---------------------------------------------------------------------------------------------

def test_mig_paste_is_read_as_one_a100():
    report = report_for(MIG)
    assert [g.name for g in report.facts.gpus] == ["NVIDIA A100-SXM4-80GB"]
    assert report.facts.driver.gpu_count == 1
    assert report.facts.driver.version == "535.161.08"


def test_mig_slice_is_reported():
    found = finding(report_for(MIG), "mig-enabled", 0)
    assert found.severity.value == "low"
    assert "GPU 0 (NVIDIA A100-SXM4-80GB) runs in MIG mode" in found.message


# --- another process holds most of the memory ----------------------------------------------------------------

def test_nvidia_smi_paste_full_card_reports_its_free_memory():
    report = report_for(OTHER_PROCESS_SMI)
    found = finding(report, "low-gpu-memory-headroom", 0)
    assert found.severity.value == "medium"
    assert "GPU 0 (GeForce RTX 2070)" in found.message and "of 7.8 GiB (0%)" in found.message
    assert found.evidence["gpu.memory_free_bytes"] == 2 * 2**20
    gpu = report.facts.gpus[0]
    assert [(p.pid, p.used_memory_bytes) for p in gpu.processes] == [(12769, 6757 * 2**20), (12810, 1217 * 2**20)]
    # From a paste, the product cannot tell the user's own process from another job's, and says so.
    skipped = {(s.rule_id, s.gpu_index): s.reason for s in report.skipped}
    assert "only known when probed from inside the user's own process" in skipped[
        ("other-process-holds-gpu-memory", 0)]


def test_probed_other_process_is_named_with_its_share():
    report = report_for(OTHER_PROCESS_PROBED)
    other = finding(report, "other-process-holds-gpu-memory", 0)
    assert other.severity.value == "medium"
    assert "Other processes hold 128.0 GiB of GPU 0's 140.4 GiB (91%); 11.8 GiB is free" in other.message
    headroom = finding(report, "low-gpu-memory-headroom", 0)
    assert "11.8 GiB free of 140.4 GiB (8%); other processes hold 128.0 GiB of it" in (
        headroom.message)
