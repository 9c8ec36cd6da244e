"""The seeded dev/held-out split of tests/realworld/scripts_r32 (seeded_split.py's rule with seed 352)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 352
split_halves = seeded(SEED)
