"""Well-formedness of the eighth real-world scripts corpus (tests/realworld/scripts_r8): labels, lines, halves, no reuse.

Fast and independent of the linter: it never runs `lint`, so it cannot leak held-out results.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.realworld.corpus_checks import (
    IDS,
    check_every_file_is_labelled,
    check_findings_are_unique,
    check_follows_split,
    check_halves_are_disjoint,
    check_item,
    check_no_source_reused,
)

SCRIPTS = Path(__file__).parent / "scripts_r8"
EARLIER = [Path(__file__).parent / name for name in ("scripts", "scripts_r2", "scripts_r3", "scripts_r4", "scripts_r5", "scripts_r6", "scripts_r7")]
LABELS = json.loads((SCRIPTS / "labels.json").read_text())
ITEMS = LABELS["items"]


def test_every_file_is_labelled_and_every_label_has_a_file():
    check_every_file_is_labelled(SCRIPTS, ITEMS)


def test_halves_are_disjoint_and_both_used():
    check_halves_are_disjoint(ITEMS)


@pytest.mark.parametrize("key", sorted(ITEMS))
def test_item_is_well_formed(key):
    check_item(SCRIPTS, key, ITEMS[key])


def test_findings_are_unique_per_file():
    check_findings_are_unique(ITEMS)


def test_halves_follow_the_seeded_split():
    """The dev/held-out assignment is the one scripts_r8_split.split_halves computes."""
    from tests.realworld.scripts_r8_split import split_halves

    check_follows_split(ITEMS, split_halves)


def test_both_halves_hold_clean_files_and_every_check_is_labelled_in_both():
    for half in ("dev", "heldout"):
        in_half = [v for k, v in ITEMS.items() if k.startswith(half + "/")]
        assert any(v["clean"] for v in in_half), half
        # GA105 and GA110 are labelled in one file each, which the split put in different halves
        assert {f["id"] for v in in_half for f in v["findings"]} >= IDS - {"GA105", "GA110"}, half


def test_no_script_of_an_earlier_corpus_is_reused():
    check_no_source_reused(ITEMS, EARLIER)


def test_no_script_is_named_like_a_test_module():
    """pytest would collect a third-party `..._test.py` as a test (scripts_r8/conftest.py also ignores them)."""
    assert not [k for k in ITEMS if k.rsplit("/", 1)[1].startswith("test_")]
