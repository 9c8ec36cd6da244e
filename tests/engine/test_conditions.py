from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from advisor.engine.conditions import Compare, Condition, iter_paths
from advisor.engine.evaluate import _evaluate, _Reader
from advisor.models.common import missing

CONDITION = TypeAdapter(Condition)


class DictView:
    def __init__(self, values):
        self.values = values

    def resolve(self, path):
        return self.values.get(path, missing(f"{path} absent"))


def decide(condition: dict, **values):
    reader = _Reader(DictView({k.replace("__", "."): v for k, v in values.items()}))
    return _evaluate(CONDITION.validate_python(condition), reader)


@pytest.mark.parametrize("condition, value, expected", [
    ({"fact": "a.b", "eq": None}, None, True),
    ({"fact": "a.b", "eq": None}, "12.1", False),
    ({"fact": "a.b", "gt": 3}, 4, True),
    ({"fact": "a.b", "le": 3}, 4, False),
    ({"fact": "a.b", "in": ["x", "y"]}, "y", True),
    ({"fact": "a.b", "not_in": ["x", "y"]}, "y", False),
    ({"fact": "a.b", "contains": "sm_90"}, ["sm_80", "sm_90"], True),
    ({"fact": "a.b", "contains_any": ["hw_slowdown", "sw_thermal_slowdown"]}, ["gpu_idle"], False),
    ({"fact": "a.b", "matches": "^NVIDIA H1"}, "NVIDIA H100 80GB HBM3", True),
    ({"fact": "a.b", "version_lt": "580.65.06"}, "580.9.1", True),  # numeric, not string, ordering
    ({"fact": "a.b", "version_ge": "525"}, "525.60.13", True),
    ({"fact": "a.b", "version_gt": "12.8"}, "12.10", True),
    ({"fact": "a.b", "gt": 3}, None, False),  # a known "none" is never larger
])
def test_comparisons(condition, value, expected):
    assert decide(condition, a__b=value).value is expected


def test_missing_fact_makes_the_comparison_unknown_with_its_reason():
    outcome = decide({"fact": "a.b", "gt": 1})
    assert outcome.value is None
    assert outcome.missing == {"a.b": "a.b absent"}


def test_three_valued_all_any_not():
    unknown = {"fact": "x.missing", "eq": 1}
    true = {"fact": "a.b", "eq": 1}
    false = {"fact": "a.b", "eq": 2}
    assert decide({"all": [false, unknown]}, a__b=1).value is False  # False decides "all"
    assert decide({"all": [true, unknown]}, a__b=1).value is None
    assert decide({"any": [true, unknown]}, a__b=1).value is True  # True decides "any"
    assert decide({"any": [false, unknown]}, a__b=1).value is None
    assert decide({"not": unknown}, a__b=1).value is None
    assert decide({"not": false}, a__b=1).value is True


def test_exists_is_never_unknown():
    assert decide({"exists": "a.b"}).value is False
    assert decide({"exists": "a.b"}, a__b=None).value is True


def test_fact_operand_with_scale():
    condition = {"fact": "a.b", "gt": {"fact": "c.d", "times": 4}}
    assert decide(condition, a__b=500, c__d=100).value is True
    assert decide(condition, a__b=300, c__d=100).value is False
    assert decide(condition, a__b=300).value is None


def test_type_mismatch_is_unknown_not_a_crash():
    outcome = decide({"fact": "a.b", "gt": 3}, a__b="many")
    assert outcome.value is None and "cannot apply gt" in outcome.missing["a.b"]


@pytest.mark.parametrize("condition, message", [
    ({"fact": "a.b", "bigger": 3}, "unknown operator 'bigger'"),
    ({"fact": "a.b", "gt": 3, "lt": 5}, "exactly one operator"),
    ({"fact": "a.b", "version_lt": 12.1}, "quoted version"),
    ({"fact": "a.b", "in": "x"}, "needs a list"),
    ({"fact": "a.b", "matches": "("}, "bad regular expression"),
    ({"fact": "a b", "eq": 1}, "dotted fact path"),
    ({"every": []}, "one of all / any / not / exists"),
    ({"all": []}, "at least 1"),
])
def test_malformed_conditions_are_rejected(condition, message):
    with pytest.raises(ValidationError, match=message):
        CONDITION.validate_python(condition)


def test_iter_paths_lists_every_read():
    condition = CONDITION.validate_python(
        {"all": [{"fact": "a.b", "gt": {"fact": "c.d"}}, {"not": {"exists": "e.f"}}]})
    assert iter_paths(condition) == ["a.b", "c.d", "e.f"]
    assert isinstance(condition.all[0], Compare)


@pytest.mark.parametrize("value, expected", [
    (3, True), ("", True), ([], True), (False, True),  # a value, however empty or false
    (None, False),  # known to be none
    (missing("not in this paste"), None),  # not obtained: unknown, the rule is skipped with the reason
])
def test_known_is_three_valued(value, expected):
    outcome = decide({"known": "a.b"}, a__b=value)
    assert outcome.value is expected
    if expected is None:
        assert outcome.missing == {"a.b": "not in this paste"}


@pytest.mark.parametrize("condition, value, expected", [
    ({"fact": "a.b", "eq": "never"}, "never", True),
    ({"fact": "a.b", "eq": "never"}, 142, False),
    ({"fact": "a.b", "gt": 256}, "never", True),  # never won: beyond every size tried
    ({"fact": "a.b", "lt": 1_000_000}, "never", False),
    ({"fact": "a.b", "eq": None}, "never", False),  # "never" is a value, not the absence of one
])
def test_never_is_a_value_that_orders_above_every_number(condition, value, expected):
    assert decide(condition, a__b=value).value is expected


def test_known_reads_its_path():
    assert iter_paths(CONDITION.validate_python({"all": [{"known": "a.b"}, {"fact": "c.d", "gt": 1}]})) == ["a.b", "c.d"]
