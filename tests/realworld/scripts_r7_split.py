"""The seeded dev/held-out split of tests/realworld/scripts_r7 (seeded_split.py's rule with seed 77)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 77
split_halves = seeded(SEED)
