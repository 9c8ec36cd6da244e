"""The seeded dev/held-out split of tests/realworld/scripts_r19 (seeded_split.py's rule with seed 209)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 209
split_halves = seeded(SEED)
