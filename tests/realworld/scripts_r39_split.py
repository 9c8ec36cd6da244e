"""The seeded dev/held-out split of tests/realworld/scripts_r39 (seeded_split.py's rule with seed 429)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 429
split_halves = seeded(SEED)
