"""The seeded dev/held-out split of tests/realworld/scripts_r41 (seeded_split.py's rule with seed 451)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 451
split_halves = seeded(SEED)
