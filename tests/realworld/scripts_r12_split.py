"""The seeded dev/held-out split of tests/realworld/scripts_r12 (seeded_split.py's rule with seed 132)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 132
split_halves = seeded(SEED)
