"""The seeded dev/held-out split of tests/realworld/scripts_r59 (seeded_split.py's rule with seed 649)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 649
split_halves = seeded(SEED)
