"""The seeded dev/held-out split of tests/realworld/scripts_r9 (seeded_split.py's rule with seed 99)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 99
split_halves = seeded(SEED)
