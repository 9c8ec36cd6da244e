"""The seeded dev/held-out split of tests/realworld/scripts_r5 (seeded_split.py's rule with seed 55)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 55
split_halves = seeded(SEED)
