"""Well-formedness of the seeded lint corpora five to sixty-nine (tests/realworld/scripts_r5 .. scripts_r69): labels,
lines, halves, the seeded split, no script reused from an earlier corpus.

Fast and independent of the linter: it never runs `lint`, so it cannot leak held-out results. The scripts themselves
are not in the repository; the checks that read one skip where it is absent (tests/realworld/README.md).
"""

from __future__ import annotations

import importlib
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

HERE = Path(__file__).parent
ORDER = ("scripts", "scripts_r2", "scripts_r3", "scripts_r4", "scripts_r5", "scripts_r6", "scripts_r7", "scripts_r8",
         "scripts_r9", "scripts_r10", "scripts_r11", "scripts_r12",
         "scripts_r13", "scripts_r14", "scripts_r15", "scripts_r16", "scripts_r17", "scripts_r18", "scripts_r19", "scripts_r20", "scripts_r21", "scripts_r22", "scripts_r23", "scripts_r24", "scripts_r25", "scripts_r26", "scripts_r27", "scripts_r28", "scripts_r29", "scripts_r30", "scripts_r31", "scripts_r32", "scripts_r33", "scripts_r34", "scripts_r35", "scripts_r36", "scripts_r37", "scripts_r38", "scripts_r39", "scripts_r40", "scripts_r41", "scripts_r42", "scripts_r43", "scripts_r44", "scripts_r45", "scripts_r46", "scripts_r47", "scripts_r48", "scripts_r49", "scripts_r50", "scripts_r51", "scripts_r52", "scripts_r53", "scripts_r54", "scripts_r55", "scripts_r56", "scripts_r57", "scripts_r58", "scripts_r59", "scripts_r60", "scripts_r61", "scripts_r62", "scripts_r63", "scripts_r64", "scripts_r65", "scripts_r66", "scripts_r67", "scripts_r68", "scripts_r69")
# corpus -> the checks allowed to be missing from one half (labelled in a single file, which the split placed, or
# in none: r14 has no GA110, and its one GA101 fell in the dev half; r15's one GA105 fell in the dev half, r16's one GA108 too; r18 has no GA110 and its two GA105 fell in the dev half; r19's one GA101 and one GA110 fell in different halves; r20 has no GA105 or GA110, its one GA101 and its one file of GA109 each fell in one half; r21 has no GA110; r22's one GA105 fell in the dev half; r23 has no GA110 and its GA101 fell in the dev half; r24's GA101 and its one GA105 fell in the dev half; r26 has no GA102 or GA109, its one GA101 fell in the dev half and its one GA110 in the held-out half; r27's one GA110 fell in the dev half; r28's one GA101, one GA105 and two GA110 fell in the held-out half; r29 has no GA101, its one GA102 fell in the dev half and its one GA110 in the held-out half; r30's GA101 and GA102 all fell in the dev half; r31 has no GA101 or GA102, its one GA108 fell in the dev half and its one file of GA109 in the held-out half; r32's one GA108 fell in the dev half, its one file of GA109 and its one GA110 in the held-out half; r33 has no GA105, its one file of GA108 fell in the dev half and its one of GA110 in the held-out half; r34 labels every check in both halves; r35 has no GA105, and its three GA110 fell in the held-out half; r36's one GA108 and one GA110 fell in the held-out half; r37's two GA108 fell in the dev half; r38's one GA101 fell in the dev half; r39 and r40 label every check in both halves; r41 has no GA101, GA102 or GA105, its one GA108 fell in the held-out half and its one GA109 in the dev half; r42 has no GA110; r43 labels every check in both halves; r44 labels every check in both halves; r45 (one gatherer, 19 scripts) labels every check, but none of GA105 and GA110 fell in the dev half and none of GA106, GA107 and GA108 in the held-out half; r46 (one gatherer, 27 scripts) has no GA108, GA109 or GA110, and its two GA107 fell in the held-out half; r47 (one gatherer, 17 scripts) has no GA101, GA102, GA105 or GA108, its one GA110 fell in the dev half and its one GA107 in the held-out half; r48 (two gatherers, 12 scripts) has no GA101, GA102, GA108, GA109 or GA110, and its one GA105 and one GA107 fell in the dev half; r49 (three gatherers, 72 scripts) has no GA101 or GA105; r50 (five gatherers, 130 scripts) has no GA108; r51 (eight gatherers, 200 scripts) labels every check in both halves; so does r52 (eight gatherers, 217 scripts); r53 (eight gatherers, 190 scripts) has its one GA108 in the dev half; r54 (eight gatherers, 200 scripts) labels every check in both halves; so does r55 (eight gatherers, 193 scripts), r56 (eight gatherers, 220 scripts) and r57 (eight gatherers, 216 scripts); r58 (eight gatherers, 197 scripts) has its one GA110 in the dev half; r59 (eight gatherers, 196 scripts) labels every check in both halves; r60 (eight gatherers, 198 scripts, split by repository) has no GA108; r61 (eight gatherers, 194 scripts, split by repository) has its one GA108 in the dev half; r62 (eight smaller parts, 143 scripts, split by repository) has its one GA110 in the dev half; r63 (eight parts, 155 scripts, split by repository) has no GA102 and its one GA108 in the dev half; r64 (eight parts, 153 scripts, split by repository) has no GA108, its one GA102 in the held-out half and its one GA105 and one GA110 in the dev half; r65 (eight parts, 155 scripts, split by repository) has its one GA108 in the dev half; r66 (eight parts, 163 scripts, split by repository) has no GA108, its one GA102 in the held-out half and its one GA110 in the dev half; r67 (four parts, 71 scripts, split by repository) has its one GA108 in the held-out half and its three GA110 in the dev half; r68 (eight parts, 152 scripts, split by repository) has its two GA108 and its two GA110 in the dev half; r69 (eight parts, 161 scripts, split by repository) has no GA108, its two GA102 in the held-out half and its one GA105 in the dev half)
CORPORA = {"scripts_r5": set(), "scripts_r6": set(), "scripts_r7": {"GA105"}, "scripts_r8": {"GA105", "GA110"},
           "scripts_r9": {"GA105"}, "scripts_r10": set(), "scripts_r11": set(),
           "scripts_r12": set(), "scripts_r13": set(),
           "scripts_r14": {"GA101", "GA110"}, "scripts_r15": {"GA105"}, "scripts_r16": {"GA108"}, "scripts_r18": {"GA105", "GA110"},
           "scripts_r19": {"GA101", "GA110"}, "scripts_r20": {"GA101", "GA105", "GA109", "GA110"}, "scripts_r21": {"GA110"}, "scripts_r22": {"GA105"}, "scripts_r23": {"GA101", "GA110"},
           "scripts_r24": {"GA101", "GA105"}, "scripts_r25": set(), "scripts_r26": {"GA101", "GA102", "GA109", "GA110"},
           "scripts_r27": {"GA110"}, "scripts_r28": {"GA101", "GA105", "GA110"},
           "scripts_r29": {"GA101", "GA102", "GA110"},
           "scripts_r30": {"GA101", "GA102"},
           "scripts_r31": {"GA101", "GA102", "GA108", "GA109"},
           "scripts_r32": {"GA108", "GA109", "GA110"},
           "scripts_r33": {"GA105", "GA108", "GA110"},
           "scripts_r34": set(),
           "scripts_r35": {"GA105", "GA110"},
           "scripts_r36": {"GA108", "GA110"},
           "scripts_r37": {"GA108"},
           "scripts_r38": {"GA101"},
           "scripts_r39": set(),
           "scripts_r40": set(),
           "scripts_r41": {"GA101", "GA102", "GA105", "GA108", "GA109"},
           "scripts_r42": {"GA110"},
           "scripts_r43": set(),
           "scripts_r44": set(),
           "scripts_r45": {"GA105", "GA106", "GA107", "GA108", "GA110"},
           "scripts_r46": {"GA107", "GA108", "GA109", "GA110"},
           "scripts_r47": {"GA101", "GA102", "GA105", "GA107", "GA108", "GA110"},
           "scripts_r48": {"GA101", "GA102", "GA105", "GA107", "GA108", "GA109", "GA110"},
           "scripts_r49": {"GA101", "GA105"},
           "scripts_r50": {"GA108"},
           "scripts_r51": set(),
           "scripts_r52": set(),
           "scripts_r53": {"GA108"},
           "scripts_r54": set(),
           "scripts_r55": set(),
           "scripts_r56": set(),
           "scripts_r57": set(),
           "scripts_r58": {"GA110"},
           "scripts_r59": set(),
           "scripts_r60": {"GA108"},
           "scripts_r61": {"GA108"},
           "scripts_r62": {"GA110"},
           "scripts_r63": {"GA102", "GA108"},
           "scripts_r64": {"GA102", "GA105", "GA108", "GA110"},
           "scripts_r65": {"GA108"},
           "scripts_r66": {"GA102", "GA108", "GA110"},
           "scripts_r67": {"GA108", "GA110"},
           "scripts_r68": {"GA108", "GA110"},
           "scripts_r69": {"GA102", "GA105", "GA108"}}
