"""The seeded dev/held-out split of tests/realworld/scripts_r35 (seeded_split.py's rule with seed 385)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 385
split_halves = seeded(SEED)
