"""The seeded dev/held-out split of tests/realworld/scripts_r10 (seeded_split.py's rule with seed 110)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 110
split_halves = seeded(SEED)
