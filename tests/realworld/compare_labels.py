"""How far two independent labellings of the same scripts agree, and how the linter reads against each.

Usage (from the repository root):
    python tests/realworld/compare_labels.py --corpus scripts_r56 --half heldout --second labels_second.json

The lint scores (`score_scripts.py`) count a finding as right only when its (file, check id, line) is labelled by
the one person who labelled that file. How much of what is left is the linter's fault, and how much is two careful
people reading the same definitions differently? A second labeller, who saw neither the first labels nor the
linter's output, labels the same files; this prints, on the files both labelled:

- agreement: the second labelling scored as if it were a linter against the first (recall = how many first
  labels the second also set, precision = how many second labels the first also set), overall and per check;
- the linter against the first labels (the project's score), against the second, against the findings both set
  (recall on what two people agree on) and against the findings either set (precision: a report either labeller
  called a finding is not plainly a false alarm).

Only the first two rows of the lint part are the project's measure; the consensus rows say how much of the gap
is disagreement between readers. Always exits 0: this measures, it does not gate.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import score_scripts  # noqa: E402  (the scorer's lint run and path keys, not a copy of them)

Key = tuple[str, str, int]


def findings(items: dict, keys: list[str]) -> set[Key]:
    return {(k, f["id"], f["line"]) for k in keys for f in items[k]["findings"]}


def row(name: str, expected: set[Key], reported: set[Key]) -> str:
    hits = len(expected & reported)
    return (f"  {name:<48} recall {score_scripts.ratio(hits, len(expected)):<20} "
            f"precision {score_scripts.ratio(hits, len(reported))}")


def per_check(first: set[Key], second: set[Key]) -> list[str]:
    ids = sorted({i for _, i, _ in first | second})
    both = Counter(i for _, i, _ in first & second)
    a, b = Counter(i for _, i, _ in first), Counter(i for _, i, _ in second)
    return [f"    {cid}  first {a[cid]:>3}  second {b[cid]:>3}  both {both[cid]:>3}" for cid in ids]


def near_misses(first: set[Key], second: set[Key], reach: int) -> int:
    """Findings of the first labelling the second set on another line within ``reach`` lines (same file, same
    check): a disagreement on placement, not on whether the mistake is there."""
    only_first, only_second = first - second, second - first
    return sum(1 for k, cid, line in only_first
               if any(k2 == k and c2 == cid and 0 < abs(l2 - line) <= reach for k2, c2, l2 in only_second))


def echoes(first_items: dict, second_items: dict, keys: list[str], at_least: float = 0.8) -> tuple[int, int, float]:
    """(shared findings whose two ``why`` texts read alike, shared findings, the mean likeness of their texts): a
    second labelling that repeats the first one's words was not made independently, and its agreement measures
    nothing."""
    ratios = []
    for key in keys:
        first = {(f["id"], f["line"]): f.get("why", "") for f in first_items[key]["findings"]}
        for finding in second_items[key]["findings"]:
            why = first.get((finding["id"], finding["line"]))
            if why is not None:
                ratios.append(difflib.SequenceMatcher(None, why, finding.get("why", "")).ratio())
    return sum(r >= at_least for r in ratios), len(ratios), sum(ratios) / len(ratios) if ratios else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=score_scripts.CORPORA, required=True)
    parser.add_argument("--half", choices=("dev", "heldout", "all"), default="heldout")
    parser.add_argument("--second", default="labels_second.json", help="the second labelling, in the corpus folder")
    parser.add_argument("--no-lint", action="store_true", help="compare the two labellings only")
    args = parser.parse_args(argv)
    folder = HERE / args.corpus
    first_items = json.loads((folder / "labels.json").read_text())["items"]
    second_items = json.loads((folder / args.second).read_text())["items"]
    keys = sorted(k for k in first_items.keys() & second_items.keys()
                  if args.half == "all" or k.startswith(args.half + "/"))
    if not keys:
        sys.stderr.write(f"compare_labels: no file of {args.corpus} ({args.half}) is in both labellings\n")
        return 2
    first, second = findings(first_items, keys), findings(second_items, keys)
    clean_both = sum(1 for k in keys if first_items[k]["clean"] and second_items[k]["clean"])
    clean_either = sum(1 for k in keys if first_items[k]["clean"] or second_items[k]["clean"])
    print(f"corpus: {args.corpus}  half: {args.half}  files in both labellings: {len(keys)}")
    print(f"first labels: {len(first)}  second labels: {len(second)}  set by both: {len(first & second)}")
    print(f"clean by both: {clean_both}  clean by one only: {clean_either - clean_both}")
    print(f"placement only (same file and check, 1-3 lines apart): {near_misses(first, second, 3)}")
    alike, shared, mean = echoes(first_items, second_items, keys)
    print(f"shared findings whose reasons read alike (a sign of copying): {alike} of {shared}; "
          f"mean likeness of their reasons {mean:.2f}")
    print("\nagreement (the second labelling scored against the first):")
    print(row("second vs first", first, second))
    print("\n".join(per_check(first, second)))
    if args.no_lint:
        return 0
    score_scripts.SCRIPTS = folder
    output = score_scripts.run_lint([folder / k for k in keys])
    reported = {(score_scripts.relkey(f["path"]), f["id"], f["line"]) for f in output.get("findings", [])}
    reported = {r for r in reported if r[0] in keys and r[1] != "GA000"}
    print("\nthe linter:")
    print(row("against the first labels (the project's score)", first, reported))
    print(row("against the second labels", second, reported))
    both, either = first & second, first | second
    print(f"  recall on the findings both set              {score_scripts.ratio(len(both & reported), len(both))}")
    print(f"  precision against the findings either set    {score_scripts.ratio(len(either & reported), len(reported))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
