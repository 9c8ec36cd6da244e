"""The dev/held-out split by repository, used from the sixtieth lint corpus on.

Up to the fifty-ninth corpus the seeded split (seeded_split.py) placed each file on its own, so two files of one
repository could sit in both halves: r59's held-out half gained 20 labelled findings in two files of a repository
whose third file, in the dev half, had led to the fix -- a fix that was measured on the held-out half without being
new to it. Here every file of one repository goes to the same half: a fix made for a dev file can only reach a
held-out file through what the two repositories share, which is what "held out" is meant to measure.

The rule is the seeded split's (scripts_r3_split.py) over groups instead of files: a group is the files whose
`source` names the same `owner/repo` (a file the search index names only by its id is a group of its own: its
repository is not known). Shuffle the groups (in order of their first file's name) with `random.Random(seed)`;
place the ones carrying the rarest check ids first in the half that keeps the per-check finding counts, the clean
counts and the half sizes (in files) closest, ties alternating from dev; then swap pairs of groups between the halves
while a swap lowers the imbalance. Recomputable from labels.json alone.
"""

from __future__ import annotations

import random
from collections import Counter

from tests.realworld.scripts_r3_split import IDS, _improve_by_swaps

KEYS = IDS + ["__clean", "__n"]


def repository_of(name: str, item: dict) -> str:
    """'owner/repo' of a source written `owner/repo@commit:path#L..`; else the file's own name (a group of one)."""
    head = item["source"].split()[0]
    if "@" in head and "/" in head.split("@", 1)[0] and ":" in head.split("@", 1)[1]:
        return head.split("@", 1)[0].lower()
    return name


def by_repository(seed: int):
    def split_halves(items: dict[str, dict]) -> dict[str, str]:
        """items: {'NNN_slug.py': {'source', 'findings': [{'id': ...}], 'clean'}} -> {'NNN_slug.py': 'dev'|'heldout'}."""
        return split_groups(items, seed)
    return split_halves


def _weight(item: dict) -> Counter:
    c = Counter(f["id"] for f in item["findings"])
    c["__clean"] = int(bool(item["clean"]))
    c["__n"] = 1
    return c


def split_groups(items: dict[str, dict], seed: int) -> dict[str, str]:
    members: dict[str, list[str]] = {}
    for name in sorted(items):
        members.setdefault(repository_of(name, items[name]), []).append(name)
    weights = {group: sum((_weight(items[n]) for n in names), Counter()) for group, names in members.items()}
    freq = Counter(f["id"] for item in items.values() for f in item["findings"])

    def rarity(group: str) -> int:
        return min((freq[f["id"]] for n in members[group] for f in items[n]["findings"]), default=10**6)

    groups = sorted(members, key=lambda g: members[g][0])
    random.Random(seed).shuffle(groups)
    counts = {"dev": Counter(), "heldout": Counter()}
    side: dict[str, str] = {}
    for k, group in enumerate(sorted(groups, key=rarity)):  # stable: the shuffle breaks ties
        best = None
        for half in (("dev", "heldout") if k % 2 == 0 else ("heldout", "dev")):
            other = "heldout" if half == "dev" else "dev"
            score = sum((counts[half][key] + weights[group][key] - counts[other][key]) ** 2 for key in KEYS)
            if best is None or score < best[0]:
                best = (score, half)
        side[group] = best[1]
        counts[best[1]].update(weights[group])
    _improve_by_swaps(sorted(members, key=lambda g: members[g][0]), side, counts, weights.__getitem__, KEYS)
    return {name: side[group] for group, names in members.items() for name in names}
