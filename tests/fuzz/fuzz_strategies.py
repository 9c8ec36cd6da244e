"""Hypothesis strategies for every input surface: hostile values, mutated reports and pastes, notebooks, rules,
command lines. Shared by the CI suite (tests/fuzz/test_fuzz_*.py) and the long run (--fuzz-long)."""

from __future__ import annotations

import json
from typing import Any

from fuzz_helpers import FIXTURES
from hypothesis import strategies as st

REPORTS = [json.loads(p.read_text()) for p in sorted((FIXTURES / "reports").glob("*.json"))]
PASTES = [p.read_text(errors="replace") for p in sorted((FIXTURES / "collect_env").glob("*.txt"))[:4]] + \
         [p.read_text(errors="replace") for p in sorted((FIXTURES / "nvidia_smi").glob("*.txt"))[:3]]

#: Strings the campaign found trouble with: escapes, markup, Markdown, format braces, odd numbers, secrets.
HOSTILE_STRINGS = [
    "", " ", "\x1b]0;PWNED\x07", "\x1b[2J\r", "[/]", "[link=http://x]y[/link]", "[rev a1]", "[bold]", ":smile:",
    "\u202eevil", "<details>", "</details>", "<script>alert(1)</script>", "| a | b |", "```", "`", "**x**",
    "{x}", "{x:999999999}", "%s%n", "1.2.3 MiB", "9" * 400, "1e400", "-1", "nan", "inf", "sm_9", "sm_", "compute_",
    "9.0", "9", "abc", "N/A", "None", "True", "[Not Supported]", "GPU-00000000-0000-0000-0000-000000000000",
    "https://user:pass@host.example.com/x", "redis://default:pw@cache:6379", "/home/alice smith/x.py",
    "C:\\Users\\Alice Smith\\x", "aa:bb:cc:dd:ee:ff", "hf_" + "a" * 30, "x" * 3000, "ünïcödé 名前", "\x00", "\ud7ff",
]
HOSTILE_NUMBERS = [0, -1, 1, 2**31, 2**63, -(2**63), 10**30, 0.0, -0.0, 1e-320, 5e-324, 1e308, -1e308, 0.5, 3.7]

hostile_text = st.one_of(st.sampled_from(HOSTILE_STRINGS), st.text(max_size=40),
                         st.text(alphabet=st.characters(max_codepoint=0x2100), max_size=20))
hostile_number = st.one_of(st.sampled_from(HOSTILE_NUMBERS), st.integers(-(10**20), 10**20),
                           st.floats(allow_nan=False, allow_infinity=False))
hostile_scalar = st.one_of(hostile_text, hostile_number, st.booleans(), st.none())
hostile_json = st.recursive(hostile_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(hostile_text, inner, max_size=4)), max_leaves=12)


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    found = [path] if path else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*path, index))
    return found


def _value_like(current: Any) -> st.SearchStrategy:
    """Mostly a value of the same JSON type (so validation lets it through to the renderers), sometimes any."""
    if isinstance(current, bool):
        same = st.booleans()
    elif isinstance(current, int):
        same = st.one_of(st.sampled_from([n for n in HOSTILE_NUMBERS if isinstance(n, int)]), st.integers())
    elif isinstance(current, float):
        same = st.floats(allow_nan=False, allow_infinity=False)
    elif isinstance(current, str):
        same = hostile_text
    elif isinstance(current, list):
        same = st.one_of(st.just([]), st.lists(hostile_scalar, max_size=3), st.just(current * 3))
    else:
        same = st.one_of(st.just({}), hostile_json)
    return st.one_of(same, same, same, hostile_json)


@st.composite
def mutated_report(draw) -> str:
    document = json.loads(json.dumps(draw(st.sampled_from(REPORTS))))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(document)
        path = draw(st.sampled_from(paths))
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "replace", "replace", "delete"]))
        if action == "delete" and isinstance(parent, dict):
            parent.pop(path[-1], None)
        elif action == "delete" and isinstance(parent, list):
            parent.pop(path[-1])
        else:
            parent[path[-1]] = draw(_value_like(parent[path[-1]]))
    text = json.dumps(document)
    if draw(st.integers(0, 14)) == 0:  # sometimes broken JSON text as well
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.sampled_from(["", "]", "}", "[" * 50, "9" * 5000, "NaN", "\x00"])) + text[cut:]
    return text


