"""The seeded dev/held-out split of tests/realworld/scripts_r34 (seeded_split.py's rule with seed 374)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 374
split_halves = seeded(SEED)
