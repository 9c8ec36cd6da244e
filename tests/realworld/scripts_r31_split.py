"""The seeded dev/held-out split of tests/realworld/scripts_r31 (seeded_split.py's rule with seed 341)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 341
split_halves = seeded(SEED)
