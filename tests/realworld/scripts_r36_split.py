"""The seeded dev/held-out split of tests/realworld/scripts_r36 (seeded_split.py's rule with seed 396)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 396
split_halves = seeded(SEED)
