"""The seeded dev/held-out split of tests/realworld/scripts_r58 (seeded_split.py's rule with seed 638)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 638
split_halves = seeded(SEED)
