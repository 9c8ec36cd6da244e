"""The seeded dev/held-out split of tests/realworld/scripts_r15 (seeded_split.py's rule with seed 165)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 165
split_halves = seeded(SEED)
