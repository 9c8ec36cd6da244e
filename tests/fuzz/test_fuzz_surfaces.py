"""Fuzzing every input surface with hypothesis: reports, pastes, notebooks and Python sources, rule files,
command lines. The promise checked: bad input is a clean refusal (exit 2, one line) or a report -- never an
exception escaping, never "internal error", never a terminal escape in the output.

CI runs a bounded, derandomised profile (well under a minute); ``pytest tests/fuzz --fuzz-long`` runs the
long one (thousands of cases per surface). A failure found here goes into tests/fuzz/corpus/ as its minimal
reproducer, which test_fuzz_corpus.py replays on every run.
"""

from __future__ import annotations

import functools
import io

import pytest
import yaml
from fuzz_helpers import CPU_REPORT, H200_REPORT, assert_no_internal_error, cli
from fuzz_strategies import (
    COMMANDS,
    OPTIONS,
    VALUES,
    hostile_json,
    hostile_text,
    mutated_paste,
    mutated_report,
    notebook_text,
    rule_document,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.cli.errors import CliError
from advisor.ingest import facts_from_text
from advisor.ingest.errors import UnrecognisedInput
from advisor.lint.registry import all_infos
from advisor.lint.runner import lint_unit
from advisor.lint.source import SkipFile, SourceUnit, notebook_unit
from advisor.models.load import ReportLoadError, load_report_json

FUZZ = settings(suppress_health_check=list(HealthCheck), deadline=None)
ALL_CHECKS = {info.id for info in all_infos()} | {"GA000"}


@functools.lru_cache(maxsize=1)
def builtin_rules() -> list:
    """The built-in rules, read once (a function, not a fixture: hypothesis would print all of them with
    every failing case)."""
    from advisor.app.reports import load_rule_set

    return load_rule_set(None)


def render_everything(report, rule_set=None) -> None:
    """What explain does after loading: rules, redaction, the three renderers. None may raise."""
    from rich.console import Console

    from advisor.app.reports import apply_rules
    from advisor.redact import redact_report
    from advisor.report.json_report import render_json
    from advisor.report.markdown import render_markdown
    from advisor.report.terminal import render_terminal

    report = apply_rules(report, builtin_rules() if rule_set is None else rule_set)
    for shown in (report, redact_report(report)):
        buffer = io.StringIO()
        render_terminal(shown, Console(file=buffer, width=100, force_terminal=True, markup=False, emoji=False))
        terminal = buffer.getvalue()
        markdown = render_markdown(shown)
        render_json(shown)
        for text in (markdown, terminal.replace("\x1b[", "")):  # rich's own colour codes are "ESC[" sequences
            assert "\x1b]" not in text and "\x07" not in text, "an escape sequence from the data reached the output"


@FUZZ
@given(text=mutated_report())
def test_fuzz_reports(text):
    try:
        report = load_report_json(text, "fuzz")
    except ReportLoadError as refusal:
        assert "\n" not in str(refusal)
        return
    render_everything(report)


@FUZZ
@given(text=mutated_paste())
def test_fuzz_pastes(text):
    from advisor.app.reports import new_meta
    from advisor.models.report import Report

    try:
        facts, kinds = facts_from_text(text, "fuzz")
    except UnrecognisedInput:
        return
    render_everything(Report(meta=new_meta("explain", kinds), facts=facts))


@FUZZ
@given(text=notebook_text())
def test_fuzz_notebooks(text):
    try:
        unit = notebook_unit(text.encode("utf-8", "surrogatepass"), "fuzz.ipynb")
    except SkipFile:
        return
    lint_unit(unit, ALL_CHECKS)


@FUZZ
@given(lines=st.lists(st.one_of(hostile_text, st.sampled_from([
    "import torch", "x = torch.zeros(3).cuda()", "for i in range(9):", "    x.item()", "with torch.no_grad():",
    "    y = x.cpu()", "model.to('cuda')", "torch.backends.cudnn.benchmark = True", "def f(", "((((((((((",
    "x = %time f()", "\tpass", "lambda: (yield)"])), max_size=12))
def test_fuzz_python_sources(lines):
    lint_unit(SourceUnit(path="fuzz.py", text="\n".join(lines)), ALL_CHECKS)


@FUZZ
@given(document=rule_document(), raw=st.one_of(st.none(), hostile_text))
def test_fuzz_rules(tmp_path_factory, document, raw):
    from advisor.app.reports import apply_rules
    from advisor.engine.loader import RuleLoadError, load_rules

    folder = tmp_path_factory.mktemp("rules") / "perf"
    folder.mkdir()
    name = document["id"] if document.get("id") in ("fuzz-rule",) else "any-name"
    text = yaml.safe_dump(document, allow_unicode=True) if raw is None else raw
    (folder / f"{name}.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        loaded = load_rules([folder.parent], include_builtin=False)
    except RuleLoadError as refusal:
        assert "\n" not in str(refusal)
        return
    report = load_report_json(H200_REPORT.read_text())
    render_everything(apply_rules(report, [r.rule for r in loaded]), [r.rule for r in loaded])


@FUZZ
@given(tokens=st.lists(st.one_of(st.sampled_from(OPTIONS), st.sampled_from(VALUES),
                                 st.sampled_from(["REPORT", "PASTE", "MISSING", "OUT", "DIR"])), max_size=6),
       command=st.sampled_from(COMMANDS))
def test_fuzz_command_lines(tmp_path_factory, capsys, tokens, command):
    work = tmp_path_factory.mktemp("cli")
    (work / "a.py").write_text("import torch\nx = torch.zeros(1).cuda()\n")
    names = {"REPORT": str(H200_REPORT), "PASTE": str(CPU_REPORT), "MISSING": str(work / "missing.json"),
             "OUT": str(work / "out.txt"), "DIR": str(work)}
    argv = [*command, *(names.get(token, token) for token in tokens)]
    for index, token in enumerate(argv[:-1]):  # -o only ever writes inside the scratch folder
        if token in ("-o", "--output") and argv[index + 1] not in ("-",):
            argv[index + 1] = str(work / "out.txt")
    if argv[-1:] in (["-o"], ["--output"]):
        argv.append(str(work / "out.txt"))
    try:
        code, _, err = cli(capsys, *argv)
    except CliError as error:  # raised outside run() only if a test harness skipped it: never expected
        pytest.fail(f"CliError escaped: {error}")
    if not argv or argv == ["--"]:  # no command at all: the help text, by design
        assert code in (0, 2) and "Traceback" not in err
        return
    if argv[:2] == ["rules", "validate"]:  # a linter of rule files: one line per problem found, by design
        assert code in (0, 2) and "Traceback" not in err and "internal error" not in err, err[-2000:]
        return
    assert_no_internal_error(code, err)


@FUZZ
@given(value=hostile_json)
def test_fuzz_json_documents(value):
    import json

    try:
        load_report_json(json.dumps(value) if not isinstance(value, str) else value, "fuzz")
    except ReportLoadError:
        pass
