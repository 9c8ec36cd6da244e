"""Fact models whose every field says why it is missing from a pasted text, and filling one from another.

A pasted text holds a fraction of the facts. Each field it does not hold must say so in words a user can act
on ("not in collect_env output"), not the probe's generic default, so this builds models field by field.
"""

from __future__ import annotations

import typing
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import BaseModel

from advisor.models.common import Unavailable, is_missing, missing

M = TypeVar("M", bound=BaseModel)


def _is_fact(annotation: Any) -> bool:
    return Unavailable in typing.get_args(annotation)


def _nested_model(annotation: Any) -> type[BaseModel] | None:
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


@lru_cache(maxsize=None)
def _field_kinds(model: type[BaseModel]) -> tuple[tuple[str, bool, type[BaseModel] | None], ...]:
    """(name, is a Fact, nested model) per field: worked out once per model, not once per GPU of a paste."""
    return tuple((name, _is_fact(info.annotation), _nested_model(info.annotation))
                 for name, info in model.model_fields.items())


def unavailable_model(model: type[M], reason: str, **values: Any) -> M:
    """``model`` with ``values`` set and every other Fact field (nested models too) Unavailable(reason)."""
    fields: dict[str, Any] = {}
    absent = missing(reason)  # one value shared by every field: Unavailable is never changed in place
    for name, is_fact, nested in _field_kinds(model):
        if name in values:
            fields[name] = values[name]
        elif is_fact:
            fields[name] = absent
        elif nested is not None:
            fields[name] = unavailable_model(nested, reason)
    return model(**fields)


def fill_missing(target: M, source: M) -> M:
    """``target`` with each of its Unavailable fields taken from ``source`` where ``source`` has a value.

    Where both lack a value the target's reason stays: the target is the richer text for that part.
    """
    updates: dict[str, Any] = {}
    for name, info in type(target).model_fields.items():
        mine, theirs = getattr(target, name), getattr(source, name)
        if _is_fact(info.annotation):
            if is_missing(mine) and not is_missing(theirs):
                updates[name] = theirs
        elif isinstance(mine, BaseModel) and isinstance(theirs, BaseModel):
            updates[name] = fill_missing(mine, theirs)
    return target.model_copy(update=updates)
