"""The seeded dev/held-out split of tests/realworld/scripts_r50 (seeded_split.py's rule with seed 550)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 550
split_halves = seeded(SEED)
