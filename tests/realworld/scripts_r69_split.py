"""The dev/held-out split of tests/realworld/scripts_r69: by repository (repository_split.py's rule with seed 759)."""

from __future__ import annotations

from tests.realworld.repository_split import by_repository

SEED = 759
split_halves = by_repository(SEED)
