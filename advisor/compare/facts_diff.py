"""Facts that differ between two reports, found by walking both Facts models field by field.

The walk is generic, so a fact added to the model is compared without a change here. Three outcomes are
kept apart because they mean different things to a reader:

- a difference: both sides recorded the fact, with different values;
- one-sided: one side could not record it (Unavailable, or a source that does not list it), which says
  nothing about whether the machines differ;
- not compared: a redaction placeholder on one side against plain text on the other.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from pydantic import BaseModel

from advisor.compare.ignored import IGNORED_FACTS, is_ignored
from advisor.compare.values import has_placeholder, item_label, normalize, same, summarize
from advisor.models.common import Unavailable
from advisor.models.comparison import FactDifference, FactNotCompared, FactOnOneSide, FactsComparison
from advisor.models.facts import EnvFacts, Facts


def diff_facts(a: Facts, b: Facts) -> FactsComparison:
    out = FactsComparison(ignored=dict(IGNORED_FACTS))
    _walk(a, b, "", out)
    return out


def _walk(a: BaseModel, b: BaseModel, prefix: str, out: FactsComparison) -> None:
    for name in type(a).model_fields:
        _compare(getattr(a, name), getattr(b, name), f"{prefix}{name}", out)


def _compare(a: Any, b: Any, path: str, out: FactsComparison) -> None:
    if is_ignored(path):
        return
    if isinstance(a, Unavailable) or isinstance(b, Unavailable):
        if not (isinstance(a, Unavailable) and isinstance(b, Unavailable)):
            _one_sided(a, b, path, out)
        return
    if isinstance(a, EnvFacts) and isinstance(b, EnvFacts):
        _compare_env(a, b, out)
    elif isinstance(a, BaseModel) and isinstance(b, BaseModel):
        _walk(a, b, f"{path}.", out)
    elif _is_model_list(a) and _is_model_list(b) and (a or b):
        _compare_items(a, b, path, out)
    elif isinstance(a, dict) and isinstance(b, dict):
        _compare_dict(a, b, path, out)
    elif isinstance(a, list) and isinstance(b, list):
        _compare_lists(a, b, path, out)
    else:
        _compare_values(a, b, path, out)


def _is_model_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, BaseModel) for item in value)


def _one_sided(a: Any, b: Any, path: str, out: FactsComparison) -> None:
    side = "b" if isinstance(a, Unavailable) else "a"
    present, absent = (b, a) if side == "b" else (a, b)
    out.one_sided.append(FactOnOneSide(path=path, side=side, value=summarize(present),
                                       missing_reason=absent.unavailable))


def _compare_values(a: Any, b: Any, path: str, out: FactsComparison) -> None:
    if same(a, b, exact=True):
        return
    redacted_a, redacted_b = has_placeholder(a), has_placeholder(b)
    if redacted_a != redacted_b:
        reason = f"redacted in {'A' if redacted_a else 'B'} only (compare two redacted or two unredacted reports)"
    elif redacted_a and same(a, b):
        # <ip-1> against <ip-2>: placeholders are numbered per redaction, so nothing can be told either way.
        reason = "redacted on both sides: the values cannot be told apart or matched"
    else:
        out.differences.append(FactDifference(path=path, a=a, b=b))
        return
    out.not_compared.append(FactNotCompared(path=path, reason=reason))


def _compare_lists(a: list, b: list, path: str, out: FactsComparison) -> None:
    # Flags and arch lists are sets: the order the probe happened to list them in is not a difference.
    norm_a, norm_b = normalize(a), normalize(b)
    if sorted(map(str, norm_a)) == sorted(map(str, norm_b)):
        return
    added = [str(item) for item, key in zip(b, norm_b, strict=True) if key not in norm_a]
    removed = [str(item) for item, key in zip(a, norm_a, strict=True) if key not in norm_b]
    out.differences.append(FactDifference(path=path, a=a, b=b, added=added, removed=removed))


def _compare_dict(a: dict, b: dict, path: str, out: FactsComparison) -> None:
    for key in sorted(set(a) | set(b)):
        item_path = f"{path}.{key}"
        if key in a and key in b:
            _compare(a[key], b[key], item_path, out)
        elif not is_ignored(item_path):
            # A source lists what it lists (collect_env greps pip for a few names): absence is not "not installed".
            side = "a" if key in a else "b"
            out.one_sided.append(FactOnOneSide(path=item_path, side=side, value=summarize(a.get(key, b.get(key))),
                                               missing_reason=f"not listed in {'B' if side == 'a' else 'A'}"))


def _compare_env(a: EnvFacts, b: EnvFacts, out: FactsComparison) -> None:
    for name in sorted(set(a.variables) | set(b.variables)):
        path = f"env.{name}"
        value_a, value_b = a.variables.get(name), b.variables.get(name)
        if value_a is not None and value_b is not None:
            _compare_values(value_a, value_b, path, out)
            continue
        side, absent_side, absent = ("a", "B", b) if value_a is not None else ("b", "A", a)
        if absent.complete:
            # That side read the whole allowlist, so the variable is known to be unset there: a real difference.
            out.differences.append(FactDifference(path=path, a=value_a, b=value_b, note=f"unset in {absent_side}"))
        else:
            reason = f"{absent_side}'s source does not record environment variables"
            out.one_sided.append(FactOnOneSide(path=path, side=side, value=value_a if side == "a" else value_b,
                                               missing_reason=reason))


def match_items(a: Sequence[BaseModel], b: Sequence[BaseModel]) -> list[tuple[Optional[BaseModel], Optional[BaseModel]]]:
    """Pairs of list items (GPUs, torch devices): by index when both sides have as many, else by name."""
    if len(a) == len(b):
        return list(zip(sorted(a, key=_index), sorted(b, key=_index), strict=True))
    pairs: list[tuple[Optional[BaseModel], Optional[BaseModel]]] = []
    unmatched = sorted(b, key=_index)
    for item in sorted(a, key=_index):
        partner = next((other for other in unmatched if same(item_label(other), item_label(item))), None)
        if partner is not None:
            unmatched.remove(partner)
        pairs.append((item, partner))
    pairs.extend((None, other) for other in unmatched)
    return pairs


def _index(item: BaseModel) -> int:
    index = getattr(item, "index", 0)
    return index if isinstance(index, int) else 0


def _compare_items(a: list, b: list, path: str, out: FactsComparison) -> None:
    for item_a, item_b in match_items(a, b):
        if item_a is not None and item_b is not None:
            index_a, index_b = _index(item_a), _index(item_b)
            label = f"{path}[{index_a}]" if index_a == index_b else f"{path}[A{index_a}:B{index_b}]"
            for name in type(item_a).model_fields:
                if name != "index":
                    _compare(getattr(item_a, name), getattr(item_b, name), f"{label}.{name}", out)
            continue
        # Both sides listed their items, and this one has no partner: the machines really differ here.
        item = item_a if item_a is not None else item_b
        only = "A" if item_a is not None else "B"
        out.differences.append(FactDifference(
            path=f"{path}[{_index(item)}]", a=item_label(item_a) if item_a else None,
            b=item_label(item_b) if item_b else None, note=f"only in {only}"))
