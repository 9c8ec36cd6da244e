"""The split by repository (repository_split.py): whole repositories per half, balanced, recomputable."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tests.realworld.repository_split import by_repository, repository_of

HERE = Path(__file__).parent


def _items(corpus: str) -> dict[str, dict]:
    """A spent corpus's labels keyed as a split sees them (no half prefix)."""
    items = json.loads((HERE / corpus / "labels.json").read_text())["items"]
    return {key.split("/", 1)[1]: item for key, item in items.items()}


def test_a_repository_is_named_by_owner_and_repo_and_an_index_file_is_its_own_group():
    named = {"source": "Owner/Repo@0123abc:src/train.py#L1-L40"}
    assert repository_of("1_a.py", named) == "owner/repo"
    assert repository_of("2_b.py", {"source": "search index file id 12345 (a training script)"}) == "2_b.py"


def test_every_file_of_a_repository_lands_in_one_half():
    items = _items("scripts_r59")  # 196 files; three of one repository (the SED files) split 2/1 by file in r59
    halves = by_repository(649)(items)
    per_repo: dict[str, set[str]] = {}
    for name, item in items.items():
        per_repo.setdefault(repository_of(name, item), set()).add(halves[name])
    assert all(len(sides) == 1 for sides in per_repo.values())
    assert len({halves[n] for n in items if "SED-via-consistency" in items[n]["source"]}) == 1


def test_the_halves_stay_balanced_and_the_split_is_recomputable():
    items = _items("scripts_r59")
    halves = by_repository(649)(items)
    assert halves == by_repository(649)(dict(reversed(list(items.items()))))
    assert halves != by_repository(650)(items)
    sizes = Counter(halves.values())
    assert abs(sizes["dev"] - sizes["heldout"]) <= 0.1 * len(items)
    findings = {half: Counter(f["id"] for n, h in halves.items() if h == half for f in items[n]["findings"])
                for half in ("dev", "heldout")}
    total = sum(findings["dev"].values()) + sum(findings["heldout"].values())
    assert abs(sum(findings["dev"].values()) - sum(findings["heldout"].values())) <= 0.1 * total
