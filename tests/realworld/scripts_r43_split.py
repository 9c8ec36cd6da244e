"""The seeded dev/held-out split of tests/realworld/scripts_r43 (seeded_split.py's rule with seed 473)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 473
split_halves = seeded(SEED)
