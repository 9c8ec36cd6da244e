"""The seeded dev/held-out split of tests/realworld/scripts_r38 (seeded_split.py's rule with seed 418)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 418
split_halves = seeded(SEED)
