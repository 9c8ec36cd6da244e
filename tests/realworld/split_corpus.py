"""Assign a batch of newly gathered pastes to the dev / heldout halves of the real-world corpus.

Usage: python tests/realworld/split_corpus.py STAGING_DIR
STAGING_DIR holds NNN_slug.txt files and a labels.json keyed by "NNN_slug" (no half prefix).
Items already in tests/realworld/pastes/labels.json keep their half: a batch never moves earlier items,
so a half that someone already looked at (dev) or kept closed (heldout) stays what it was.

Procedure for the new items of one batch (seeded, so it can be re-run and checked):
  1. group the items by class: the first expected rule id, or "healthy", or "out_of_scope";
  2. with one random.Random(12) for the batch, walk the classes in sorted order, sort each class's
     items by name and shuffle them with that generator;
  3. deal each class's shuffled items alternately to the halves, starting with the half that holds
     fewer items of that class so far; on a tie, the half with fewer items in total (dev if that
     ties too), so every class is spread over both halves and the halves stay about 50/50.
     (Batches 1 and 2, items 001-027, were dealt with "dev on a tie" before the total-size tie
     break was added; their assignment is kept as it was.)
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
PASTES = HERE / "pastes"
LABELS = PASTES / "labels.json"
SEED = 12

ABOUT = (
    "Real outputs of `python -m torch.utils.collect_env` (and copies of it such as vLLM's collect_env.py) "
    "pasted in public issues, each with the cause its thread established. Labels come from the threads, "
    "never from gpu-advisor. Keys are '<half>/<file>'. Fields: source (thread URL), established (what the "
    "thread established and how), expected (acceptable rule ids), also_ok (optional second real problem), "
    "healthy, out_of_scope (+ cause), confidence (high: maintainer/reporter confirmed; medium: the paste and "
    "the visible thread agree but the final resolution was not seen), truncated_by_corpus (the stored "
    "search excerpt ended before the user's paste did), notes. See tests/realworld/README.md."
)


def item_class(label: dict) -> str:
    if label.get("out_of_scope"):
        return "out_of_scope"
    if label.get("healthy"):
        return "healthy"
    return label["expected"][0]


def main(staging: Path) -> None:
    corpus = json.loads(LABELS.read_text()) if LABELS.exists() else {"about": ABOUT, "items": {}}
    corpus["about"] = ABOUT
    items = corpus["items"]
    known = {key.split("/", 1)[1].removesuffix(".txt") for key in items}
    staged = json.loads((staging / "labels.json").read_text())
    new = {name: lab for name, lab in staged.items() if name not in known}

    per_half: dict[str, Counter] = {"dev": Counter(), "heldout": Counter()}
    for key, lab in items.items():
        per_half[key.split("/", 1)[0]][item_class(lab)] += 1

    by_class: dict[str, list[str]] = defaultdict(list)
    for name, lab in new.items():
        by_class[item_class(lab)].append(name)

    rng = random.Random(SEED)
    for cls in sorted(by_class):
        names = sorted(by_class[cls])
        rng.shuffle(names)
        dev_n, held_n = per_half["dev"][cls], per_half["heldout"][cls]
        if dev_n == held_n:
            dev_n, held_n = sum(per_half["dev"].values()), sum(per_half["heldout"].values())
        first = "heldout" if held_n < dev_n else "dev"
        other = "dev" if first == "heldout" else "heldout"
        for i, name in enumerate(names):
            half = first if i % 2 == 0 else other
            per_half[half][cls] += 1
            shutil.copyfile(staging / "p" / f"{name}.txt", PASTES / half / f"{name}.txt")
            items[f"{half}/{name}.txt"] = new[name]

    corpus["items"] = dict(sorted(items.items(), key=lambda kv: kv[0].split("/", 1)[1]))
    LABELS.write_text(json.dumps(corpus, indent=1, ensure_ascii=False) + "\n")
    for half in ("dev", "heldout"):
        print(half, sum(per_half[half].values()), dict(sorted(per_half[half].items())))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
