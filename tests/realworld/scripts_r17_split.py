"""The seeded dev/held-out split of tests/realworld/scripts_r17 (seeded_split.py's rule with seed 187)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 187
split_halves = seeded(SEED)
