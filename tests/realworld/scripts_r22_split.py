"""The seeded dev/held-out split of tests/realworld/scripts_r22 (seeded_split.py's rule with seed 242)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 242
split_halves = seeded(SEED)
