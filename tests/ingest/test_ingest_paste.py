"""What pasting does to the text (fences, <details>, CRLF, prose, quoting), both outputs in one file, and garbage."""

from __future__ import annotations

import pytest
from ingest_helpers import fixture

from advisor.ingest import facts_from_text
from advisor.ingest.errors import UnrecognisedInput
from advisor.models.common import Unavailable

CE_FILES = ["linux_cpu_torch2.13_debian.txt", "linux_3x3090_torch1.12_cu116.txt", "windows_rocm_gfx1151_torch2.12.txt",
            "macos_intel_torch2.2.2_email_wrapped.txt"]
SMI_FILES = ["a10_driver550_ecc.txt", "v100_sxm2_driver418_throttle_truncated.txt",
             "windows_rtx3060_laptop_driver610_wddm.txt"]

WRAPPERS = {
    "fenced with prose": lambda t: f"Here is my environment:\n\n```text\n{t}\n```\n\nAny idea what is wrong?\n",
    "details block":
        lambda t: f"<details>\n<summary>The output of collect_env</summary>\n\n```\n{t}\n```\n</details>\n",
    "windows line endings": lambda t: t.replace("\n", "\r\n"),
    "quoted reply": lambda t: "\n".join("> " + line if line else ">" for line in t.split("\n")),
    "byte-order mark and tildes": lambda t: "\ufeff~~~\n" + t + "\n~~~",
}


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("kind,name", [("collect_env", n) for n in CE_FILES] + [("nvidia_smi", n) for n in SMI_FILES])
def test_wrapping_does_not_change_the_facts(kind: str, name: str, wrapper: str) -> None:
    text = fixture(kind, name)
    plain, plain_kinds = facts_from_text(text, name)
    wrapped, wrapped_kinds = facts_from_text(WRAPPERS[wrapper](text), name)
    assert wrapped_kinds == plain_kinds
    assert wrapped.model_dump() == plain.model_dump()


def test_indented_nvidia_smi_block_keeps_its_nesting() -> None:
    text = fixture("nvidia_smi", "a10_driver550_ecc.txt")
    indented = "\n".join("    " + line if line else line for line in text.split("\n"))
    assert facts_from_text(indented, "indented")[0].model_dump() == facts_from_text(text, "plain")[0].model_dump()


@pytest.mark.parametrize("smi_first", [False, True])
def test_cpu_torch_build_pasted_with_nvidia_smi(smi_first: bool) -> None:
    # A CPU-only torch on a GPU machine: collect_env knows torch, nvidia-smi knows the driver and the GPU.
    ce, smi = fixture("collect_env", "linux_cpu_torch2.13_debian.txt"), fixture("nvidia_smi", "a10_driver550_ecc.txt")
    text = f"{smi}\n\nand collect_env says:\n{ce}" if smi_first else f"{ce}\n\nnvidia-smi -q:\n{smi}"
    facts, kinds = facts_from_text(text, "both")
    assert sorted(kinds) == ["collect_env text", "nvidia-smi -q text"]
    assert facts.torch.version == "2.13.0+cpu" and facts.torch.cuda_version is None
    assert facts.host.cpu_model == "Intel(R) Xeon(R) Processor"
    assert facts.driver.version == "550.127.05" and facts.driver.cuda_version == "12.4"
    assert facts.driver.gpu_count == 1
    assert [gpu.name for gpu in facts.gpus] == ["NVIDIA A10"] and facts.gpus[0].ecc_enabled is True
    assert facts.packages == {"torch": "2.13.0+cpu"}


def _same_driver(ce: str, version: str) -> str:
    # The fixtures come from different machines; give collect_env the nvidia-smi text's driver so they can merge.
    line = next(line for line in ce.split("\n") if line.startswith("Nvidia driver version:"))
    return ce.replace(line, f"Nvidia driver version: {version}")


def test_gpus_merge_by_index_and_name() -> None:
    ce = _same_driver(fixture("collect_env", "linux_2x4090_torch2.15dev_cu130_details.md"), "535.154.05")
    facts, _ = facts_from_text(ce + "\n" + fixture("nvidia_smi", "rtx4090x8_driver535_processes.txt"), "both")
    assert [gpu.index for gpu in facts.gpus] == list(range(8))
    assert facts.gpus[1].uuid == "GPU-8f4d1755-9c8a-3a19-b71e-c190b3801dec"
    assert facts.gpus[1].clock_event_reasons == ["sw_power_cap"]
    assert facts.driver.gpu_count == 2  # collect_env's own count stays; nvidia-smi fills only what it lacked
    assert facts.driver.cuda_version == "12.2"
    assert facts.torch.version == "2.15.0.dev20260914+cu130"


def test_a_gpu_at_another_index_is_matched_by_name() -> None:
    ce = _same_driver(fixture("collect_env", "linux_3x3090_torch1.12_cu116.txt"), "535.154.05")
    ce = ce.replace("GPU 0: NVIDIA GeForce RTX 3090", "GPU 0: NVIDIA A10")
    facts, _ = facts_from_text(ce + fixture("nvidia_smi", "rtx3090_driver535.txt"), "both")
    assert facts.gpus[0].name == "NVIDIA A10" and isinstance(facts.gpus[0].uuid, Unavailable)
    assert facts.gpus[1].index == 1 and facts.gpus[1].uuid == "GPU-6b1d0869-fb77-7f91-fcea-007340e02271"
    assert "nvidia-smi -q prints it" in facts.gpus[2].uuid.unavailable


def test_texts_from_different_drivers_are_not_mixed() -> None:
    ce, smi = fixture("collect_env", "linux_3x3090_torch1.12_cu116.txt"), fixture("nvidia_smi", "rtx3090_driver535.txt")
    facts, kinds = facts_from_text(ce + "\n" + smi, "both")
    assert kinds == ["collect_env text",
                     "nvidia-smi -q text, left out: its driver 535.154.05 differs from collect_env's 515.65.01"]
    assert facts.driver.version == "515.65.01"
    assert isinstance(facts.gpus[0].uuid, Unavailable)


@pytest.mark.parametrize("text", [
    "", "hello world", "{}", "PyTorch version: 2.1.0 is what I use, on Ubuntu.",
    "Traceback (most recent call last):\n  File \"x.py\", line 1\nRuntimeError: CUDA error: out of memory",
])
def test_garbage_is_refused_with_what_was_expected(text: str) -> None:
    with pytest.raises(UnrecognisedInput) as error:
        facts_from_text(text, "paste.txt")
    assert isinstance(error.value, ValueError)
    message = str(error.value)
    assert "\n" not in message
    assert "expected a gpu-advisor JSON report, the output of `python -m torch.utils.collect_env`, or `nvidia-smi -q`" \
        in message


def test_the_nvidia_smi_summary_table_gets_a_pointed_message() -> None:
    table = ("+-----------------------------------------------------------------------------------------+\n"
             "| NVIDIA-SMI 550.127.05             Driver Version: 550.127.05     CUDA Version: 12.4     |\n"
             "|-----------------------------------------+------------------------+----------------------+\n")
    with pytest.raises(UnrecognisedInput, match="run `nvidia-smi -q` instead"):
        facts_from_text(table, "smi.txt")
