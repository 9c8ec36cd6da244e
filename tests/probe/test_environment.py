"""Environment variables by allowlist only, never secrets; package versions without importing the packages."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

from advisor.probe.environment import (
    ENV_EXACT,
    ENV_PREFIXES,
    PACKAGE_NAMES,
    PACKAGE_PREFIXES,
    normalise_name,
    probe_env,
    probe_packages,
    select_packages,
)


def test_only_allowlisted_names_are_kept_and_secrets_never():
    environ = {
        "CUDA_VISIBLE_DEVICES": "",
        "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True",
        "NCCL_DEBUG": "INFO",
        "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE": "1",
        "OMP_NUM_THREADS": "4",
        "HOME": "/home/alice",
        "PATH": "/usr/bin",
        "HF_TOKEN": "hf_abc",
        "AWS_SECRET_ACCESS_KEY": "abc",
        "NCCL_IB_PASSWORD": "hunter2",
        "TORCH_HUB_TOKEN": "abc",
        "PYTORCH_API_KEY": "abc",
        "CUDNN_CREDENTIALS_FILE": "/x",
    }
    facts = probe_env(environ)
    assert facts.complete is True
    assert facts.variables == {
        "CUDA_VISIBLE_DEVICES": "",
        "NCCL_DEBUG": "INFO",
        "OMP_NUM_THREADS": "4",
        "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True",
        "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE": "1",
    }


def test_the_real_environment_is_read(monkeypatch):
    monkeypatch.setenv("CUDA_LAUNCH_BLOCKING", "1")
    monkeypatch.setenv("NCCL_SOCKET_IFNAME", "eth0")
    monkeypatch.setenv("NCCL_AUTH_TOKEN", "secret")
    variables = probe_env().variables
    assert variables["CUDA_LAUNCH_BLOCKING"] == "1"
    assert variables["NCCL_SOCKET_IFNAME"] == "eth0"
    assert "NCCL_AUTH_TOKEN" not in variables


def test_the_allowlist_is_data_other_modules_can_read():
    assert "CUDA_VISIBLE_DEVICES" in ENV_EXACT and "NVIDIA_TF32_OVERRIDE" in ENV_EXACT
    assert {"NCCL_", "TORCH_", "PYTORCH_", "CUDNN_"} <= set(ENV_PREFIXES)


def test_packages_of_this_environment_match_importlib_metadata():
    packages = probe_packages()
    for name in ("torch", "numpy", "nvidia-ml-py"):
        assert packages[name] == importlib.metadata.version(name)
    assert "pydantic" not in packages and "rich" not in packages


def test_fast_path_agrees_with_full_metadata_for_every_distribution():
    # The fast path reads name and version from the .dist-info folder; METADATA must say the same.
    dists = list(importlib.metadata.distributions())
    everything = {normalise_name(d.metadata["Name"]): d.version for d in reversed(dists)}
    selected = select_packages(dists)
    assert selected == {name: everything[name] for name in selected}
    assert set(selected) == {n for n in everything if n in PACKAGE_NAMES or n.startswith(PACKAGE_PREFIXES)}


def test_listing_packages_imports_none_of_them():
    code = ("import sys; from advisor.probe.environment import probe_packages; p = probe_packages(); "
            "assert 'torch' in p; print(sorted(m for m in ('torch', 'numpy', 'pynvml') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
