"""Every command's Markdown, rendered like GitHub renders an issue comment, shows what it says: redaction
placeholders survive, no stray HTML, one comment long, the answer before the details."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.cli.main import run
from tests.cli.markdown_check import markdown_problems, render_html, visible_text

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
SAMPLES = REPO / "sample_reports"


def markdown_of(capsys, *args) -> str:
    with pytest.raises(SystemExit) as exit_info:
        run([str(a) for a in args] + ["--format", "markdown"])
    out, err = capsys.readouterr()
    assert exit_info.value.code in (0, 1, None), err  # 1: findings (lint)
    return out


@pytest.fixture
def private_report(tmp_path) -> Path:
    """A saved env report holding a home path, a host name and a UUID, as a user's machine would."""
    report = json.loads((FIXTURES / "reports" / "cpu_only_env.json").read_text())
    report["facts"]["env"]["variables"] = {"CUDA_HOME": "/home/alice/cuda-13.0",
                                           "CUDA_VISIBLE_DEVICES": "GPU-8f1c2e4a-1b2c-4d5e-9f00-112233445566"}
    report["facts"]["host"]["hostname"] = "alice-workstation"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(report))
    return path


def test_redaction_placeholders_render_as_written(capsys, private_report):
    markdown = markdown_of(capsys, "explain", private_report)
    assert markdown_problems(markdown) == []
    text = visible_text(render_html(markdown))
    assert "/home/{user}/cuda-13.0" in text and "{uuid-1}" in text
    assert "alice" not in markdown


@pytest.mark.parametrize("args", [
    ["env"],
    ["diagnose", "--quick", "--code", str(FIXTURES.parent / "lint_corpus" / "scripts")],
    ["explain", str(FIXTURES / "reports" / "h200_diagnose.json")],
    ["explain", str(SAMPLES / "h200" / "batch_size_resnet50_h200.json")],
    ["explain", str(SAMPLES / "h200" / "memory_nofit_h200.json")],
    ["explain", str(FIXTURES / "collect_env" / "linux_h200_torch2.11_cu130.txt")],
    ["explain", str(FIXTURES / "collect_env" / "windows_3060ti_torch1.11_cu113.txt")],
    ["explain", str(FIXTURES / "nvidia_smi" / "rtx4090x8_driver535_processes.txt")],
    ["compare", str(FIXTURES / "reports" / "cpu_only_diagnose.json"), str(FIXTURES / "reports" / "h200_diagnose.json")],
    ["lint", str(REPO / "tests" / "lint_corpus")],
    ["memory", "--explain-oom", "CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.19 GiB total capacity; "
     "75.10 GiB already allocated; 1.5 GiB free; 77.0 GiB reserved in total by PyTorch)"],
], ids=lambda args: " ".join(a if len(a) < 30 else Path(a).name[:30] for a in args[:2]))
def test_every_commands_markdown_renders_what_it_says(capsys, args):
    markdown = markdown_of(capsys, *args)
    assert markdown.strip(), "no Markdown written"
    assert markdown_problems(markdown) == []
    # The answer first: the headline comes before any folded section.
    assert markdown.find("**") < markdown.find("<details>") or "<details>" not in markdown


def test_a_huge_report_fits_one_comment_with_the_answer_first(capsys, tmp_path):
    """Thousands of findings (diagnose --code on a big repository): still one comment, cut between findings."""
    report = json.loads((FIXTURES / "reports" / "cpu_only_diagnose.json").read_text())
    finding = {"rule_id": "GA104", "title": "Tensor created on the CPU, then copied to the GPU", "category": "code",
               "severity": "low", "confidence": "inferred", "message": "torch.randn(n).cuda() builds on the CPU " * 3,
               "remediation": "Create it on the GPU: torch.randn(n, device='cuda').", "source": "lint",
               "location": {"path": "src/model.py", "line": 1, "column": 1}}
    report["findings"] = [{**finding, "location": {**finding["location"], "line": n}} for n in range(1, 3001)]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(report))
    markdown = markdown_of(capsys, "explain", path)
    assert len(markdown) <= 65_536 and markdown_problems(markdown) == []
    assert markdown.startswith("### gpu-advisor report\n\n**GPU usable")
    assert markdown.rstrip().endswith("for the rest)_")
    last_finding = markdown.split("\n- **")[-1]
    assert "*Fix:*" in last_finding  # the last finding shown is whole
