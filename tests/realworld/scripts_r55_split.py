"""The seeded dev/held-out split of tests/realworld/scripts_r55 (seeded_split.py's rule with seed 605)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 605
split_halves = seeded(SEED)
