"""The seeded dev/held-out split of tests/realworld/scripts_r52 (seeded_split.py's rule with seed 572)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 572
split_halves = seeded(SEED)
