"""Text from a report or a paste is data: shown literally, never obeyed by the terminal or by Markdown.

A GPU name, an environment value or a path in a stranger's paste can hold ANSI/OSC escape sequences (clear the
screen, set the window title, plant a hyperlink), carriage returns that overwrite a line, bidirectional
overrides that reorder it, rich markup (``[/]`` crashes the renderer, ``[rev a1]`` silently vanishes) or
Markdown/HTML (``<details>``, ``[text](url)``, a stray ``|`` in a table). Reporters pass every such string
through this module:

- ``printable``: control and bidi characters become visible ``\\x1b`` / ``\\u202e`` escapes (newline and tab
  stay); ``printable_copy`` applies it to every string of a pydantic model before a renderer sees it.
- rich markup: reporters hand rich ``Text`` objects (never markup strings) and the console runs with
  ``markup=False`` (cli/output.py), so brackets print as they are.
- ``md_inline``: backslash-escapes the characters Markdown and GitHub's HTML would act on.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
#: What Markdown (GitHub's) would act on inside a line, backslash-escaped (str.translate: C speed on 20 MiB).
_MD_ESCAPES = {ord(char): "\\" + char for char in "\\`*[]<|~&"} | {ord("\n"): " ", ord("\r"): " "}
#: "_" only at a word's edge: intraword underscores (expandable_segments, sm_90) are never emphasis on GitHub,
#: and escaping them would hurt searching the text.
_MD_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
ModelT = TypeVar("ModelT", bound=BaseModel)


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_UNSAFE_CODES = [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F,
                 *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029]
_ESCAPES = {code: _escape(code) for code in _UNSAFE_CODES}


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on shown as an escape instead."""
    return text.translate(_ESCAPES) if _UNSAFE.search(text) else text


def _printable_value(value: Any) -> Any:
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {printable(k) if isinstance(k, str) else k: _printable_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_printable_value(item) for item in value]
    return value


def printable_copy(model: ModelT) -> ModelT:
    """A copy of the model with every string passed through ``printable`` (unchanged when none needs it)."""
    dumped = model.model_dump(mode="json")
    cleaned = _printable_value(dumped)
    if cleaned == dumped:
        return model
    return type(model).model_validate(cleaned)


#: Redaction's placeholders (<user>, <host-1>, <uuid-2>) are ours and stay as they are: no HTML element has
#: such a name, and reports and their tests read them verbatim.
_PLACEHOLDER = re.compile(r"\\<((?:user|redacted|credentials|token|[a-z]+-\d+))>")


def md_inline(text: str) -> str:
    """``text`` for one line of Markdown: printable, newlines as spaces, Markdown and HTML characters escaped."""
    escaped = printable(text).translate(_MD_ESCAPES)
    if "_" in escaped:
        escaped = _MD_UNDERSCORE.sub(r"\\_", escaped)
    return _PLACEHOLDER.sub(r"<\1>", escaped) if "\\<" in escaped else escaped


def md_code(text: str) -> str:
    """``text`` as an inline code span, whatever backticks it holds (the fence is longer than any run)."""
    text = printable(text).replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_block(text: str) -> str:
    """Text for a fenced ``` block: printable, and no line can close the fence."""
    return "\n".join(line.replace("```", "`\u200b``") for line in printable(text).split("\n"))
