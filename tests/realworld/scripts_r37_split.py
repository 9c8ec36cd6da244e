"""The seeded dev/held-out split of tests/realworld/scripts_r37 (seeded_split.py's rule with seed 407)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 407
split_halves = seeded(SEED)
