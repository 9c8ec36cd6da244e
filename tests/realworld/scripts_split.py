"""The seeded dev/held-out split of the real-world scripts corpus, recomputable from labels.json alone.

Every item (keyed by its number and slug, `NNN_slug.py`) goes to `dev` or `heldout` as follows: shuffle the
items (in number order) with `random.Random(12)`; place the ones carrying the rarest check ids first; put each in
the half that keeps the per-check finding counts, the clean counts and the half sizes closest (ties alternate).
`test_realworld_scripts_corpus.py` checks that labels.json still follows this rule, so the halves cannot drift
silently when items are added.
"""

from __future__ import annotations

import random
from collections import Counter

IDS = [f"GA1{n:02d}" for n in range(1, 11)]
SEED = 12


def split_halves(items: dict[str, dict]) -> dict[str, str]:
    """items: {'NNN_slug.py': {'findings': [{'id': ...}, ...], 'clean': bool}} -> {'NNN_slug.py': 'dev'|'heldout'}."""
    order = sorted(items)
    freq = Counter(f["id"] for it in items.values() for f in it["findings"])
    shuffled = list(order)
    random.Random(SEED).shuffle(shuffled)

    def rarity(name: str) -> int:
        return min((freq[f["id"]] for f in items[name]["findings"]), default=10**6)

    placing = sorted(shuffled, key=rarity)  # stable: the shuffle breaks ties
    keys = IDS + ["__clean", "__n"]
    counts = {"dev": Counter(), "heldout": Counter()}
    halves: dict[str, str] = {}
    for k, name in enumerate(placing):
        c = Counter(f["id"] for f in items[name]["findings"])
        c["__clean"] = int(bool(items[name]["clean"]))
        c["__n"] = 1
        best = None
        for half in (("dev", "heldout") if k % 2 == 0 else ("heldout", "dev")):
            other = "heldout" if half == "dev" else "dev"
            score = sum((counts[half][key] + c[key] - counts[other][key]) ** 2 for key in keys)
            if best is None or score < best[0]:
                best = (score, half)
        halves[name] = best[1]
        counts[best[1]].update(c)
    return halves
