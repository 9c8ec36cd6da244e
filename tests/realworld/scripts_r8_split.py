"""The seeded dev/held-out split of the eighth real-world scripts corpus (tests/realworld/scripts_r8).

The third corpus's rule (scripts_r3_split.split_with: shuffle with the seed, place the items carrying the rarest
check ids first in the half that keeps per-check counts, clean counts and half sizes closest, then swap pairs while
that lowers the imbalance) with this corpus's own seed. Recomputable from scripts_r8/labels.json alone;
`test_realworld_scripts_r8_corpus.py` checks that labels.json follows it.
"""

from __future__ import annotations

from tests.realworld.scripts_r3_split import split_with

SEED = 88

# Last item number of each wave (inclusive). Both gatherers' parts (801-830 and 851-884) are one wave, split once
# by the lead at the commit that merged them, before anyone ran the linter or the scorer on either half.
WAVE_ENDS = (999,)


def split_halves(items: dict[str, dict]) -> dict[str, str]:
    """items: {'NNN_slug.py': {'findings': [{'id': ...}, ...], 'clean': bool}} -> {'NNN_slug.py': 'dev'|'heldout'}."""
    return split_with(items, SEED, WAVE_ENDS)
