"""The seeded dev/held-out split of tests/realworld/scripts_r40 (seeded_split.py's rule with seed 440)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 440
split_halves = seeded(SEED)
