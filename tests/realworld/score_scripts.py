"""Score `gpu-advisor lint` against the labelled real-world scripts corpus.

Usage (from the repository root):
    python tests/realworld/score_scripts.py --half dev       # the development half
    python tests/realworld/score_scripts.py --half heldout   # only for the closing measurement
    python tests/realworld/score_scripts.py --half all
    python tests/realworld/score_scripts.py --corpus scripts_r2 --half dev   # the second corpus

--corpus picks the folder under tests/realworld: `scripts` (the first corpus, the default), `scripts_r2`,
`scripts_r3` (the third) or `scripts_r4` (the fourth: held-out only, score it with `--half heldout`).

A reported finding is a true positive when the same (file, check id, line) is labelled. GA000 (the file
does not parse) is ignored for files labelled `"parses": false`; anywhere else it counts like any other
unlabelled finding. Prints recall = TP/labelled and precision = TP/reported overall and per check id, and
lists every miss and false positive. Always exits 0: this measures, it does not gate.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = ("scripts", "scripts_r2", "scripts_r3", "scripts_r4", "scripts_r5", "scripts_r6", "scripts_r7", "scripts_r8", "scripts_r9",
           "scripts_r10", "scripts_r11", "scripts_r12", "scripts_r13", "scripts_r14", "scripts_r15", "scripts_r16", "scripts_r17", "scripts_r18", "scripts_r19", "scripts_r20", "scripts_r21", "scripts_r22", "scripts_r23", "scripts_r24", "scripts_r25", "scripts_r26", "scripts_r27", "scripts_r28", "scripts_r29", "scripts_r30", "scripts_r31", "scripts_r32", "scripts_r33", "scripts_r34", "scripts_r35", "scripts_r36", "scripts_r37", "scripts_r38", "scripts_r39", "scripts_r40", "scripts_r41", "scripts_r42", "scripts_r43", "scripts_r44", "scripts_r45", "scripts_r46", "scripts_r47", "scripts_r48", "scripts_r49", "scripts_r50", "scripts_r51", "scripts_r52", "scripts_r53", "scripts_r54", "scripts_r55", "scripts_r56", "scripts_r57", "scripts_r58", "scripts_r59", "scripts_r60", "scripts_r61", "scripts_r62", "scripts_r63", "scripts_r64", "scripts_r65", "scripts_r66", "scripts_r67", "scripts_r68", "scripts_r69")
SCRIPTS = HERE / "scripts"  # the corpus being scored; main() rebinds it for --corpus
REPO = HERE.parent.parent


def load_labels() -> dict:
    return json.loads((SCRIPTS / "labels.json").read_text())["items"]


def run_lint(files: list[Path]) -> dict:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    cmd = [sys.executable, "-m", "advisor", "lint", *map(str, files), "--format", "json"]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(f"lint did not produce JSON (exit {proc.returncode}):\n{proc.stderr[-2000:]}\n")
        return {"findings": []}


def relkey(path: str) -> str:
    """labels.json key ('dev/001_x.py') for a path the linter reports."""
    p = Path(path)
    if not p.is_absolute():
        p = (REPO / p).resolve()
    return p.relative_to(SCRIPTS).as_posix()


def ratio(a: int, b: int) -> str:
    return f"{a}/{b} = {a / b:.1%}" if b else f"{a}/0 = n/a"


def score(half: str) -> None:
    labels = load_labels()
    keys = sorted(k for k in labels if half == "all" or k.startswith(half + "/"))
    expected = {(k, f["id"], f["line"]) for k in keys for f in labels[k]["findings"]}
    not_parsing = {k for k in keys if labels[k].get("parses") is False}
    output = run_lint([SCRIPTS / k for k in keys])
    reported, ignored = set(), 0
    for f in output.get("findings", []):
        key = relkey(f["path"])
        if key not in labels or key not in keys:
            continue
        if f["id"] == "GA000" and key in not_parsing:
            ignored += 1
            continue
        reported.add((key, f["id"], f["line"]))
    failures = [n for n in output.get("notes", []) if "internal error" in str(n)]
    if failures:  # a bug of ours costs that file's (or check's) findings: say so, or it reads as a score drop
        print(f"internal errors: {len(failures)} (e.g. {failures[0]})")
    tp = expected & reported
    misses = sorted(expected - reported)
    fps = sorted(reported - expected)
    print(f"corpus: {SCRIPTS.name}  half: {half}  files: {len(keys)}  labelled: {len(expected)}  reported: {len(reported)}")
    if ignored:
        print(f"ignored {ignored} GA000 finding(s) on files labelled as not parsing")
    print(f"recall    {ratio(len(tp), len(expected))}")
    print(f"precision {ratio(len(tp), len(reported))}")
    ids = sorted({i for _, i, _ in expected | reported})
    print("\nper check:  recall            precision")
    for cid in ids:
        e = sum(1 for x in expected if x[1] == cid)
        r = sum(1 for x in reported if x[1] == cid)
        t = sum(1 for x in tp if x[1] == cid)
        print(f"  {cid}   {ratio(t, e):<18}{ratio(t, r)}")
    why = {(k, f["id"], f["line"]): f["why"] for k in keys for f in labels[k]["findings"]}
    print(f"\nmisses ({len(misses)}):")
    for k, cid, line in misses:
        print(f"  {k}:{line} {cid}  ({why[(k, cid, line)]})")
    print(f"\nfalse positives ({len(fps)}):")
    for k, cid, line in fps:
        print(f"  {k}:{line} {cid}")
    clean = [k for k in keys if labels[k]["clean"]]
    noisy = sorted({k for k, _, _ in reported} & set(clean))
    print(f"\nclean files: {len(clean)}, with any finding reported: {len(noisy)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("dev", "heldout", "all"), default="dev")
    parser.add_argument("--corpus", choices=CORPORA, default="scripts")
    args = parser.parse_args(argv)
    global SCRIPTS
    SCRIPTS = HERE / args.corpus
    missing = [k for k in load_labels() if (args.half == "all" or k.startswith(args.half + "/"))
               and not (SCRIPTS / k).exists()]
    if missing:
        sys.stderr.write(f"score_scripts: {len(missing)} labelled script(s) of {args.corpus} are not on disk "
                         f"(e.g. {missing[0]}): they are kept out of the repository; put them back from "
                         "labels.json's sources first (tests/realworld/README.md)\n")
        return 2
    score(args.half)
    return 0


if __name__ == "__main__":
    sys.exit(main())
