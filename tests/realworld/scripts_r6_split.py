"""The seeded dev/held-out split of tests/realworld/scripts_r6 (seeded_split.py's rule with seed 66)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 66
split_halves = seeded(SEED)