ITEMS = {name: json.loads((HERE / name / "labels.json").read_text())["items"] for name in CORPORA}
EVERY_ITEM = [(name, key) for name in CORPORA for key in sorted(ITEMS[name])]


@pytest.mark.parametrize("name", CORPORA)
def test_every_file_is_labelled_and_every_label_has_a_file(name):
    check_every_file_is_labelled(HERE / name, ITEMS[name])


@pytest.mark.parametrize("name", CORPORA)
def test_halves_are_disjoint_and_both_used(name):
    check_halves_are_disjoint(ITEMS[name])


@pytest.mark.parametrize("name,key", EVERY_ITEM, ids=[f"{n}/{k}" for n, k in EVERY_ITEM])
def test_item_is_well_formed(name, key):
    check_item(HERE / name, key, ITEMS[name][key])


@pytest.mark.parametrize("name", CORPORA)
def test_findings_are_unique_per_file(name):
    check_findings_are_unique(ITEMS[name])


@pytest.mark.parametrize("name", CORPORA)
def test_halves_follow_the_seeded_split(name):
    """The dev/held-out assignment is the one tests/realworld/<name>_split.split_halves computes."""
    split = importlib.import_module(f"tests.realworld.{name}_split")
    check_follows_split(ITEMS[name], split.split_halves)


@pytest.mark.parametrize("name", CORPORA)
def test_both_halves_hold_clean_files_and_every_check_is_labelled_in_both(name):
    for half in ("dev", "heldout"):
        in_half = [v for k, v in ITEMS[name].items() if k.startswith(half + "/")]
        assert any(v["clean"] for v in in_half), half
        assert {f["id"] for v in in_half for f in v["findings"]} >= IDS - CORPORA[name], half


@pytest.mark.parametrize("name", CORPORA)
def test_no_script_of_an_earlier_corpus_is_reused(name):
    check_no_source_reused(ITEMS[name], [HERE / earlier for earlier in ORDER[:ORDER.index(name)]])


@pytest.mark.parametrize("name", CORPORA)
def test_no_script_is_named_like_a_test_module(name):
    """pytest would collect a third-party `test_....py` as a test (each corpus's conftest.py ignores `*.py` besides)."""
    assert not [k for k in ITEMS[name] if k.rsplit("/", 1)[1].startswith("test_")]
