"""The seeded dev/held-out split of tests/realworld/scripts_r8 (seeded_split.py's rule with seed 88)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 88
split_halves = seeded(SEED)
