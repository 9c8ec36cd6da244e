"""The seeded dev/held-out split of tests/realworld/scripts_r18 (seeded_split.py's rule with seed 198)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 198
split_halves = seeded(SEED)
