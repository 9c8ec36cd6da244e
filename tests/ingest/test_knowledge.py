"""The public tables (advisor/knowledge/*.yaml) and the derived facts and advice built on them."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from ingest_helpers import fixture

from advisor import knowledge as kb
from advisor.engine.derive import derive_gpu, derive_machine
from advisor.ingest import facts_from_text

KNOWLEDGE = Path(kb.__file__).parent


@pytest.mark.parametrize("name, cc", [
    ("GeForce 8800 GTX", "1.0"), ("GeForce GTX 480", "2.0"), ("Tesla K40c", "3.5"), ("Tesla K80", "3.7"),
    ("GeForce GTX 750 Ti", "5.0"), ("NVIDIA GeForce GTX TITAN X", "5.2"), ("Tesla P100-PCIE-16GB", "6.0"),
    ("NVIDIA GeForce GTX 1080 Ti", "6.1"), ("NVIDIA TITAN X (Pascal)", "6.1"), ("Tesla V100-SXM2-32GB", "7.0"),
    ("Tesla T4", "7.5"), ("NVIDIA GeForce GTX 1650 with Max-Q Design", "7.5"), ("Quadro RTX 5000", "7.5"),
    ("NVIDIA A100-SXM4-80GB", "8.0"), ("NVIDIA GeForce RTX 3060 Laptop GPU", "8.6"), ("NVIDIA RTX A6000", "8.6"),
    ("NVIDIA A10G", "8.6"), ("NVIDIA GeForce RTX 4090 D", "8.9"), ("NVIDIA RTX 6000 Ada Generation", "8.9"),
    ("NVIDIA L4", "8.9"), ("NVIDIA H100 80GB HBM3", "9.0"), ("NVIDIA GH200 480GB", "9.0"), ("NVIDIA B200", "10.0"),
    ("NVIDIA GeForce RTX 5090", "12.0"), ("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "12.0"),
])
def test_compute_capability_from_the_gpu_name(name, cc):
    model = kb.gpu_model(name)
    assert model is not None and model.compute_capability == cc and not model.ambiguous


def test_unknown_and_ambiguous_names_say_so():
    assert kb.gpu_model("AMD Radeon RX 7900 XT") is None
    assert kb.gpu_model("x" * 100_000) is None
    assert kb.gpu_model("NVIDIA GeForce GT 730").ambiguous  # Fermi (2.1) or Kepler (3.5) chips


@pytest.mark.parametrize("driver, cuda", [
    ("375.26", "8.0"), ("384.130", "9.0"), ("410.104", "10.0"), ("418.67", "10.1"), ("440.33.01", "10.2"),
    ("470.82.01", "11.4"), ("512.96", "11.6"), ("535.183.01", "12.2"), ("551.86", "12.4"), ("570.124.04", "12.8"),
    ("580.159.04", "13.0"), ("1" * 400, None), ("N/A", None),
])
def test_driver_to_highest_cuda(driver, cuda):
    assert kb.driver_max_cuda(driver) == cuda


def test_toolkit_minimum_drivers():
    assert kb.min_driver_for_cuda("10.1.243") == "418.39"
    assert kb.min_driver_for_cuda("12.4") == "525.60.13"  # minor-version compatibility floor
    assert kb.min_driver_for_cuda("12.4", "Windows") == "527.41"


def test_torch_wheel_arch_lists():
    assert kb.torch_build("2.6.0+cu126", "12.6").arch_list[-1] == "sm_90"
    assert "sm_120" in kb.torch_build("2.7.1+cu128", "12.8").arch_list
    assert "sm_61" not in " ".join(kb.torch_build("2.8.0+cu128", "12.8").arch_list)
    assert kb.torch_build("1.10.2+cu102", "10.2").arch_list == ("sm_37", "sm_50", "sm_60", "sm_70")
    assert kb.torch_build("2.6.0", "11.1") is None  # a CUDA that release never shipped as a wheel


@pytest.mark.parametrize("cc, release", [((3, 7), "2.0"), ((3, 5), "1.2"), ((6, 1), "2.14"), ((7, 0), "2.14")])
def test_newest_wheel_for_an_old_gpu(cc, release):
    assert kb.newest_build_for(cc).release == release


def test_no_wheel_runs_on_fermi():
    assert kb.newest_build_for((2, 1)) is None


def test_every_table_names_its_source_and_parses():
    for path in KNOWLEDGE.glob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        assert data.get("source"), path.name


def test_lookups_are_fast_and_do_not_import_torch():
    code = ("import sys, time; from advisor import knowledge as kb; kb.gpu_model('Tesla T4'); t = time.perf_counter();"
            "[kb.gpu_model('NVIDIA GeForce RTX 3090') for _ in range(10000)];"
            "assert time.perf_counter() - t < 5; assert 'torch' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(kb.__file__).parents[2])


def _paste_facts(text: str):
    return facts_from_text(text, "<test>")[0]


def test_a_kepler_gpu_on_a_cuda_12_build_is_not_told_to_update_its_driver():
    text = fixture("collect_env", "linux_3x3090_torch1.12_cu116.txt")
    text = (text.replace("1.12.1+cu116", "2.1.0+cu121").replace("CUDA used to build PyTorch: 11.6",
                                                                 "CUDA used to build PyTorch: 12.1")
            .replace("NVIDIA GeForce RTX 3090", "Tesla K40c").replace("515.65.01", "470.82.01"))
    facts = _paste_facts(text)
    machine = derive_machine(facts)
    assert machine.driver_update_cannot_help is True
    gpu = derive_gpu(facts.gpus[0], facts)
    assert gpu.build_drops_this_gpu is True
    assert "torch 1.2 with CUDA 10.0" in gpu.build_fix and "driver update cannot help" in gpu.build_fix


def test_a_torch_message_names_the_drivers_cuda():
    text = ("UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040).\n"
            + fixture("collect_env", "linux_3x3090_torch1.12_cu116.txt")
            .replace("Nvidia driver version: 515.65.01", "Nvidia driver version: N/A")
            .replace("Is CUDA available: True", "Is CUDA available: False"))
    machine = derive_machine(_paste_facts(text))
    assert machine.driver_max_cuda == "11.4"
    assert machine.torch_says == "driver_too_old"


def test_the_wheel_to_install_is_one_this_driver_runs_from_the_users_own_release():
    text = fixture("scenarios", "cpu_only_torch2.2.2_rtx4080_laptop_windows.txt")
    machine = derive_machine(_paste_facts(text))
    assert machine.torch_is_cpu_build is True and machine.nvidia_gpu_present is True
    assert "torch==2.2.* --index-url https://download.pytorch.org/whl/cu121" in machine.cuda_build_to_install


def test_explain_of_a_paste_stays_fast():
    text = fixture("collect_env", "linux_3x3090_torch1.12_cu116.txt")
    start = time.perf_counter()
    for _ in range(20):
        facts = _paste_facts(text)
        derive_machine(facts)
        [derive_gpu(gpu, facts) for gpu in facts.gpus]
    assert (time.perf_counter() - start) / 20 < 0.5
