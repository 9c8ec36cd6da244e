"""torch as this process sees it: a real run here, and real import failures in subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from advisor.probe.torch_env import decode_cudnn_version, parse_parallel_backend, probe_torch

torch = pytest.importorskip("torch")
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def facts():
    return probe_torch()


def test_build_facts_are_what_torch_says(facts):
    assert facts.installed is True and facts.import_error is None
    assert facts.version == torch.__version__
    assert facts.cuda_version == torch.version.cuda
    assert facts.git_version == torch.version.git_version
    assert facts.num_threads == torch.get_num_threads()
    assert facts.cpu_capability == torch.backends.cpu.get_cpu_capability()
    assert facts.parallel_backend in ("OpenMP", "native thread pool", "TBB")
    assert facts.settings.float32_matmul_precision == torch.get_float32_matmul_precision()
    assert facts.settings.deterministic_algorithms is torch.are_deterministic_algorithms_enabled()


def test_cuda_facts_agree_with_is_available(facts):
    assert facts.cuda_available is torch.cuda.is_available()
    if facts.cuda_available:
        assert facts.cuda_unavailable_reason is None
        assert len(facts.devices) == facts.device_count == torch.cuda.device_count()
    else:
        assert isinstance(facts.cuda_unavailable_reason, str) and facts.cuda_unavailable_reason
        assert facts.devices == []


@pytest.mark.skipif(torch.version.cuda is not None, reason="CPU-only build expectations")
def test_cpu_only_build(facts):
    assert facts.cuda_unavailable_reason == "Torch not compiled with CUDA enabled"
    assert facts.arch_list == [] and facts.cudnn_version is None and facts.device_count == 0


def test_cudnn_and_parallel_info_decoding():
    assert decode_cudnn_version(91002) == "9.10.2"
    assert decode_cudnn_version(90100) == "9.1.0"
    assert decode_cudnn_version(8902) == "8.9.2"
    assert parse_parallel_backend(torch.__config__.parallel_info()) == torch.__config__.parallel_info().split(
        "ATen parallel backend: ")[1].splitlines()[0].strip()


def _probe_in_subprocess(prelude: str, env_extra: dict | None = None, path: str | None = None) -> dict:
    import os

    code = prelude + "\nfrom advisor.probe.torch_env import probe_torch\nprint(probe_torch().model_dump_json())\n"
    env = dict(os.environ, **(env_extra or {}))
    if path:
        env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, cwd=REPO)
    return json.loads(out.stdout)


def test_torch_missing_is_recorded():
    facts = _probe_in_subprocess("import sys; sys.modules['torch'] = None")
    assert facts["installed"] is False
    assert "torch" in facts["import_error"]
    assert "unavailable" in facts["version"] and "unavailable" in facts["settings"]["matmul_allow_tf32"]


def test_a_broken_torch_install_keeps_its_error_text(tmp_path):
    # A torch package whose import fails the way a wheel with a missing shared library does.
    package = tmp_path / "torch"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent("""
        raise OSError("libcudnn.so.9: cannot open shared object file: No such file or directory")
    """))
    facts = _probe_in_subprocess("", path=str(tmp_path))
    assert facts["installed"] is True
    assert facts["import_error"] == "OSError: libcudnn.so.9: cannot open shared object file: No such file or directory"
    assert "libcudnn.so.9" in facts["cuda_available"]["unavailable"]
