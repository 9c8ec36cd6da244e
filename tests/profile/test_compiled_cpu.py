"""A torch.compile'd training loop profiled on the CPU (benchmarks/profile_programs/compiled_step.py, default
mode): its compiled regions are found, counted and said to have no Python stack of their own, at the line
calling the compiled model. Skipped cleanly where inductor cannot compile (no C++ compiler)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.models.load import load_report_json
from tests.profile.child_env import child_env
from tests.profile.verdicts import line_of

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = ROOT / "benchmarks" / "profile_programs" / "compiled_step.py"


def _compiler() -> bool:
    try:
        import torch._inductor.config  # noqa: F401 - part of torch builds with inductor
    except Exception:  # noqa: BLE001 - a torch without inductor
        return False
    return any(shutil.which(name) for name in ("g++", "c++", "clang++"))


@pytest.mark.skipif(not _compiler(), reason="torch.compile on the CPU needs inductor and a C++ compiler")
def test_compiled_regions_are_counted_not_pinned_on_lines(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    # --wait-seconds: with a cold inductor cache on a busy machine (a CI run) the compile outlasted the default 15 s
    # wait, and the window became a wall-clock one over the compile, with no compiled steps in it.
    result = subprocess.run([sys.executable, "-m", "advisor", "profile", "--warmup-steps", "4", "--steps", "3",
                             "--wait-seconds", "300",
                             "--baseline-steps", "2", "-q", "--log", str(tmp_path / "log"), "-f", "json", "-o",
                             str(out), "--", str(PROGRAM), "40", "default"],
                            cwd=ROOT, capture_output=True, text=True, timeout=600, env=child_env())
    log = (tmp_path / "log").read_text(errors="replace")
    toolchain = ("CppCompileError", "InvalidCxxCompiler", "CalledProcessError", "No such file or directory: 'g++'")
    if result.returncode != 0 and any(sign in log for sign in toolchain):  # the compiler, not gpu-advisor
        pytest.skip("inductor could not build C++ on this machine: " + result.stderr.strip()[-200:])
    assert result.returncode == 0, result.stderr
    report = load_report_json(out.read_text(), str(out))
    profile = report.profile
    assert profile is not None and not profile.cuda_available
    # Forward (dynamo's region) and backward (the compiled autograd function) per step.
    assert profile.compiled.regions_per_step >= 2 and profile.compiled.host_ms_per_step > 0
    hit = next(f for f in report.findings if f.rule_id == "profile-compiled-kernels-without-stack")
    assert hit.location is not None and hit.location.line in (line_of("compiled_step.py", "compiled(inputs)"),
                                                              line_of("compiled_step.py", "loss.backward()"))
    assert "no Python stack of their own" in hit.message
