"""The seeded dev/held-out split of tests/realworld/scripts_r54 (seeded_split.py's rule with seed 594)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 594
split_halves = seeded(SEED)
