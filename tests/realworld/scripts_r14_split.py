"""The seeded dev/held-out split of tests/realworld/scripts_r14 (seeded_split.py's rule with seed 154)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 154
split_halves = seeded(SEED)
