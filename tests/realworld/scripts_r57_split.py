"""The seeded dev/held-out split of tests/realworld/scripts_r57 (seeded_split.py's rule with seed 627)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 627
split_halves = seeded(SEED)
