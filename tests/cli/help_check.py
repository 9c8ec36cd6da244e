"""What "reads like a Unix tool's --help" means, as checks shared by the help test and the first-ten-minutes
script: no Python types, no truncation, no word broken at the edge, no option named that the command lacks."""

from __future__ import annotations

import re

#: The commands and subcommands, as argv prefixes.
COMMANDS = [[], ["env"], ["diagnose"], ["crossover"], ["memory"], ["batch-size"], ["explain"], ["compare"],
            ["lint"], ["schema"], ["rules"], ["rules", "list"], ["rules", "show"], ["rules", "validate"]]
_PYTHON_TYPE = re.compile(r"<(?:list\[|bool|str|int|float|path|Path|float range|int range)[^>]*>|\{[A-Z_]+\}")


def help_problems(text: str, width: int) -> list[str]:
    """Why this --help output does not read like a Unix tool's (empty when it does)."""
    problems = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if len(line) > width:
            problems.append(f"line {number + 1} is {len(line)} columns wide: {line!r}")
        if _PYTHON_TYPE.search(line):
            problems.append(f"a Python type as metavar: {line.strip()!r}")
        if line.rstrip().endswith(("…", "...")) and not line.rstrip().endswith(("PATH...", "[ARGS]...")):
            problems.append(f"truncated: {line.strip()!r}")
        following = lines[number + 1].strip() if number + 1 < len(lines) else ""
        if re.search(r"[A-Za-z]-$", line) and following[:1].isalpha():
            problems.append(f"a word broken at the line's end: {line.strip()!r} / {following!r}")
    options = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", text.split("Options:")[-1].split("Commands:")[0]))
    declared = {word for line in lines for word in re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)", line)}
    for option in sorted(options - declared):
        problems.append(f"help mentions {option}, which this command does not have")
    return problems
