"""The seeded dev/held-out split of tests/realworld/scripts_r47 (seeded_split.py's rule with seed 517)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 517
split_halves = seeded(SEED)
