"""Every rule's own examples: each `fires` example fires, each `passes` example definitely does not."""

from __future__ import annotations

import pytest

from advisor.engine.examples import example_failures
from advisor.engine.loader import load_rules

RULES = load_rules()


@pytest.mark.parametrize("loaded", RULES, ids=[r.rule.id for r in RULES])
def test_rule_examples(loaded):
    assert example_failures(loaded.rule) == []


def test_every_category_folder_has_rules():
    categories = {r.rule.category for r in RULES}
    assert {"compat", "health", "memory", "perf"} <= categories
