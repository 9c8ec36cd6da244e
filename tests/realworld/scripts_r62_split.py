"""The dev/held-out split of tests/realworld/scripts_r62: by repository (repository_split.py's rule with seed 682)."""

from __future__ import annotations

from tests.realworld.repository_split import by_repository

SEED = 682
split_halves = by_repository(SEED)
