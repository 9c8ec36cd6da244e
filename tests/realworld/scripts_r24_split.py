"""The seeded dev/held-out split of tests/realworld/scripts_r24 (seeded_split.py's rule with seed 264)."""

from __future__ import annotations

from tests.realworld.seeded_split import seeded

SEED = 264
split_halves = seeded(SEED)
