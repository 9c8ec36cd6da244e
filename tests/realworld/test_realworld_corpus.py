"""The real-world collect_env corpus is well-formed (this does not score gpu-advisor on it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PASTES = HERE / "pastes"
RULES = HERE.parent.parent / "rules"
HALVES = ("dev", "heldout")


@pytest.fixture(scope="module")
def items() -> dict[str, dict]:
    return json.loads((PASTES / "labels.json").read_text(encoding="utf-8"))["items"]


def test_every_file_is_labelled_and_every_label_has_its_file(items):
    files = {f"{half}/{p.name}" for half in HALVES for p in (PASTES / half).glob("*.txt")}
    assert files, "no pastes found"
    assert files - set(items) == set(), "unlabelled pastes"
    assert set(items) - files == set(), "labels without a paste file"


def test_every_label_has_a_source_and_a_verdict(items):
    for key, label in items.items():
        assert key.split("/", 1)[0] in HALVES, key
        assert label.get("source", "").startswith("https://"), key
        assert label.get("established", "").strip(), key
        kinds = [bool(label.get("expected")), bool(label.get("healthy")), bool(label.get("out_of_scope"))]
        assert sum(kinds) == 1, f"{key}: exactly one of expected / healthy / out_of_scope"
        if label.get("out_of_scope"):
            assert label.get("cause", "").strip(), f"{key}: out_of_scope needs its cause in words"


def test_expected_rule_ids_exist_as_rule_files(items):
    known = {p.stem for p in RULES.glob("*/*.yaml")}
    for key, label in items.items():
        for rule_id in [*(label.get("expected") or []), *(label.get("also_ok") or [])]:
            assert rule_id in known, f"{key}: unknown rule id {rule_id}"


def test_halves_are_disjoint(items):
    names = {half: {k.split("/", 1)[1] for k in items if k.startswith(half + "/")} for half in HALVES}
    assert names["dev"] and names["heldout"]
    assert names["dev"] & names["heldout"] == set()
    texts = {half: {(PASTES / half / n).read_text(encoding="utf-8") for n in names[half]} for half in HALVES}
    assert texts["dev"] & texts["heldout"] == set(), "the same paste is in both halves"


def test_numbers_are_unique(items):
    numbers = [k.split("/", 1)[1].split("_", 1)[0] for k in items]
    assert len(numbers) == len(set(numbers))
