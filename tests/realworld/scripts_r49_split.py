"""The seeded dev/held-out split of tests/realworld/scripts_r49 (seeded_split.py's rule with seed 539)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 539
split_halves = seeded(SEED)
