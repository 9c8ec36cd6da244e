"""Score `gpu-advisor explain` on the real-world collect_env corpus (a report, not a test: exit 0 always).

Usage (from the repository root):
    python tests/realworld/score_pastes.py --half dev        # or heldout, or all
    python tests/realworld/score_pastes.py --half dev --only 006_fedora

Each paste is run through `python -m advisor explain FILE --format json` (PYTHONPATH=repo root,
same interpreter as this script) and scored against tests/realworld/pastes/labels.json:
  - an item with `expected` ids is RIGHT when at least one expected id fires AND no other finding of
    severity "high" fires whose id is neither in `expected` nor in the item's optional `also_ok`;
  - a healthy item is RIGHT when no finding of severity medium or high fires (one that fires is a
    false alarm);
  - out_of_scope items are listed but not scored;
  - a non-zero exit of explain (e.g. "not a collect_env output") or unreadable JSON counts as WRONG.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LABELS = HERE / "pastes" / "labels.json"
ALARM = {"medium", "high"}


def run_explain(path: Path) -> tuple[list[dict] | None, str]:
    """Return (findings, error); findings is None when explain failed."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "advisor", "explain", str(path), "--format", "json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    if proc.returncode != 0:
        return None, f"exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1:] or ''}"
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        return None, f"unreadable JSON: {exc}"
    return list(report.get("findings") or []), ""


def verdict(label: dict, findings: list[dict] | None) -> str:
    """RIGHT, WRONG or SKIP (out of scope)."""
    if label.get("out_of_scope"):
        return "SKIP"
    if findings is None:
        return "WRONG"
    if label.get("healthy"):
        return "WRONG" if any(f.get("severity") in ALARM for f in findings) else "RIGHT"
    expected = set(label.get("expected") or [])
    allowed = expected | set(label.get("also_ok") or [])
    fired = {f.get("rule_id") for f in findings}
    stray_high = any(f.get("severity") == "high" and f.get("rule_id") not in allowed for f in findings)
    return "RIGHT" if fired & expected and not stray_high else "WRONG"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=["dev", "heldout", "all"], default="dev")
    parser.add_argument("--only", default="", help="score only items whose file name contains this")
    args = parser.parse_args(argv)

    items = json.loads(LABELS.read_text())["items"]
    halves = ["dev", "heldout"] if args.half == "all" else [args.half]
    for half in halves:
        right = scored = alarms = healthy = 0
        for key in sorted(k for k in items if k.startswith(half + "/")):
            if args.only and args.only not in key:
                continue
            label = items[key]
            findings, error = run_explain(HERE / "pastes" / key)
            result = verdict(label, findings)
            fired = ",".join(f"{f.get('rule_id')}:{f.get('severity')}" for f in findings or []) or "-"
            want = "healthy" if label.get("healthy") else (
                "out_of_scope" if label.get("out_of_scope") else ",".join(label.get("expected") or []))
            print(f"{result:5} {key}  fired=[{fired}]  expected=[{want}]" + (f"  ({error})" if error else ""))
            if result == "SKIP":
                continue
            scored += 1
            right += result == "RIGHT"
            if label.get("healthy"):
                healthy += 1
                alarms += result == "WRONG"
        pct = 100.0 * right / scored if scored else 0.0
        print(f"{half}: right {right}/{scored} ({pct:.0f}%), false alarms on healthy: {alarms}/{healthy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
