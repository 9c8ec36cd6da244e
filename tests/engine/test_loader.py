from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from advisor.engine.loader import RuleLoadError, load_rules, parse_rule

GOOD = """
id: {id}
title: A test rule
category: perf
severity: low
confidence: heuristic
when: {{fact: torch.debug_build, eq: true}}
message: torch {{torch.version}} is a debug build.
remediation: Install a release build.
examples:
  fires: [{{torch.debug_build: true, torch.version: "2.5"}}]
  passes: [{{torch.debug_build: false}}]
"""


def write_rule(directory: Path, text: str, name: str = "my-rule", folder: str = "perf") -> Path:
    path = directory / folder / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_good_user_rule_loads_next_to_the_builtin_ones(tmp_path):
    write_rule(tmp_path, GOOD.format(id="my-rule"))
    rules = load_rules([tmp_path])
    assert "my-rule" in {r.rule.id for r in rules}
    assert len(rules) > 10


@pytest.mark.parametrize("text, message", [
    ("id: my-rule\ntitle: [unclosed\n", "bad YAML"),
    ("- just\n- a list\n", "one mapping"),
    (GOOD.format(id="my-rule").replace("eq: true", "equals: true"), "unknown operator 'equals'"),
    (GOOD.format(id="my-rule").replace("torch.debug_build, eq", "torch.debug_bild, eq"),
     "unknown fact path 'torch.debug_bild'"),
    (GOOD.format(id="my-rule").replace("{torch.version}", "{torch.versio}"), "unknown fact path 'torch.versio'"),
    (GOOD.format(id="my-rule").replace("torch.debug_build, eq", "gpu.name, eq"), "for_each: gpu"),
    (GOOD.format(id="my-rule").replace("torch.debug_build, eq: true", "env.AWS_SECRET_KEY, eq: x"), "allowlisted"),
    (GOOD.format(id="my-rule").replace("torch.debug_build, eq: true", "torch.arch_list, contains: sm_90")
     .replace("{torch.version}", "{torch.devices.name}"), "is a list"),
    (GOOD.format(id="my-rule").replace("severity: low", "severity: critical"), "severity"),
    (GOOD.format(id="my-rule").replace("category: perf", "category: compat"), "does not match its folder"),
    (GOOD.format(id="My_Rule"), "kebab-case"),
    (GOOD.format(id="other-id"), "file name must be the rule id"),
    (GOOD.format(id="my-rule").replace("{torch.version}", "{torch.version:q}"), "bad format spec"),
    (GOOD.format(id="my-rule").replace("  passes: [{torch.debug_build: false}]\n", ""), "passes"),
    # Examples go through the same derivation as a real report: a derived value cannot be given.
    (GOOD.format(id="my-rule").replace("passes: [{torch.debug_build: false}]",
                                       "passes: [{torch.debug_build: false, derived.tf32_speedup: 2.0}]"),
     "derived facts are computed"),
    (GOOD.format(id="my-rule").replace("passes: [{torch.debug_build: false}]",
                                       "passes: [{torch.debug_build: false, measurements.crossover.matmul.int8.sync: 4}]"),
     "measurements.crossover.OP.DTYPE.MODE"),
    # Display text is for messages; conditions read values.
    (GOOD.format(id="my-rule").replace("{fact: torch.debug_build, eq: true}", "{known: derived.matmul_crossovers}"),
     "text for messages"),
])
def test_bad_rule_files_give_one_line_errors(tmp_path, text, message):
    path = write_rule(tmp_path, text)
    with pytest.raises(RuleLoadError, match=message) as caught:
        parse_rule(path)
    assert str(path) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_duplicate_rule_ids_are_an_error(tmp_path):
    write_rule(tmp_path, GOOD.format(id="torch-debug-build"), name="torch-debug-build")
    with pytest.raises(RuleLoadError, match="already defined"):
        load_rules([tmp_path])


def test_missing_rules_dir_is_an_error(tmp_path):
    with pytest.raises(RuleLoadError, match="not a directory"):
        load_rules([tmp_path / "nope"])
