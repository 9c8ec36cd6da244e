"""The seeded dev/held-out split of tests/realworld/scripts_r46 (seeded_split.py's rule with seed 506)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 506
split_halves = seeded(SEED)
