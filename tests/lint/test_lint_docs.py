"""Every check's page (CheckDoc) is true: its bad example is reported by that check, its good example is not,
and `lint --explain` prints the page."""

from __future__ import annotations

import pytest

from advisor.lint import all_infos, lint_text
from advisor.lint.formats import render_explanation

INFOS = all_infos()


@pytest.mark.parametrize("info", INFOS, ids=[info.id for info in INFOS])
def test_the_bad_example_is_reported_and_the_good_one_is_not(info):
    doc = info.doc
    assert doc is not None and doc.what and doc.why, info.id
    bad = [f.check_id for f in lint_text(doc.bad, path="bad.py", select=[info.id])]
    good = [f.check_id for f in lint_text(doc.good, path="good.py", select=[info.id])]
    assert bad and set(bad) == {info.id}, (info.id, bad)
    assert good == [], (info.id, good)


def test_the_page_has_the_ruff_sections():
    page = render_explanation(next(info for info in INFOS if info.id == "GA101"))
    for section in ("What it does", "Why is this bad?", "Example", "Use instead", "Fix"):
        assert f"\n{section}\n" in page
    assert page.startswith("GA101 timing-without-sync: ") and "\nseverity high, confidence inferred\n" in page


def test_explain_on_the_command_line(app, runner):
    shown = runner.invoke(app, ["lint", "--explain", "launch-bound-loop"])
    assert shown.exit_code == 0 and shown.stdout.startswith("GA110 ")
    unknown = runner.invoke(app, ["lint", "--explain", "GA999"])
    assert unknown.exit_code == 2 and "unknown check" in unknown.stderr


@pytest.fixture
def app():
    from advisor.cli.main import build_app

    return build_app()
