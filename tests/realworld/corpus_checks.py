"""Well-formedness checks shared by the labelled scripts corpora (scripts/, scripts_r2/): files and labels match,
halves are disjoint, every label names a real line and a known check. They never run `lint`, so they cannot leak
held-out results."""

from __future__ import annotations

import ast
import json
import re
import warnings
from pathlib import Path

import pytest

IDS = {f"GA1{n:02d}" for n in range(1, 11)}


ABSENT = ("the corpus's scripts are third-party code kept out of the repository (the search tool's terms): "
          "put them back from labels.json's sources to run this (tests/realworld/README.md)")


def scripts_on_disk(scripts: Path) -> set[str]:
    return {p.relative_to(scripts).as_posix() for p in scripts.rglob("*.py") if p.name != "conftest.py"}


def check_every_file_is_labelled(scripts: Path, items: dict) -> None:
    on_disk = scripts_on_disk(scripts)
    if not on_disk:
        pytest.skip(ABSENT)  # a fresh clone: labels only
    assert on_disk == set(items)


def check_halves_are_disjoint(items: dict, halves: tuple[str, ...] = ("dev", "heldout")) -> None:
    """`halves` names the halves the corpus must use: a held-out-only corpus (scripts_r4) passes ("heldout",)."""
    assert {k.split("/")[0] for k in items} == set(halves)
    names = [k.split("/", 1)[1] for k in items]
    assert len(names) == len(set(names)), "the same file name appears in both halves"
    slugs = [k.split("/", 1)[1].split("_", 1)[1] for k in items]
    assert len(slugs) == len(set(slugs)), "the same script appears twice"


def check_item(scripts: Path, key: str, item: dict) -> None:
    assert item["source"].strip() and item["established"].strip()
    if not (scripts / key).exists():
        pytest.skip(ABSENT)
    text = (scripts / key).read_text()
    n_lines = len(text.splitlines())
    for finding in item["findings"]:
        assert finding["id"] in IDS, finding
        assert 1 <= finding["line"] <= n_lines, finding
        assert finding["why"].strip()
    assert item["clean"] == (not item["findings"])
    try:
        with warnings.catch_warnings():  # third-party code: invalid escapes in Windows paths are theirs
            warnings.simplefilter("ignore")
            ast.parse((scripts / key).read_bytes())  # as Python reads a file: a UTF-8 byte-order mark is allowed
        parses = True
    except SyntaxError:
        parses = False
    assert parses == item.get("parses", True), "a file that does not parse must be labelled parses: false"


def check_findings_are_unique(items: dict) -> None:
    for key, item in items.items():
        seen = [(f["id"], f["line"]) for f in item["findings"]]
        assert len(seen) == len(set(seen)), key


def check_follows_split(items: dict, split_halves) -> None:
    """The dev/held-out assignment is the one the corpus's seeded split rule computes from labels.json, with the
    labels as they were when it was split: a later relabelling (``relabelled.removed``) moves nothing."""
    by_name = {k.split("/", 1)[1]: _as_split(v) for k, v in items.items()}
    halves = split_halves(by_name)
    assert {f"{halves[name]}/{name}" for name in by_name} == set(items)


def _as_split(item: dict) -> dict:
    removed = item.get("relabelled", {}).get("removed", [])
    if not removed:
        return item
    findings = item["findings"] + removed
    return {**item, "findings": findings, "clean": not findings}


def source_origin(source: str) -> str:
    """'owner/repo@commit:path#L..' -> 'owner/repo:path'; a URL -> itself; a free-form source (a tutorial's
    name, a search-index file) -> the whole text, whose index file ids check_no_source_reused compares too."""
    head = source.split()[0]
    if "@" in head and ":" in head.split("@", 1)[1]:
        repo, rest = head.split("@", 1)
        return repo + ":" + rest.split(":", 1)[1].split("#", 1)[0]
    if head.startswith("http"):
        return head.rstrip(",")
    return source


def check_no_source_reused(items: dict, earlier_folders: list[Path]) -> None:
    """Held out means new: no repository file, issue, page or search-index file of an earlier corpus again."""
    earlier = [item for folder in earlier_folders
               for item in json.loads((folder / "labels.json").read_text())["items"].values()]
    used = {source_origin(v["source"]) for v in earlier}
    used_ids = {m for v in earlier for m in re.findall(r"file id (\d+)", v["source"])}
    for key, item in items.items():
        assert source_origin(item["source"]) not in used, key
        assert not set(re.findall(r"file id (\d+)", item["source"])) & used_ids, key
