"""The seeded dev/held-out split of tests/realworld/scripts_r27 (seeded_split.py's rule with seed 297)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 297
split_halves = seeded(SEED)
