"""The dev/held-out split of tests/realworld/scripts_r67: by repository (repository_split.py's rule with seed 737)."""

from __future__ import annotations

from tests.realworld.repository_split import by_repository

SEED = 737
split_halves = by_repository(SEED)
