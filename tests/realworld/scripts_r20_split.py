"""The seeded dev/held-out split of tests/realworld/scripts_r20 (seeded_split.py's rule with seed 220)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 220
split_halves = seeded(SEED)
