"""Every paste parser is linear in its input: hostile shapes (long runs of blanks or colons, repeated markers,
thousands of GPUs or packages) cost twice as much when twice as long, and a 20 MiB paste is read in seconds.

Ratios, not wall times, so the tests hold on a loaded machine: a quadratic parser shows a ratio near 4 when the
input doubles, a linear one near 2; the bound sits between with a margin for noise.
"""

from __future__ import annotations

import time
from typing import Callable

import pytest
from ingest_helpers import fixture

from advisor.ingest import UnrecognisedInput, facts_from_text

BASE = fixture("collect_env", "linux_3x3090_torch1.12_cu116.txt")
SMI = fixture("nvidia_smi", "rtx3090_driver535.txt")
SMI_HEAD, SMI_GPU = SMI[:SMI.index("GPU 0000")], SMI[SMI.index("GPU 0000"):]
MIB = 2**20

#: name -> text of "size" units of hostile material around a real paste.
SHAPES: dict[str, Callable[[int], str]] = {
    "blanks in a GPU line": lambda n: BASE + "GPU 0: x" + " " * n + "y",
    "blanks in a label line": lambda n: "PyTorch version" + " " * n + "\n" + BASE,
    "colon runs in the CPU block": lambda n: BASE + "CPU:\n" + " :" * (n // 2),
    "blanks in an lscpu line": lambda n: BASE + "CPU:\nModel name" + " " * n + "x",
    "repeated Found GPU": lambda n: BASE + "Found GPU0 " * (n // 11),
    "repeated sm_ warning": lambda n: BASE + "x with CUDA capability sm_" * (n // 26),
    "repeated label lines": lambda n: BASE + "PyTorch version: 1.0\n" * (n // 21),
    "GPU lines": lambda n: BASE.replace("GPU models and configuration:", "GPU models and configuration:\n"
                                        + "GPU 1: NVIDIA GeForce RTX 3090\n" * (n // 31)),
    "package lines": lambda n: BASE + "[pip3] pkg==1.0\n" * (n // 16),
    "OS line with blanks": lambda n: BASE.replace("OS: ", "OS: Ubuntu" + " " * n + "(", 1),
    "quoted lines": lambda n: "\n".join("> " + line for line in (BASE * max(1, n // len(BASE))).split("\n")),
    "nvidia-smi blanks": lambda n: SMI + "    Foo" + " " * n + "bar",
    "nvidia-smi colons": lambda n: SMI + "    Foo" + ":x" * (n // 2),
    "nvidia-smi GPUs": lambda n: SMI_HEAD + SMI_GPU * max(1, n // len(SMI_GPU)),
}


def _parse(text: str) -> None:
    try:
        facts_from_text(text, "<test>")
    except UnrecognisedInput:
        pass


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        _parse(text)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_doubling_the_input_roughly_doubles_the_time(shape):
    size = 30_000 if shape == "GPU lines" else 100_000
    small, large = SHAPES[shape](size), SHAPES[shape](4 * size)
    base, bigger = _seconds(small), _seconds(large)
    # Four times the input: about 4x for a linear parser, about 16x for a quadratic one.
    assert bigger < 10 * base + 0.1, f"{shape}: {base:.3f}s -> {bigger:.3f}s for 4x the input"


@pytest.mark.parametrize("text", [
    pytest.param(BASE + "GPU 0: x" + " " * (10 * MIB) + "\nCPU:\n" + " :" * (5 * MIB), id="collect_env"),
    pytest.param(SMI + "    Foo" + " " * (10 * MIB) + "bar\n" + "    Bar" + ":x" * (5 * MIB), id="nvidia-smi"),
    pytest.param("Found GPU0 " * (2 * MIB) + "\n" + BASE, id="torch messages"),
])
def test_a_20_mib_hostile_paste_finishes_in_seconds(text):
    start = time.perf_counter()
    _parse(text)
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize("text", [
    BASE.replace("515.65.01", "9" * 400),
    BASE + "\nCPU:\nCPU(s): " + "9" * 5000 + "\nSocket(s): 1.2.3\nL3 cache: 1.2.3 MiB (2 instances)",
    BASE + "\nCaching allocator config: {'PYTORCH_CUDA_ALLOC_CONF': __import__('os').system('x')}",
    BASE + "\nCaching allocator config: {" + "[" * 100_000 + "}",
    SMI.replace("24576 MiB", "1" * 5000 + " MiB").replace("Volatile", "Volatile\n                SRAM Uncorrectable : "
                                                           + "7" * 5000),
    SMI + "".join(" " * depth + "k\n" for depth in range(3000)),
])
def test_odd_numbers_and_hostile_text_never_crash(text):
    _parse(text)


def test_thousands_of_gpus_merge_in_linear_time():
    def paste(count: int) -> str:
        listing = "".join(f"GPU {i}: NVIDIA GeForce RTX 3090\n" for i in range(count))
        collect_env = BASE.replace("GPU models and configuration:", "GPU models and configuration:\n" + listing)
        return collect_env + "\n" + SMI_HEAD + SMI_GPU * count

    small, large = _seconds(paste(50)), _seconds(paste(200))
    assert large < 10 * small + 0.2
