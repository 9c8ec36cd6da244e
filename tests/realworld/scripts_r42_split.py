"""The seeded dev/held-out split of tests/realworld/scripts_r42 (seeded_split.py's rule with seed 462)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 462
split_halves = seeded(SEED)
