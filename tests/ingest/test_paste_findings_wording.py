"""Findings from pastes say only what the paste supports: no "(not known here)" or other placeholder inside a
compat rule's sentence, whatever the paste left out."""

from __future__ import annotations

import pytest
from ingest_helpers import FIXTURES, fixture

from advisor.app.inputs import load_any_report
from advisor.app.reports import evaluate

PASTES = sorted(p for kind in ("collect_env", "scenarios", "nvidia_smi") for p in (FIXTURES / kind).iterdir()
                if p.suffix in (".txt", ".md") and p.name != "SOURCES.md")
BASE = fixture("collect_env", "linux_3x3090_torch1.12_cu116.txt")
#: Each of these lines removed from a paste in turn: the findings must still read as whole sentences.
DROPPABLE = ("PyTorch version", "CUDA used to build PyTorch", "Nvidia driver version", "Python version",
             "Python platform", "GPU models and configuration", "OS:")
VARIANTS = {
    "kepler on a cuda 12 build": BASE.replace("1.12.1+cu116", "2.1.0+cu121").replace(
        "CUDA used to build PyTorch: 11.6", "CUDA used to build PyTorch: 12.1").replace(
        "NVIDIA GeForce RTX 3090", "Tesla K40c").replace("515.65.01", "470.82.01"),
    "cpu build": BASE.replace("1.12.1+cu116", "1.12.1+cpu").replace("Is CUDA available: True",
                                                                    "Is CUDA available: False"),
    "driver too old": BASE.replace("515.65.01", "450.36.06").replace("Is CUDA available: True",
                                                                     "Is CUDA available: False"),
    "no driver": "UserWarning: CUDA initialization: Found no NVIDIA driver on your system.\n" + BASE.replace(
        "Is CUDA available: True", "Is CUDA available: False"),
}


def _compat_texts(path_or_text, tmp_path) -> list[str]:
    if isinstance(path_or_text, str):
        target = tmp_path / "paste.txt"
        target.write_text(path_or_text)
        path_or_text = target
    report = evaluate(load_any_report(str(path_or_text)), None)
    return [f"{f.rule_id}: {f.message} {f.remediation}" for f in report.findings if str(getattr(f.category, "value", f.category)) == "compat"
            or f.rule_id in {"cpu-only-torch-on-gpu-machine", "no-nvidia-driver"}]


@pytest.mark.parametrize("path", PASTES, ids=lambda p: p.name)
def test_no_placeholder_in_findings_from_a_real_paste(path, tmp_path):
    for text in _compat_texts(path, tmp_path):
        assert "not known here" not in text and "unavailable" not in text, text


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("dropped", DROPPABLE)
def test_no_placeholder_whatever_line_the_paste_lacks(variant, dropped, tmp_path):
    text = "\n".join(line for line in VARIANTS[variant].split("\n") if not line.startswith(dropped))
    try:
        texts = _compat_texts(text, tmp_path)
    except Exception as exc:  # a paste cut down to nothing recognisable is refused, not misread
        assert "neither collect_env" in str(exc)
        return
    for finding in texts:
        assert "not known here" not in finding and "unavailable" not in finding, finding
