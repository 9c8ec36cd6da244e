"""The seeded dev/held-out split of the fifth real-world scripts corpus (tests/realworld/scripts_r5).

The third corpus's rule (scripts_r3_split: shuffle with the seed, place the items carrying the rarest check
ids first in the half that keeps per-check counts, clean counts and half sizes closest, then swap pairs while
that lowers the imbalance) with this corpus's own seed. Recomputable from scripts_r5/labels.json alone.
`test_realworld_scripts_r5_corpus.py` checks that labels.json follows it.
"""

from __future__ import annotations

from tests.realworld.scripts_r3_split import split_with

SEED = 55

# Last item number of each wave (inclusive). The whole corpus (501-) is one wave: it was split once, at the
# commit that completed it, before anyone scored either half. Items added later go in a new wave (a new end
# here), so that nothing already placed moves.
WAVE_ENDS = (999,)


def split_halves(items: dict[str, dict]) -> dict[str, str]:
    """items: {'NNN_slug.py': {'findings': [{'id': ...}, ...], 'clean': bool}} -> {'NNN_slug.py': 'dev'|'heldout'}."""
    return split_with(items, SEED, WAVE_ENDS)
