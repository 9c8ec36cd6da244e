"""The seeded dev/held-out split of tests/realworld/scripts_r21 (seeded_split.py's rule with seed 231)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 231
split_halves = seeded(SEED)
