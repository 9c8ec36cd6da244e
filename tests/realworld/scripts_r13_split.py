"""The seeded dev/held-out split of tests/realworld/scripts_r13 (seeded_split.py's rule with seed 143)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 143
split_halves = seeded(SEED)
