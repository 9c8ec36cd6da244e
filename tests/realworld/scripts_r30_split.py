"""The seeded dev/held-out split of tests/realworld/scripts_r30 (seeded_split.py's rule with seed 330)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 330
split_halves = seeded(SEED)
