"""collect_facts on this machine: a whole Facts that survives JSON, whatever CUDA_VISIBLE_DEVICES says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.models import Facts
from advisor.models.common import is_missing
from advisor.probe import collect_facts
from advisor.probe.merge import attach_torch_view, normalise_uuid

REPO = Path(__file__).resolve().parents[2]
FACTS = REPO / "tests" / "fixtures" / "facts"


def _run(code: str, **env_extra: str) -> str:
    env = dict(os.environ, **env_extra)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=REPO, env=env).stdout


@pytest.fixture(scope="module")
def facts() -> Facts:
    return collect_facts()


def test_facts_round_trip_through_json(facts):
    again = Facts.model_validate_json(facts.model_dump_json())
    assert again == facts


def test_sections_are_filled(facts):
    assert facts.env.complete is True
    assert facts.torch.installed is True
    assert isinstance(facts.packages, dict) and "torch" in facts.packages
    assert isinstance(facts.host.logical_cores, int)
    assert isinstance(facts.driver.nvml_available, bool)
    if facts.driver.nvml_available is False:
        assert is_missing(facts.gpus)
    else:
        assert len(facts.gpus) == facts.driver.gpu_count


def test_every_recorded_fixture_loads():
    fixtures = sorted(FACTS.glob("*.json"))
    assert any(path.name == "cpu_only_linux.json" for path in fixtures)
    for path in fixtures:
        Facts.model_validate_json(path.read_text())


def test_importing_the_probe_imports_neither_torch_nor_pynvml():
    out = _run("import sys, advisor.probe; print([m for m in ('torch', 'pynvml') if m in sys.modules])")
    assert out.strip() == "[]"


def test_without_torch_nothing_imports_it():
    code = ("import sys; from advisor.probe import collect_facts; f = collect_facts(with_torch=False); "
            "print('torch' in sys.modules, f.torch.version)")
    assert _run(code).split()[0] == "False"


def test_cuda_visible_devices_hiding_everything():
    code = "from advisor.probe import collect_facts; print(collect_facts().model_dump_json())"
    # Both values at once, each in a fresh interpreter (CUDA reads the variable once, at initialisation).
    runs = {value: subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=REPO,
                                    env=dict(os.environ, CUDA_VISIBLE_DEVICES=value))
            for value in ("", "-1")}
    for value, process in runs.items():
        out, _ = process.communicate(timeout=120)
        assert process.returncode == 0
        recorded = json.loads(out)
        assert recorded["env"]["variables"]["CUDA_VISIBLE_DEVICES"] == value
        assert recorded["torch"]["device_count"] == 0 and recorded["torch"]["cuda_available"] is False
        assert recorded["torch"]["cuda_unavailable_reason"]
        if isinstance(recorded["gpus"], list):  # NVML still sees every GPU; torch sees none of them
            assert all(gpu["torch_index"] is None for gpu in recorded["gpus"])


def test_uuids_compare_across_nvml_and_torch_spelling():
    assert normalise_uuid("GPU-58E8A5B0-1111-2222-3333-444455556666") == "58e8a5b0-1111-2222-3333-444455556666"
    assert normalise_uuid("58e8a5b0-1111-2222-3333-444455556666") == "58e8a5b0-1111-2222-3333-444455556666"


@pytest.mark.parametrize("path", sorted(FACTS.glob("*.json")), ids=lambda p: p.name)
def test_matching_a_recording_again_gives_the_recorded_torch_indexes(path):
    recorded = Facts.model_validate_json(path.read_text())
    if is_missing(recorded.gpus):
        pytest.skip("no GPUs in this recording")
    again = Facts.model_validate_json(path.read_text())
    for gpu in again.gpus:
        gpu.torch_index = gpu.sm_count = None
    attach_torch_view(again.gpus, again.torch)
    assert [(g.torch_index, g.sm_count) for g in again.gpus] == [(g.torch_index, g.sm_count) for g in recorded.gpus]
