"""The seeded dev/held-out split of tests/realworld/scripts_r29 (seeded_split.py's rule with seed 319)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 319
split_halves = seeded(SEED)
