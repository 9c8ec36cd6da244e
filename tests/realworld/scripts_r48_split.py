"""The seeded dev/held-out split of tests/realworld/scripts_r48 (seeded_split.py's rule with seed 528)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 528
split_halves = seeded(SEED)
