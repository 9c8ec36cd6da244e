"""The seeded dev/held-out split of tests/realworld/scripts_r53 (seeded_split.py's rule with seed 583)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 583
split_halves = seeded(SEED)
