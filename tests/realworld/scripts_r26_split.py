"""The seeded dev/held-out split of tests/realworld/scripts_r26 (seeded_split.py's rule with seed 286)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 286
split_halves = seeded(SEED)
