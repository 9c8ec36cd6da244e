"""Hostile pastes for the ingest parsers: one real paste with one line form blown up to ``n`` characters.

Each kind aims at a backtracking shape the fuzzing campaign found or the parsers' patterns invite: a long run
of spaces between a key and its value, a GPU line without its end, a torch warning repeated on one line,
an nvidia-smi entry without its colon, number runs, a pip/conda line of spaces.
"""

from __future__ import annotations

from fuzz_helpers import FIXTURES

COLLECT_ENV = (FIXTURES / "collect_env" / "linux_h200_torch2.11_cu130.txt").read_text()
NVIDIA_SMI = (FIXTURES / "nvidia_smi" / "h200_driver580.txt").read_text()


def _after_collect_env(line: str) -> str:
    return COLLECT_ENV + "\n" + line + "\n"


KINDS = {
    # collect_env
    "gpu_line_spaces": lambda n: COLLECT_ENV.replace("GPU 0: NVIDIA H200", "GPU 0: x" + " " * n + "y"),
    "gpu_line_repeated": lambda n: COLLECT_ENV.replace("GPU 0: NVIDIA H200", "GPU 0: " + "GPU 1: " * (n // 7)),
    "label_spaces": lambda n: _after_collect_env("Nvidia driver version:" + " " * n + "x"),
    "os_spaces": lambda n: COLLECT_ENV.replace("OS: Ubuntu", "OS: Ubuntu" + " " * n + "(x"),
    "lscpu_key_spaces": lambda n: COLLECT_ENV.replace("CPU:\n", "CPU:\nModel name" + " " * n + "x\n", 1),
    "version_dots": lambda n: COLLECT_ENV.replace("PyTorch version: 2.11.0+cu130", "PyTorch version: " + "1." * (n // 2)),
    "number_run": lambda n: _after_collect_env("Total memory: " + "9" * n + " MiB"),
    "pip_spaces": lambda n: _after_collect_env("[pip3] numpy" + " " * n + "=="),
    "conda_spaces": lambda n: _after_collect_env("[conda] numpy 1" + " a" * (n // 2) + " !"),
    "warning_found_repeated": lambda n: _after_collect_env("Found GPU0 " * (n // 11)),
    "warning_sm_spaces": lambda n: _after_collect_env("x" + " " * n + " with CUDA capability sm_"),
    "warning_supported": lambda n: _after_collect_env("supports CUDA capabilities " + "sm_1 " * (n // 5) + "!"),
    # nvidia-smi -q
    "smi_entry_spaces": lambda n: NVIDIA_SMI + "\n    Product Name" + " " * n + "x\n",
    "smi_entry_no_colon": lambda n: NVIDIA_SMI + "\n    " + "a " * (n // 2) + "\n",
    "smi_value_numbers": lambda n: NVIDIA_SMI.replace("Total                             : ",
                                                      "Total                             : " + "9" * n, 1),
}

#: Kinds still super-linear in the ingest parsers (their tests are then marked xfail). Empty since the ingest
#: rewrite (issue 12) was merged: before it, gpu_line_spaces took 9 s at 20k characters and 30 s at 40k,
#: smi_entry_spaces 0.4 s at 16k and 6.9 s at 64k, os_spaces 0.36 s / 3.6 s, lscpu_key_spaces 1.6 s at 16k,
#: warning_found_repeated 0.15 s / 2.0 s. Add a kind here only while a fix for it is on its way.
NEEDS_INGEST_REWRITE: set[str] = set()


def mixed_paste(size: int) -> str:
    """One paste of about ``size`` characters holding every hostile kind in equal parts."""
    share = max(size // len(KINDS), 1000)
    parts = [make(share) for make in KINDS.values()]
    return "\n".join(parts)
