"""Merge the parts of a new lint corpus, gathered in helper worktrees, into tests/realworld/scripts_rN.

Usage (from the repository root; the corpus's `about` text on standard input):
    python -m tests.realworld.merge_parts 60 /work/wt/corpus60a /work/wt/corpus60b ... [--drop 14656 ...] < about.txt

Each worktree holds `tests/realworld/scripts_rN/labels_X.json` (keys `pool/NNNNN_slug.py`), the scripts under
`scripts_rN/pool/` (never committed) and its part note `README_scripts_rN_X.md`. The merge drops a file whose source
an earlier part or an earlier corpus already has (same repository file or search-index id) or that does not parse,
or that the lead names with --drop (a near-duplicate a gatherer flags), splits the rest once by repository (repository_split.py, seed N x 11) and writes `scripts_rN/{dev,heldout}/`,
`scripts_rN/labels.json` and the part notes. It prints what it dropped and the halves' counts; it never runs lint.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import sys
from collections import Counter
from pathlib import Path

from tests.realworld.corpus_checks import source_origin
from tests.realworld.repository_split import by_repository

HERE = Path(__file__).resolve().parent


def _earlier_sources(number: int) -> tuple[set[str], set[str]]:
    origins, ids = set(), set()
    for labels in sorted(HERE.glob("scripts*/labels*.json")):
        if labels.parent.name == f"scripts_r{number}":
            continue
        for item in json.loads(labels.read_text())["items"].values():
            if "source" not in item:  # a second labelling's item names its file by key only
                continue
            origins.add(source_origin(item["source"]))
            ids.update(re.findall(r"file id (\d+)", item["source"]))
    return origins, ids


def merge(number: int, worktrees: list[Path], about: str, drop: set[str] = frozenset()) -> dict[str, dict]:
    corpus = HERE / f"scripts_r{number}"
    origins, ids = _earlier_sources(number)
    merged: dict[str, tuple[dict, Path]] = {}
    for tree in worktrees:
        part_dir = tree / "tests" / "realworld" / f"scripts_r{number}"
        for labels in sorted(part_dir.glob("labels_*.json")):
            for key, item in json.loads(labels.read_text())["items"].items():
                name, path = key.split("/", 1)[1], part_dir / key
                if name.split("_", 1)[0] in drop:
                    print(f"dropped {tree.name}/{name}: named by --drop")
                    continue
                origin, item_ids = source_origin(item["source"]), set(re.findall(r"file id (\d+)", item["source"]))
                if origin in origins or item_ids & ids:
                    print(f"dropped {tree.name}/{name}: source already used ({origin})")
                    continue
                try:
                    ast.parse(path.read_bytes())
                except (OSError, SyntaxError, ValueError) as error:
                    print(f"dropped {tree.name}/{name}: {error}")
                    continue
                if name in merged:
                    sys.exit(f"{name} is in two parts")
                origins.add(origin)
                ids |= item_ids
                merged[name] = (item, path)
        for note in sorted((tree / "tests" / "realworld").glob(f"README_scripts_r{number}_*.md")):
            shutil.copyfile(note, HERE / note.name)
    halves = by_repository(number * 11)({name: item for name, (item, _) in merged.items()})
    items = {}
    for name in sorted(merged, key=lambda n: (halves[n], n)):
        item, path = merged[name]
        target = corpus / halves[name] / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        items[f"{halves[name]}/{name}"] = item
    (corpus / "labels.json").write_text(json.dumps({"about": about, "items": items}, indent=1, ensure_ascii=False) + "\n")
    return items


def main() -> None:
    args = sys.argv[1:]
    dropped = args.index("--drop") if "--drop" in args else len(args)
    number, worktrees, drop = int(args[0]), [Path(p) for p in args[1:dropped]], set(args[dropped + 1:])
    items = merge(number, worktrees, sys.stdin.read().strip(), drop)
    for half in ("dev", "heldout"):
        mine = [v for k, v in items.items() if k.startswith(half + "/")]
        per_check = Counter(f["id"] for v in mine for f in v["findings"])
        print(f"{half}: {len(mine)} scripts, {sum(v['clean'] for v in mine)} clean, "
              f"{sum(per_check.values())} findings {dict(sorted(per_check.items()))}")


if __name__ == "__main__":
    main()
