"""The seeded dev/held-out split the lint corpora five to eleven share: the third corpus's rule
(scripts_r3_split.split_with: shuffle with the seed, place the items carrying the rarest check ids first in the half that
keeps per-check counts, clean counts and half sizes closest, then swap pairs while that lowers the imbalance), each
corpus with its own seed, in one wave (each was split once, when complete, before anyone scored it). Recomputable from
the corpus's labels.json alone; test_realworld_seeded_corpora.py checks that each labels.json follows it.
"""

from __future__ import annotations

from tests.realworld.scripts_r3_split import split_with

# Last item number of each wave (inclusive): one wave per corpus. Items added later would go in a new wave, so that
# nothing already placed moves. (999 until the tenth corpus, which numbers its items from 1001: every earlier item is
# below 999 either way, so widening the one wave moved none of them. Widened again for the forty-sixth corpus, which
# numbers its items from 10001: every earlier item is at most 9819.)
WAVE_ENDS = (99999,)


def seeded(seed: int):
    def split_halves(items: dict[str, dict]) -> dict[str, str]:
        """items: {'NNN_slug.py': {'findings': [{'id': ...}, ...], 'clean': bool}} -> {'NNN_slug.py': 'dev'|'heldout'}."""
        return split_with(items, seed, WAVE_ENDS)
    return split_halves
