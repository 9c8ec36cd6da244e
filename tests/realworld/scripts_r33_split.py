"""The seeded dev/held-out split of tests/realworld/scripts_r33 (seeded_split.py's rule with seed 363)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 363
split_halves = seeded(SEED)
