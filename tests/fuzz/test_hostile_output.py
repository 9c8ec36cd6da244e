"""Strings from a report are data: no escape sequence, rich markup or Markdown from a paste is obeyed."""

from __future__ import annotations

import copy
import json

import pytest
from fuzz_helpers import H200_REPORT, cli

from advisor.report.safe_text import md_code, md_inline, printable

HOSTILE_NAME = "\x1b]0;PWNED\x07\x1b[2J\r[/][link=http://evil.example]click[/link] [rev a1] \u202eRTL <details>|*x*"


@pytest.fixture
def hostile_report(tmp_path):
    document = json.loads(H200_REPORT.read_text())
    document = copy.deepcopy(document)
    document["facts"]["gpus"][0]["name"] = HOSTILE_NAME
    document["facts"]["env"]["variables"]["CUDA_VISIBLE_DEVICES"] = "[bold red]0[/]\x1b[31m"
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize("fmt", ["terminal", "markdown", "json"])
def test_escape_sequences_are_never_emitted(capsys, hostile_report, fmt):
    code, out, err = cli(capsys, "explain", hostile_report, "-f", fmt, "--no-redact")
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out
    if fmt != "json":  # JSON keeps the data exact (its control characters are \u escapes anyway)
        assert "\u202e" not in out
    if fmt == "terminal":
        assert "[rev a1]" in out and "[/]" in out and "[link=http://evil.example]" in out
    if fmt == "markdown":
        assert "<details>|" not in out and "\\<details>" in out


def test_terminal_to_a_real_console_keeps_brackets(hostile_report):
    """Through rich with colour on, as on a TTY: markup in data still prints as text."""
    import io

    from rich.console import Console

    from advisor.models.load import load_report_json
    from advisor.report.terminal import render_terminal

    report = load_report_json(hostile_report.read_text())
    buffer = io.StringIO()
    render_terminal(report, Console(file=buffer, force_terminal=True, width=200))
    text = buffer.getvalue()
    assert "]0;PWNED" not in text.replace("\\x1b]0;PWNED", "")  # only the visible escape, never OSC
    assert "rev a1" in text


def test_printable_and_markdown_helpers():
    assert printable("a\x1b[2Jb\r\u202e") == "a\\x1b[2Jb\\x0d\\u202e"
    assert printable("tab\tand\nnewline") == "tab\tand\nnewline"
    assert md_inline("[x](http://e) <b>*y*</b> | sm_90 _z_") == \
        "\\[x\\](http://e) \\<b>\\*y\\*\\</b> \\| sm_90 \\_z\\_"
    assert md_code("a`b") == "``a`b``" and md_code("`") == "`` ` ``"


def test_lint_text_output_shows_escapes_from_code_and_file_names(tmp_path, capsys):
    (tmp_path / "evil\x1b]0;x\x07.py").write_text("import torch\nx = torch.zeros(3).cuda()\nfor i in range(3):\n"
                                                  "    print(x.item(), '\x1b[2J')\n")
    (tmp_path / "bad\x1b[2J.ipynb").write_text("{not json")
    code, out, err = cli(capsys, "lint", tmp_path)
    assert code == 1, err
    assert "\x1b" not in out and "\x1b" not in err and "\x07" not in out + err


def test_rules_list_and_show_print_titles_as_data(tmp_path, capsys):
    folder = tmp_path / "perf"
    folder.mkdir()
    (folder / "evil-title.yaml").write_text(
        'id: evil-title\ntitle: "Evil \\e]0;PWNED\\a title"\ncategory: perf\nseverity: info\n'
        'confidence: heuristic\nwhen: {fact: host.os, eq: "x"}\nmessage: "The message."\nremediation: "The fix."\n'
        'references: []\n'
        'examples: {fires: [{host.os: "x"}], passes: [{host.os: "y"}]}\n')
    for args in (["rules", "list", "--rules-dir", tmp_path], ["rules", "show", "evil-title", "--rules-dir", tmp_path]):
        code, out, err = cli(capsys, *args)
        assert code == 0, err
        assert "\x1b" not in out and "\x07" not in out and "PWNED" in out
