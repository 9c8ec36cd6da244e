"""The dev/held-out split of tests/realworld/scripts_r66: by repository (repository_split.py's rule with seed 726)."""

from __future__ import annotations

from tests.realworld.repository_split import by_repository

SEED = 726
split_halves = by_repository(SEED)
