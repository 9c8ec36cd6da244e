"""The seeded dev/held-out split of tests/realworld/scripts_r44 (seeded_split.py's rule with seed 484)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 484
split_halves = seeded(SEED)
