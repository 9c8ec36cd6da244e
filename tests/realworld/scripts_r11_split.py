"""The seeded dev/held-out split of tests/realworld/scripts_r11 (seeded_split.py's rule with seed 121)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 121
split_halves = seeded(SEED)
