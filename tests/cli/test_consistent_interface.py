"""One interface for every command, through the real application: options checked before any work, the same
one-line errors, --fail-on everywhere, -o's extension picks the format, --format in any case."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.cli.main import run

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
H200 = FIXTURES / "reports" / "h200_diagnose.json"
CPU_ONLY = FIXTURES / "reports" / "cpu_only_diagnose.json"
OOM = ("CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.19 GiB total capacity; 75.10 GiB already "
       "allocated; 1.5 GiB free; 77.0 GiB reserved in total by PyTorch)")
REPORT_COMMANDS = [["env"], ["diagnose"], ["crossover"], ["memory"], ["batch-size", "--model", "mlp"],
                   ["explain", str(H200)], ["compare", str(CPU_ONLY), str(H200)]]


def cli(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        run([str(a) for a in args])
    out, err = capsys.readouterr()
    return exit_info.value.code or 0, out, err


def one_line_error(err: str, *words: str) -> bool:
    return (err.startswith("gpu-advisor: error: ") and err.count("\n") == 1 and "Traceback" not in err
            and all(word in err for word in words))


@pytest.mark.parametrize("command", REPORT_COMMANDS, ids=lambda c: c[0])
def test_output_into_a_missing_directory_fails_before_any_work(capsys, command, tmp_path, monkeypatch):
    # Nothing may be probed or measured: the probe is made to explode if anything reaches it.
    import advisor.probe

    monkeypatch.setattr(advisor.probe, "collect_facts", lambda *a, **k: pytest.fail("probed before -o was checked"))
    code, out, err = cli(capsys, *command, "-o", tmp_path / "missing" / "report.md")
    assert code == 2 and one_line_error(err, "no such directory") and out == ""


@pytest.mark.parametrize("command", REPORT_COMMANDS + [["lint", str(REPO / "benchmarks")], ["schema"]],
                         ids=lambda c: c[0])
def test_an_unknown_output_extension_is_an_error(capsys, command, tmp_path):
    code, _, err = cli(capsys, *command, "-o", tmp_path / "report.html")
    assert code == 2 and one_line_error(err, "extension '.html'")
    assert not (tmp_path / "report.html").exists()


@pytest.mark.parametrize("command", [["env"], ["diagnose"], ["explain", str(H200)],
                                     ["compare", str(CPU_ONLY), str(H200)]], ids=lambda c: c[0])
def test_a_missing_rules_dir_fails_before_any_work(capsys, command, monkeypatch):
    import advisor.probe

    monkeypatch.setattr(advisor.probe, "collect_facts", lambda *a, **k: pytest.fail("probed before --rules-dir"))
    code, _, err = cli(capsys, *command, "--rules-dir", "no/such/rules")
    assert code == 2 and one_line_error(err, "--rules-dir no/such/rules: no such directory")


@pytest.mark.parametrize("command", REPORT_COMMANDS + [["lint", "x.py"]], ids=lambda c: c[0])
def test_every_report_command_takes_fail_on(capsys, command):
    code, out, err = cli(capsys, *command, "--help")
    assert code == 0 and "--fail-on SEVERITY" in out


def test_fail_on_decides_the_exit_code_of_explain_and_memory(capsys):
    assert cli(capsys, "explain", H200, "--fail-on", "info", "-f", "json")[0] == 1
    # An OOM explanation holds no findings: nothing to fail on.
    assert cli(capsys, "memory", "--explain-oom", OOM, "--fail-on", "info", "-f", "json")[0] == 0


@pytest.mark.parametrize("suffix, first", [(".json", "{"), (".md", "### gpu-advisor"), (".txt", "╭")])
def test_the_output_extension_picks_the_format(capsys, tmp_path, suffix, first):
    target = tmp_path / f"report{suffix}"
    assert cli(capsys, "explain", H200, "-o", target)[0] == 0
    assert target.read_text(encoding="utf-8").lstrip().startswith(first)


def test_schema_writes_to_a_json_file(capsys, tmp_path):
    assert cli(capsys, "schema", "-o", tmp_path / "schema.json")[0] == 0
    assert json.loads((tmp_path / "schema.json").read_text())["title"] == "Report"


@pytest.mark.parametrize("value", ["JSON", "Json", "json"])
def test_format_values_are_case_insensitive(capsys, value):
    code, out, _ = cli(capsys, "explain", H200, "--format", value)
    assert code == 0 and json.loads(out)["schema_version"]


def test_fail_on_values_are_case_insensitive(capsys):
    assert cli(capsys, "explain", H200, "--fail-on", "INFO", "-f", "json")[0] == 1


def test_explain_oom_is_offline_and_imports_no_torch():
    code = ("import sys; from advisor.cli.main import run\n"
            "try:\n    run(['memory', '--explain-oom', sys.argv[1], '-f', 'json'])\n"
            "except SystemExit as e:\n    assert not e.code, e.code\n"
            "assert 'torch' not in sys.modules, 'torch was imported'\n")
    done = subprocess.run([sys.executable, "-c", code, OOM], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["meta"]["sources"] == ["OOM message"]
    assert report["facts"]["host"]["os"] == {"unavailable": "not collected"}  # nothing of this machine


def test_explain_oom_reads_a_file_and_says_when_there_is_none(capsys, tmp_path):
    message = tmp_path / "oom.txt"
    message.write_text(OOM)
    assert cli(capsys, "memory", "--explain-oom", message, "-f", "json")[0] == 0
    code, _, err = cli(capsys, "memory", "--explain-oom", tmp_path / "nothing.txt")
    assert code == 2 and one_line_error(err, "no such file")


def test_explain_oom_does_not_mix_in_a_measurement_of_this_machine(capsys):
    code, _, err = cli(capsys, "memory", "--explain-oom", OOM, "--shape", "1000,1000")
    assert code == 2 and one_line_error(err, "measures nothing")


def test_crossover_without_a_gpu_fails_before_measuring(capsys, monkeypatch):
    import advisor.app.crossover_service as service
    from advisor.models.facts import Facts, TorchFacts

    monkeypatch.setattr("advisor.probe.collect_facts", lambda *a, **k: Facts(
        torch=TorchFacts(cuda_available=False, cuda_unavailable_reason="Torch not compiled with CUDA enabled")))
    monkeypatch.setattr(service, "run_measurements", lambda *a, **k: pytest.fail("measured without a GPU"))
    code, _, err = cli(capsys, "crossover")
    assert code == 3 and one_line_error(err, "no usable GPU", "Torch not compiled with CUDA enabled")


@pytest.mark.parametrize("check", ["GA101", "ga101", "timing-without-sync"])
def test_rules_show_prints_a_lint_checks_page(capsys, check):
    code, out, _ = cli(capsys, "rules", "show", check)
    assert code == 0 and out.startswith("GA101")
    assert "torch.cuda.synchronize()" in out  # the fix, with the code that is reported and not


def test_lint_format_follows_the_output_extension(capsys, tmp_path):
    corpus = REPO / "tests" / "lint_corpus" / "scripts"
    for suffix, first in ((".sarif", '"$schema"'), (".json", '"tool"'), (".md", "### gpu-advisor lint")):
        target = tmp_path / f"lint{suffix}"
        code, _, err = cli(capsys, "lint", corpus, "-o", target)
        assert code == 1, err
        assert first in target.read_text(encoding="utf-8").splitlines()[0 if suffix == ".md" else 1]


def test_lint_threshold_decides_the_exit_code(capsys):
    corpus = REPO / "tests" / "lint_corpus" / "scripts"
    assert cli(capsys, "lint", corpus, "-f", "json")[0] == 1  # any finding, as before
    assert cli(capsys, "lint", corpus, "-f", "json", "--fail-on", "never")[0] == 0
    # Only heuristic findings of medium severity would remain: measured ones there are none of.
    assert cli(capsys, "lint", corpus, "-f", "json", "--min-confidence", "measured")[0] == 0
    assert cli(capsys, "lint", corpus, "-f", "JSON", "--fail-on", "HIGH")[0] == 1


@pytest.mark.parametrize("content", [b"\x00\x01\x02binary\xff", b"\xff\xfe\xfa not utf-8 \xc3\x28"])
def test_a_named_file_that_cannot_be_linted_is_an_error(capsys, tmp_path, content):
    bad = tmp_path / "model.py"
    bad.write_bytes(content)
    code, _, err = cli(capsys, "lint", bad)
    assert code == 2 and err.startswith(f"gpu-advisor: error: {bad.as_posix()}: cannot be linted")


def test_a_malformed_notebook_named_alone_is_an_error_but_not_beside_a_good_file(capsys, tmp_path):
    notebook = tmp_path / "broken.ipynb"
    notebook.write_text('{"cells": [')
    code, _, err = cli(capsys, "lint", notebook)
    assert code == 2 and "cannot be linted" in err
    good = tmp_path / "ok.py"
    good.write_text("import torch\nx = torch.ones(3)\n")
    code, _, err = cli(capsys, "lint", notebook, good)
    assert code == 0 and "gpu-advisor: error:" in err and "in 1 file" in err


def test_batch_size_takes_a_file_path_model(capsys, tmp_path, monkeypatch):
    (tmp_path / "net.py").write_text("import torch\n\ndef build():\n    return torch.nn.Linear(4, 2)\n")
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, "batch-size", "--model", "net.py:build", "--input-shape", "4")
    # The model loads; on a machine without a GPU the run then stops before measuring, with exit 3.
    assert code in (0, 3) and "net.py" not in err.split("error:")[-1].split("no usable")[0], err
    code, _, err = cli(capsys, "batch-size", "--model", "elsewhere/net.py:build")
    assert code == 2 and one_line_error(err, "no such file 'elsewhere/net.py'")
