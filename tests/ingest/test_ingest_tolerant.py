"""collect_env pastes as people actually post them: retyped, quoted, indented, truncated, from torch 1.x --
each still read field by field, and never rejected as "not collect_env"."""

from __future__ import annotations

import pytest
from ingest_helpers import fixture

from advisor.ingest import facts_from_text
from advisor.ingest.torch_warnings import read_torch_warning

BASE = fixture("collect_env", "linux_3x3090_torch1.12_cu116.txt")


def _facts(text: str):
    facts, kinds = facts_from_text(text, "<test>")
    assert kinds and kinds[0].startswith("collect_env")
    return facts


def _mangle_each_line(text: str, change) -> str:
    return "\n".join(change(line) for line in text.split("\n"))


@pytest.mark.parametrize("mangle", [
    pytest.param(lambda t: t.replace(": ", "： "), id="full-width colons"),
    pytest.param(lambda t: t.replace("OS:", "Os:").replace("PyTorch version", "Pytorch Version"), id="case"),
    pytest.param(lambda t: t.replace("PyTorch version:", "PyTorch version").replace("Is CUDA available:",
                                                                                   "Is CUDA available"), id="no colon"),
    pytest.param(lambda t: t.replace("Versions of", "Version of"), id="Version for Versions"),
    pytest.param(lambda t: _mangle_each_line(t, lambda line: "> " + line), id="quoted"),
    pytest.param(lambda t: _mangle_each_line(t, lambda line: "    " + line), id="indented"),
    pytest.param(lambda t: _mangle_each_line(t, lambda line: f"`{line}`" if line.strip() else line), id="backticks"),
    pytest.param(lambda t: _mangle_each_line(t, lambda line: "- " + line if ":" in line else line), id="bullets"),
    pytest.param(lambda t: "Here is my env:\n```\n" + t + "\n```\nthanks", id="fenced with prose"),
    pytest.param(lambda t: t.replace("PyTorch version: ", "PyTorch version :  "), id="padded"),
])
def test_a_mangled_paste_still_reads_every_field(mangle):
    facts = _facts(mangle(BASE))
    assert facts.torch.version == "1.12.1+cu116"
    assert facts.torch.cuda_version == "11.6"
    assert facts.torch.cuda_available is True
    assert facts.driver.version == "515.65.01"
    assert facts.driver.gpu_count == 3


def test_a_truncated_paste_is_read_as_far_as_it_goes():
    head = "\n".join(BASE.split("\n")[:6])
    facts = _facts(head)
    assert facts.torch.version == "1.12.1+cu116"


def test_a_paste_starting_after_its_first_lines_is_still_collect_env():
    lines = BASE.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("Is CUDA available"))
    facts = _facts("\n".join(lines[start:]))
    assert facts.driver.version == "515.65.01"


@pytest.mark.parametrize("cuda_line", ["None", "Could not collect", "N/A"])
def test_cpu_build_of_torch_1x_with_a_gpu_listed(cuda_line):
    text = f"""Collecting environment information...
PyTorch version: 1.8.1
Is debug build: False
CUDA used to build PyTorch: {cuda_line}

OS: Ubuntu 20.04.2 LTS (x86_64)
GCC version: (Ubuntu 9.3.0-17ubuntu1~20.04) 9.3.0
Python version: 3.8 (64-bit runtime)
Is CUDA available: False
CUDA runtime version: 11.2.152
GPU models and configuration: GPU 0: GeForce GTX 1080 Ti
Nvidia driver version: 460.73.01
cuDNN version: Could not collect
"""
    facts = _facts(text)
    assert facts.torch.cuda_version is None
    assert facts.torch.hip_version is None  # torch < 1.8 printed no ROCm line: a CPU build is no ROCm build
    assert facts.driver.gpu_count == 1


def test_a_plus_cpu_version_is_a_cpu_build_whatever_else_is_printed():
    text = BASE.replace("1.12.1+cu116", "1.12.1+cpu").replace("CUDA used to build PyTorch: 11.6",
                                                              "CUDA used to build PyTorch: Could not collect")
    facts = _facts(text)
    assert facts.torch.cuda_version is None and facts.torch.hip_version is None


