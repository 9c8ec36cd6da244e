"""The seeded dev/held-out split of tests/realworld/scripts_r56 (seeded_split.py's rule with seed 616)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 616
split_halves = seeded(SEED)
