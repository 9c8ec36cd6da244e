"""Undo what copying through a GitHub issue, an e-mail client or Windows does to pasted tool output.

Only wrappers are removed (fences, <details>/<summary> tags, CRLF, a byte-order mark, "> " quoting, trailing
blanks); leading indentation is kept, because nvidia-smi's nesting is read from it.
"""

from __future__ import annotations

import re

from advisor.ingest.collect_env_fields import unfold_lines

_FENCE = re.compile(r"^\s*(```|~~~)")
_HTML_WRAPPER = re.compile(r"^\s*</?(details|summary)\b[^>]*>.*$", re.IGNORECASE)
_SUMMARY_LINE = re.compile(r"^\s*<summary>.*</summary>\s*$", re.IGNORECASE)


def clean_paste(text: str) -> str:
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    lines = _unquote(lines)
    kept = [line for line in lines
            if not (_FENCE.match(line) or _SUMMARY_LINE.match(line) or _HTML_WRAPPER.match(line))]
    kept = unfold_lines(kept)  # a collect_env paste whose newlines were lost, one line per label again
    # Tabs would break the indentation nvidia-smi's nesting is read from; a pasted tab stands for 8 columns.
    return "\n".join(line.expandtabs(8).rstrip() for line in kept)


def _unquote(lines: list[str]) -> list[str]:
    # A reply that quotes the output prefixes every line with "> "; strip it only when (nearly) all non-blank
    # lines carry it, so a single "> " line in prose is left alone.
    content = [line for line in lines if line.strip()]
    quoted = [line for line in content if line.startswith(">")]
    if content and len(quoted) >= 0.9 * len(content):
        return [line[2:] if line.startswith("> ") else line[1:] if line.startswith(">") else line
                for line in lines]
    return lines
