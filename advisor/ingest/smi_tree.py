"""nvidia-smi -q text as a tree: its nesting is carried by indentation alone.

"Key : value" lines are leaves; a line with no " : " ("    Clocks", "GPU 00000000:01:00.0") opens a section
whose children are the deeper-indented lines below it. Keys can repeat (one "Process ID" per process), so
children are kept as an ordered list, with lookups returning the first match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Optional


def split_entry(line: str) -> Optional[tuple[str, str]]:
    """(key, value) of a "Key : value" line, or None for a section header.

    The separator is the first colon followed by a blank or the line's end: keys hold none ("Bus Id"), values
    may ("00000000:01:00.0", "C:\\Program Files\\..."), and one over-long key runs into it ("...Specification:
    N/A"). Found with str.find, so a line is read once however many colons or blanks it holds.
    """
    text = line.strip()
    at = text.find(":")
    while at >= 0:
        if text[at + 1:at + 2] in ("", " ", "\t"):
            key = text[:at].rstrip()
            return (key, text[at + 1:].strip()) if key else None
        at = text.find(":", at + 1)
    return None


@dataclass
class Node:
    key: str
    value: Optional[str] = None
    children: list["Node"] = field(default_factory=list)

    def child(self, *path: str) -> Optional["Node"]:
        """The first descendant along ``path`` (keys compared case-insensitively, nvidia-smi varies "ECC"/"Ecc")."""
        node: Optional[Node] = self
        for key in path:
            if node is None:
                return None
            node = next((c for c in node.children if c.key.lower() == key.lower()), None)
        return node

    def get(self, *path: str) -> Optional[str]:
        node = self.child(*path)
        return node.value if node is not None else None

    def walk(self) -> Iterator["Node"]:
        """Every descendant, depth first; iterative, so a pathologically deep paste cannot exhaust the stack."""
        pending = list(reversed(self.children))
        while pending:
            node = pending.pop()
            yield node
            pending.extend(reversed(node.children))


def parse_tree(text: str) -> Node:
    root = Node("")
    stack: list[tuple[int, Node]] = [(-1, root)]
    for line in text.split("\n"):
        if not line.strip() or line.strip().startswith("="):
            continue
        indent = len(line) - len(line.lstrip(" "))
        entry = split_entry(line)
        if entry is not None and not _is_gpu_header(line):
            node = Node(*entry)
        else:
            node = Node(line.strip())  # a section header
        while stack[-1][0] >= indent:
            stack.pop()
        stack[-1][1].children.append(node)
        stack.append((indent, node))
    return root


def _is_gpu_header(line: str) -> bool:
    return re.match(r"^\s*GPU [0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]\s*$", line) is not None