@st.composite
def mutated_paste(draw) -> str:
    lines = draw(st.sampled_from(PASTES)).splitlines()
    for _ in range(draw(st.integers(1, 6))):
        if not lines:
            break
        index = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["value", "value", "delete", "duplicate", "insert", "truncate"]))
        line = lines[index]
        if action == "value":
            key = line.split(":", 1)[0] if ":" in line else line[: len(line) // 2]
            lines[index] = f"{key}: {draw(hostile_text)}"
        elif action == "delete":
            del lines[index]
        elif action == "duplicate":
            lines.insert(index, line)
        elif action == "insert":
            lines.insert(index, draw(hostile_text))
        else:
            lines = lines[:index]
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


_CELL_SOURCES = st.one_of(
    st.sampled_from(["import torch\nx = torch.zeros(3).cuda()\nfor i in range(3):\n    x.item()\n",
                     "%timeit f()", "files = !ls", "%%bash\necho hi", "x = %time f()", "!pip install x", "f?",
                     "%time -n 3", "%%timeit\nx.cuda()", "# -*- coding: utf-42 -*-\nimport torch", "def f(:\n",
                     "torch.cuda.synchronize()\n" * 3]),
    hostile_text,
)


@st.composite
def notebook_text(draw) -> str:
    cells = draw(st.lists(st.fixed_dictionaries({}, optional={
        "cell_type": st.sampled_from(["code", "markdown", "raw", 3, None]),
        "source": st.one_of(_CELL_SOURCES, st.lists(st.one_of(_CELL_SOURCES, hostile_scalar), max_size=4),
                            hostile_json),
        "metadata": hostile_json,
    }), max_size=5))
    document: Any = {"cells": cells, "metadata": draw(st.one_of(
        st.just({"kernelspec": {"language": "python"}}), hostile_json)), "nbformat": 4}
    if draw(st.integers(0, 7)) == 0:
        document = draw(st.one_of(hostile_json, st.just({"worksheets": [{"cells": cells}, 3]})))
    return json.dumps(document)


FACT_PATHS = ["host.os", "host.memory_total_bytes", "torch.version", "torch.cuda_version", "torch.arch_list",
              "driver.version", "host.logical_cores", "torch.cuda_available", "host.cpu_flags",
              "derived.matmul_crossovers", "measurements.overheads.launch_us", "no.such.path"]
OPS = ["eq", "ne", "lt", "le", "gt", "ge", "in", "not_in", "contains", "contains_any", "matches", "version_lt",
       "version_ge", "bogus"]
PATTERNS = ["^NVIDIA", ".", "(a+)+$", "(a|a)*b", "\\1", "(", "a{1,99999}", "\\s*\\s*\\s*x", "x" * 300]


@st.composite
def rule_document(draw) -> dict:
    def condition(depth: int = 0) -> Any:
        kind = draw(st.sampled_from(["fact", "fact", "fact", "all", "any", "not", "exists"] if depth < 3 else
                                    ["fact", "exists"]))
        if draw(st.integers(0, 15)) == 0:
            kind = "junk"
        if kind == "fact":
            op = draw(st.sampled_from(OPS))
            operand = draw(st.one_of(st.sampled_from(PATTERNS), hostile_scalar, st.lists(hostile_scalar, max_size=3),
                                     st.just({"fact": draw(st.sampled_from(FACT_PATHS))})))
            return {"fact": draw(st.sampled_from(FACT_PATHS)), op: operand}
        if kind in ("all", "any"):
            return {kind: [condition(depth + 1) for _ in range(draw(st.integers(0, 3)))]}
        if kind == "not":
            return {"not": condition(depth + 1)}
        if kind == "exists":
            return {"exists": draw(st.sampled_from(FACT_PATHS))}
        return draw(hostile_json)

    placeholder = draw(st.sampled_from(["{host.os}", "{host.os}", "{host.memory_total_bytes:gib}", "{torch.version}",
                                        "{host.memory_total_bytes:,d}", "{x:999999999}",
                                        "{host.memory_total_bytes:.99999f}", "{{", "}", "{", "{no.such}"]))
    document = {
        "id": "fuzz-rule", "title": "Fuzz " + draw(hostile_text), "category": "perf", "severity": "info",
        "confidence": "heuristic", "when": condition(),
        "message": f"Message {draw(hostile_text)} {placeholder}", "remediation": "Fix " + draw(hostile_text),
        "references": [], "examples": {"fires": [{"host.os": "Linux"}], "passes": [{"host.os": "Windows"}]},
    }
    if draw(st.integers(0, 3)) == 0:
        document["for_each"] = "gpu"
    if draw(st.integers(0, 7)) == 0:  # now and then a broken envelope as well
        document[draw(st.sampled_from(["id", "title", "category", "severity", "confidence", "extra"]))] = \
            draw(hostile_scalar)
    return document


COMMANDS = [["explain"], ["compare"], ["lint"], ["rules", "list"], ["rules", "show"], ["rules", "validate"],
            ["schema"], ["memory", "--explain-oom"], ["nosuch"], []]
OPTIONS = ["-f", "--format", "-o", "--output", "--fail-on", "--threshold", "--rules-dir", "--select", "--ignore",
           "--no-redact", "--fail-on-regression", "--list-checks", "--help", "--bogus", "-", "--"]
VALUES = ["json", "markdown", "terminal", "text", "sarif", "html", "high", "never", "0.1", "-1", "1e400", "nan",
          "GA101", "GA1,GA9", "", " ", "\x1b[2J", "[/]", "9" * 500]
