"""The seeded dev/held-out split of tests/realworld/scripts_r28 (seeded_split.py's rule with seed 308)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 308
split_halves = seeded(SEED)