@pytest.mark.parametrize("message, cc", [
    ("NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.",
     ("NVIDIA GeForce RTX 5090", "12.0")),
    ("Found GPU0 Tesla K40c which is of cuda capability 3.5.\n    PyTorch no longer supports this GPU because it is "
     "too old.\n    The minimum cuda capability supported by this library is 3.7.", ("Tesla K40c", "3.5")),
    ("UserWarning: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
     "driver from http://www.nvidia.com/Download/index.aspx", None),
    ("UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040).", None),
])
def test_torchs_own_messages_become_facts(message, cc):
    warning = read_torch_warning(message)
    assert warning.reasons, message
    if cc is not None:
        assert warning.capabilities[cc[0]] == cc[1]
    facts = _facts(message + "\n" + BASE.replace("Is CUDA available: True", "Is CUDA available: False"))
    assert facts.torch.cuda_available is False
    assert facts.torch.cuda_unavailable_reason == warning.reasons[0]


def test_a_message_is_cut_to_a_readable_length():
    warning = read_torch_warning("Found no NVIDIA driver on your system" + "x" * 100_000)
    assert len(warning.reasons[0]) <= 400


def test_a_paste_whose_newlines_were_lost_is_split_back_into_fields():
    collapsed = " ".join(line for line in BASE.split("\n") if line.strip())
    facts = _facts(collapsed)
    assert facts.torch.version == "1.12.1+cu116" and facts.torch.cuda_version == "11.6"
    assert facts.torch.hip_version is None and facts.driver.version == "515.65.01"
    assert facts.host.os == "Ubuntu 22.04.1 LTS"
    assert facts.packages["torch"] == "1.12.1+cu116"


def test_a_failed_import_of_torch_is_read_as_torchs_own_error():
    text = ("Collecting environment information...\nTraceback (most recent call last):\n"
            "  File \"<frozen runpy>\", line 198, in _run_module_as_main\n"
            "ModuleNotFoundError: No module named 'torch'\n")
    facts = _facts(text)
    assert facts.torch.import_error == "ModuleNotFoundError: No module named 'torch'"
    na = BASE.replace("PyTorch version: 1.12.1+cu116", "PyTorch version: N/A")
    assert "PyTorch version: N/A" in _facts(na).torch.import_error


def test_condas_cpu_build_is_cpu_only_even_without_the_cuda_line():
    text = fixture("collect_env", "linux_cpu_torch1.11_fedora_conda.txt")
    cut = "\n".join(line for line in text.split("\n") if not line.startswith(("CUDA used", "ROCM used")))
    facts = _facts(cut)
    assert facts.torch.cuda_version is None and facts.torch.hip_version is None


def test_a_linux_paste_where_nvidia_smi_never_ran_says_there_is_no_driver():
    from advisor.engine.derive import derive_machine

    text = (BASE.replace("Nvidia driver version: 515.65.01", "Nvidia driver version: Could not collect")
            .replace("Is CUDA available: True", "Is CUDA available: False"))
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("GPU models"))
    end = next(i for i, line in enumerate(lines) if line.startswith("Nvidia driver"))
    text = "\n".join(lines[:start] + ["GPU models and configuration: Could not collect"] + lines[end:])
    machine = derive_machine(_facts(text))
    assert machine.nvidia_smi_failed_in_paste is True
    assert "nvidia-smi" in machine.no_driver_evidence


def test_a_paste_retyped_as_a_markdown_table_is_read():
    rows = [f"| {line.split(': ', 1)[0]} | {line.split(': ', 1)[1]} |" if ": " in line else line
            for line in BASE.split("\n")]
    facts = _facts("| field | value |\n|---|---|\n" + "\n".join(rows))
    assert facts.torch.version == "1.12.1+cu116" and facts.driver.version == "515.65.01"
