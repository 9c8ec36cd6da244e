"""The dev/held-out split of tests/realworld/scripts_r68: by repository (repository_split.py's rule with seed 748)."""

from __future__ import annotations

from tests.realworld.repository_split import by_repository

SEED = 748
split_halves = by_repository(SEED)
