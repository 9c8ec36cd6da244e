"""Reading single printed values: the words tools print for "no value", booleans, numbers with units, versions."""

from __future__ import annotations

import math
import re
from typing import Optional

#: What nvidia-smi and collect_env print instead of a value. Compared case-insensitively, brackets stripped.
NO_VALUE_WORDS = frozenset({
    "n/a", "na", "none", "could not collect", "no cuda", "not supported", "unknown error", "unknown",
    "insufficient permissions", "requested functionality has been deprecated", "not found", "",
})

_VERSION = re.compile(r"\d+(?:\.\d+)+")



def is_no_value(text: Optional[str]) -> bool:
    return text is None or text.strip().strip("[]").strip().lower() in NO_VALUE_WORDS


def printed_as(text: str, tool: str) -> str:
    """The reason for a field the tool printed without a value, in the tool's own words."""
    return f"{tool} printed {text.strip() or 'nothing'!r}"


def parse_bool(text: Optional[str]) -> Optional[bool]:
    # collect_env printed Python bools ("True") since 1.8 and "Yes"/"No" before; nvidia-smi says Enabled/Yes.
    word = (text or "").strip().lower()
    if word in ("true", "yes", "enabled", "active", "on"):
        return True
    if word in ("false", "no", "disabled", "not active", "off"):
        return False
    return None


#: A printed count or measure with more digits than this is garbage, not a number (and 400 digits would
#: overflow a float or pass Python's int-conversion limit).
MAX_NUMBER_DIGITS = 18
_NUMBER = re.compile(r"-?\d{1,%d}(?:\.\d{1,%d})?" % (MAX_NUMBER_DIGITS, MAX_NUMBER_DIGITS))


def parse_number(text: Optional[str]) -> Optional[float]:
    """The first number in a value such as "21.30 W", "33 C", "16x"; None when there is none or it is absurd
    ("1.2.3 MiB" reads as 1.2 -- the first number -- and a 400-digit count as none)."""
    match = _NUMBER.search(text or "")
    if match is None:
        return None
    following = (text or "")[match.end():match.end() + 1]
    if following.isdecimal():
        return None  # the run of digits is longer than any real count
    number = float(match.group())
    return number if math.isfinite(number) else None


def parse_int(text: Optional[str]) -> Optional[int]:
    number = parse_number(text)
    return int(number) if number is not None and number == int(number) else None


def first_version(text: Optional[str]) -> Optional[str]:
    """The first dotted version in text: "(Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0" -> "11.4.0" (after the ")")."""
    if not text:
        return None
    tail = text.rsplit(")", 1)[-1] if text.lstrip().startswith("(") else text
    match = _VERSION.search(tail) or _VERSION.search(text)
    return match.group() if match else None

