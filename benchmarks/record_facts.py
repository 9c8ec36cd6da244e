"""Record this machine's facts as a fixture: ``python benchmarks/record_facts.py tests/fixtures/facts/h100.json``.

Fixtures are real recordings, never edited by hand: rerun this script on the machine to refresh one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from advisor.probe import collect_facts  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("output", type=Path, help="where to write the Facts JSON")
    parser.add_argument("--no-torch", action="store_true", help="skip the torch section (as collect_facts(with_torch=False))")
    args = parser.parse_args()
    facts = collect_facts(with_torch=not args.no_torch)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(facts.model_dump_json(indent=2) + "\n")
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
