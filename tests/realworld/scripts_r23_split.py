"""The seeded dev/held-out split of tests/realworld/scripts_r23 (seeded_split.py's rule with seed 253)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 253
split_halves = seeded(SEED)
