"""The linter on the realistic corpus: exactly the expected findings, and precision/recall against truth."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from advisor.lint import lint_paths

HERE = Path(__file__).parent
EXPECTED = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))


def _key(item: dict) -> tuple:
    return (item["file"], item["cell"], item["line"], item["id"])


@pytest.fixture(scope="module")
def actual() -> Counter:
    run = lint_paths([str(HERE / "scripts"), str(HERE / "notebooks")])
    assert not run.notes, run.notes
    found = Counter()
    for finding in run.findings:
        relative = Path(finding.path).resolve().relative_to(HERE).as_posix()
        found[(relative, finding.cell, finding.line, finding.check_id)] += 1
    return found


def test_exactly_the_expected_findings(actual):
    truth = Counter(_key(i) for i in EXPECTED["findings"])
    misses = Counter(_key(i) for i in EXPECTED["known_misses"])
    false_positives = Counter(_key(i) for i in EXPECTED["known_false_positives"])
    assert not misses - truth, "a known miss must be a ground-truth finding"
    wanted = truth - misses + false_positives
    assert actual == wanted, {"unexpected": dict(actual - wanted), "missing": dict(wanted - actual)}


def test_precision_and_recall(actual, capsys):
    truth = Counter(_key(i) for i in EXPECTED["findings"])
    true_positives = sum((actual & truth).values())
    precision = true_positives / max(sum(actual.values()), 1)
    recall = true_positives / max(sum(truth.values()), 1)
    extra, missed = sum((actual - truth).values()), sum((truth - actual).values())
    with capsys.disabled():
        print(f"\nlint on the example scripts in tests/lint_corpus: {true_positives} of {sum(truth.values())} known "
              f"problems found, {extra} reported where there is none, {missed} missed "
              f"(precision {precision:.2f}, recall {recall:.2f})")
    assert precision >= 0.95 and recall >= 0.95


def test_clean_files_are_silent(actual):
    noisy = {key for key in actual if "_clean" in key[0]}
    assert not noisy


def test_corpus_covers_scripts_notebooks_and_every_check():
    files = {i["file"] for i in EXPECTED["findings"]}
    assert sum(f.endswith(".ipynb") for f in files) >= 1
    assert len(list((HERE / "notebooks").glob("*.ipynb"))) >= 2
    ids = {i["id"] for i in EXPECTED["findings"]}
    assert {f"GA10{n}" for n in range(1, 10)} <= ids
