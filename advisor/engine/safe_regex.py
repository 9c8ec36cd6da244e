"""Regular expressions from rule files (``matches:``), bounded: vetted at load time, run on a capped subject.

Python's ``re`` backtracks. A rule with ``(a+)+$``, ``(a|a)*b`` or ``\\1`` runs exponentially long on a
crafted fact value, and ``validate`` runs every rule's examples. Rules are data that anyone can send in a
``--rules-dir``, so a pattern must pass ``vet_pattern`` to load:

- at most ``MAX_PATTERN_CHARS`` characters;
- no backreference (matching with them is NP-hard);
- no repetition of something that itself repeats or alternates (``(a+)+``, ``(a|ab)*``): the exponential forms;
- at most ``MAX_REPEATS`` repetitions that can match more than one character in all (each adjacent pair of
  overlapping ``\\s*`` multiplies the work by the subject's length).

With those, the worst case is polynomial of low degree, and ``search_bounded`` keeps the subject at most
``MAX_SUBJECT_CHARS`` long (fact values are versions, names and short summaries), which bounds one search
to well under a second.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

try:  # Python 3.11+
    from re import _constants as _sre_constants  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_constants as _sre_constants  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

MAX_PATTERN_CHARS = 256
MAX_REPEATS = 2
MAX_SUBJECT_CHARS = 1000

_REPEATS = {_sre_constants.MAX_REPEAT, _sre_constants.MIN_REPEAT, getattr(_sre_constants, "POSSESSIVE_REPEAT", None)}
_BACKREFS = {_sre_constants.GROUPREF, _sre_constants.GROUPREF_EXISTS,
             getattr(_sre_constants, "GROUPREF_IGNORE", None), getattr(_sre_constants, "GROUPREF_LOC_IGNORE", None),
             getattr(_sre_constants, "GROUPREF_UNI_IGNORE", None)}


class UnsafePattern(ValueError):
    pass


def vet_pattern(pattern: str) -> re.Pattern[str]:
    """The compiled pattern, or UnsafePattern (a ValueError) saying why it could run unboundedly long."""
    if len(pattern) > MAX_PATTERN_CHARS:
        raise UnsafePattern(f"regular expression longer than {MAX_PATTERN_CHARS} characters")
    try:
        compiled = re.compile(pattern)
        parsed = _sre_parse.parse(pattern)
    except re.error as exc:
        raise UnsafePattern(f"bad regular expression {pattern!r}: {exc}") from None
    except RecursionError:
        raise UnsafePattern("regular expression nested too deeply") from None
    repeats = _check(parsed, inside_repeat=False)
    if repeats > MAX_REPEATS:
        raise UnsafePattern(f"regular expression {pattern!r} has {repeats} open-ended repetitions (at most "
                            f"{MAX_REPEATS}): it could backtrack for a very long time")
    return compiled


def _items(node: Any) -> list:
    return list(node.data) if hasattr(node, "data") else list(node)


def _check(node: Any, *, inside_repeat: bool) -> int:
    """Raise for the exponential forms; return the number of repetitions that can match more than once."""
    count = 0
    for op, argument in _items(node):
        if op in _BACKREFS:
            raise UnsafePattern("backreferences are not allowed in rule patterns")
        if op in _REPEATS:
            low, high, body = argument
            many = high is _sre_constants.MAXREPEAT or high > 1
            if many and inside_repeat:
                raise UnsafePattern("a repetition inside a repetition (like (a+)+) could backtrack exponentially")
            if many and _has_branch(body):
                raise UnsafePattern("a repeated alternation (like (a|ab)*) could backtrack exponentially")
            count += int(many) + _check(body, inside_repeat=inside_repeat or many)
        elif op is _sre_constants.SUBPATTERN:
            count += _check(argument[-1], inside_repeat=inside_repeat)
        elif op is _sre_constants.BRANCH:
            count += sum(_check(branch, inside_repeat=inside_repeat) for branch in argument[1])
        elif op in (_sre_constants.ASSERT, _sre_constants.ASSERT_NOT):
            count += _check(argument[1], inside_repeat=inside_repeat)
        elif op is getattr(_sre_constants, "ATOMIC_GROUP", None):
            count += _check(argument, inside_repeat=inside_repeat)
    return count


def _has_branch(node: Any) -> bool:
    for op, argument in _items(node):
        if op is _sre_constants.BRANCH:
            return True
        if op is _sre_constants.SUBPATTERN and _has_branch(argument[-1]):
            return True
    return False


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return vet_pattern(pattern)


def search_bounded(pattern: str, subject: str) -> bool:
    """``re.search`` of a vetted pattern over at most the first MAX_SUBJECT_CHARS characters of the subject."""
    return _compiled(pattern).search(subject[:MAX_SUBJECT_CHARS]) is not None
