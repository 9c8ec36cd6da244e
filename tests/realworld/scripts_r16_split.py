"""The seeded dev/held-out split of tests/realworld/scripts_r16 (seeded_split.py's rule with seed 176)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 176
split_halves = seeded(SEED)
