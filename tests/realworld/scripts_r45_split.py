"""The seeded dev/held-out split of tests/realworld/scripts_r45 (seeded_split.py's rule with seed 495)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 495
split_halves = seeded(SEED)
