"""The seeded dev/held-out split of the third real-world scripts corpus (tests/realworld/scripts_r3).

The same rule as scripts_r2_split (see its docstring), with this corpus's own waves and seed. Recomputable
from scripts_r3/labels.json alone. Items are gathered in waves (by number, `NNN_slug.py`); each wave is split
once, when it is committed, and a later wave never moves an earlier item.

Within a wave: shuffle the wave's items (in number order) with `random.Random(SEED + wave index)`; place the
ones carrying the rarest check ids first (rarity counted over this wave and the earlier ones); put each in the
half that keeps the per-check finding counts, the clean counts and the half sizes closest, counting every item
already placed (ties alternate, starting with dev). Then, within the wave, swap pairs of items between the
halves (in name order, repeatedly) while a swap lowers the imbalance -- the greedy pass alone leaves checks whose
findings come in pairs in one file lopsided. `test_realworld_scripts_r3_corpus.py` checks that labels.json
follows this rule.
"""

from __future__ import annotations

import random
from collections import Counter

IDS = [f"GA1{n:02d}" for n in range(1, 11)]
SEED = 36

# Last item number of each wave (inclusive). The whole corpus (301-) is one wave: it was split once, at the
# commit that completed it, before anyone scored. Items added later should go in a new wave (a new end here),
# so that nothing already placed moves.
WAVE_ENDS = (999,)


def wave_of(name: str, wave_ends: tuple[int, ...] = WAVE_ENDS) -> int:
    number = int(name.split("_", 1)[0])
    for k, end in enumerate(wave_ends):
        if number <= end:
            return k
    raise ValueError(f"{name}: number past the last wave")


def split_halves(items: dict[str, dict]) -> dict[str, str]:
    """items: {'NNN_slug.py': {'findings': [{'id': ...}, ...], 'clean': bool}} -> {'NNN_slug.py': 'dev'|'heldout'}."""
    return split_with(items, SEED, WAVE_ENDS)


def split_with(items: dict[str, dict], seed: int, wave_ends: tuple[int, ...]) -> dict[str, str]:
    """The rule of this module's docstring with a given seed and waves, so a later corpus (scripts_r5_split)
    applies the same rule with its own seed instead of a copy of the code."""
    keys = IDS + ["__clean", "__n"]

    def weight(name: str) -> Counter:
        c = Counter(f["id"] for f in items[name]["findings"])
        c["__clean"] = int(bool(items[name]["clean"]))
        c["__n"] = 1
        return c

    counts = {"dev": Counter(), "heldout": Counter()}
    halves: dict[str, str] = {}
    for wave in range(len(wave_ends)):
        members = sorted(n for n in items if wave_of(n, wave_ends) == wave)
        seen = [n for n in items if wave_of(n, wave_ends) <= wave]
        freq = Counter(f["id"] for n in seen for f in items[n]["findings"])

        def rarity(name: str, freq: Counter = freq) -> int:
            return min((freq[f["id"]] for f in items[name]["findings"]), default=10**6)

        shuffled = list(members)
        random.Random(seed + wave).shuffle(shuffled)
        placing = sorted(shuffled, key=rarity)  # stable: the shuffle breaks ties
        for k, name in enumerate(placing):
            c = weight(name)
            best = None
            for half in (("dev", "heldout") if k % 2 == 0 else ("heldout", "dev")):
                other = "heldout" if half == "dev" else "dev"
                score = sum((counts[half][key] + c[key] - counts[other][key]) ** 2 for key in keys)
                if best is None or score < best[0]:
                    best = (score, half)
            halves[name] = best[1]
            counts[best[1]].update(c)
        _improve_by_swaps(members, halves, counts, weight, keys)
    return halves


def _imbalance(counts: dict, keys: list[str]) -> int:
    return sum((counts["dev"][key] - counts["heldout"][key]) ** 2 for key in keys)


def _improve_by_swaps(members, halves, counts, weight, keys) -> None:
    """Swap a dev item with a held-out item of the same wave while that lowers the imbalance (deterministic)."""
    improved = True
    while improved:
        improved = False
        for a in members:
            for b in members:
                if halves[a] != "dev" or halves[b] != "heldout":
                    continue
                wa, wb = weight(a), weight(b)
                before = _imbalance(counts, keys)
                counts["dev"].subtract(wa)
                counts["dev"].update(wb)
                counts["heldout"].subtract(wb)
                counts["heldout"].update(wa)
                if _imbalance(counts, keys) < before:
                    halves[a], halves[b] = "heldout", "dev"
                    improved = True
                else:  # undo
                    counts["dev"].subtract(wb)
                    counts["dev"].update(wa)
                    counts["heldout"].subtract(wa)
                    counts["heldout"].update(wb)
