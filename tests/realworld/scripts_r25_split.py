"""The seeded dev/held-out split of tests/realworld/scripts_r25 (seeded_split.py's rule with seed 275)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 275
split_halves = seeded(SEED)
