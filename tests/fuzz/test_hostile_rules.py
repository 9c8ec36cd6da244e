"""Rule files from strangers (--rules-dir): alias bombs, backtracking regexes, giant widths are refused fast."""

from __future__ import annotations

import os
import time

import pytest
from fuzz_helpers import cli, cli_process

from advisor.engine.loader import RuleLoadError, load_rules
from advisor.engine.render import format_value
from advisor.engine.safe_regex import MAX_SUBJECT_CHARS, UnsafePattern, search_bounded, vet_pattern

RULE = """id: {id}
title: A test rule
category: perf
severity: info
confidence: heuristic
when: {{fact: host.os, matches: {pattern}}}
message: "{message}"
remediation: Nothing.
references: []
examples:
  fires: [{{host.os: "{fires}"}}]
  passes: [{{host.os: "{passes}"}}]
"""


def _rule(tmp_path, *, pattern='"^Linux"', message="The OS is {{host.os}}.", fires="Linux", passes="Windows",
          rule_id="test-rule"):
    folder = tmp_path / "rules"
    folder.mkdir(exist_ok=True)
    (folder / f"{rule_id}.yaml").write_text(RULE.format(id=rule_id, pattern=pattern, message=message,
                                                        fires=fires, passes=passes))
    return folder


def test_a_plain_custom_rule_loads(tmp_path):
    folder = _rule(tmp_path)
    assert any(r.rule.id == "test-rule" for r in load_rules([folder]))


def test_yaml_alias_bomb_is_refused_fast(tmp_path):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for index in range(1, 10):
        lines.append(f"{chr(97 + index)}: &{chr(97 + index)} [{','.join(['*' + chr(96 + index)] * 9)}]")
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "bomb.yaml").write_text("\n".join(lines) + "\n")
    started = time.perf_counter()
    with pytest.raises(RuleLoadError, match="aliases"):
        load_rules([folder], include_builtin=False)
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize("pattern", ["(a+)+$", "(a|a)*b", "(\\w+\\s?)*$", "(x)\\1", "\\s*\\s*\\s*x", "a" * 300,
                                     "(?:a{1,50}){1,50}"])
def test_backtracking_patterns_are_refused(pattern):
    with pytest.raises(UnsafePattern):
        vet_pattern(pattern)


@pytest.mark.parametrize("pattern", ["^NVIDIA H1", ".", "^(sm|compute)_\\d+$", "a|b", "(ab)?c", "x{2,5}y"])
def test_ordinary_patterns_pass(pattern):
    vet_pattern(pattern)


def test_rules_validate_refuses_a_backtracking_rule_in_one_line(tmp_path, capsys):
    folder = _rule(tmp_path, pattern='"(a+)+$"', fires="a" * 40 + "!", passes="b")
    started = time.perf_counter()
    code, _, err = cli(capsys, "rules", "validate", folder)
    assert code == 2 and "exponentially" in err and len(err.strip().splitlines()) == 1
    assert time.perf_counter() - started < 10


def test_search_is_bounded_even_for_the_worst_allowed_pattern():
    started = time.perf_counter()
    for _ in range(3):
        search_bounded("\\s*\\s*x", " " * 20 * 2**20)
    assert time.perf_counter() - started < 10
    assert search_bounded("x$", "a" * MAX_SUBJECT_CHARS + "x") is False  # only the first part is searched


def test_giant_format_width_is_refused_at_load(tmp_path):
    folder = _rule(tmp_path, message="{host.os:999999999}")
    with pytest.raises(RuleLoadError, match="bad format spec"):
        load_rules([folder])


def test_giant_format_width_never_allocates_when_rendering():
    assert format_value(1.5, "999999999") == "1.5"
    assert format_value(1.5, ".999999999f") == "1.5"
    assert format_value(10**400, "gib") == str(10**400)


def test_rule_files_that_are_fifos_or_loops_never_hang(tmp_path):
    folder = _rule(tmp_path)
    os.mkfifo(folder / "pipe.yaml")
    (folder / "loop").symlink_to(folder, target_is_directory=True)
    done = cli_process("rules", "validate", folder, timeout=60)
    assert done.returncode == 2 and b"FIFO" in done.stderr
