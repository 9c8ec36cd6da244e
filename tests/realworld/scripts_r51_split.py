"""The seeded dev/held-out split of tests/realworld/scripts_r51 (seeded_split.py's rule with seed 561)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 561
split_halves = seeded(SEED)
