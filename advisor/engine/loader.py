"""Loading rule files: YAML -> validated Rule, with every fact path and placeholder checked up front."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

import yaml
from pydantic import ValidationError

from advisor.engine.conditions import iter_paths
from advisor.engine.paths import UnknownFactPath, check_condition_path, check_example_path, check_path
from advisor.engine.render import check_spec, placeholder_paths, placeholder_specs
from advisor.engine.rule import CATEGORIES, Rule
from advisor.safe_io import is_dir

RULE_SUFFIXES = (".yaml", ".yml")
#: libyaml's loader when PyYAML was built with it (several times faster), the pure-Python one otherwise.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class RuleLoadError(ValueError):
    """A rule file that cannot be used; the message names the file and what is wrong, on one line."""


@dataclass(frozen=True)
class LoadedRule:
    rule: Rule
    path: Path


def builtin_rules_dir() -> Path:
    """The rules shipped with the package (inside the wheel) or, in a source checkout, the repo's rules/."""
    package_dir = Path(__file__).resolve().parent.parent
    shipped = package_dir / "_rules"
    return shipped if shipped.is_dir() else package_dir.parent / "rules"


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"] if not str(part).startswith("function-"))
    message = error["msg"].removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


#: A rule is a page of YAML; anything larger is not a rule (and is not read: see safe_io).
MAX_RULE_BYTES = 256 * 1024


def _refuse_aliases(text: str) -> None:
    """YAML anchors and aliases (&a / *a) let 1 KB expand to gigabytes (the "billion laughs"); no rule needs
    them, so a rule file with any alias is refused. The event stream is read without building anything."""
    for event in yaml.parse(text, Loader=_SAFE_LOADER):
        if isinstance(event, yaml.AliasEvent):
            mark = event.start_mark
            raise RuleLoadError(f"line {mark.line + 1}: YAML aliases (*name) are not allowed in rule files")


def parse_rule(path: Path) -> Rule:
    from advisor.safe_io import InputRefused, read_capped

    try:
        text = read_capped(path, MAX_RULE_BYTES).decode("utf-8")
    except InputRefused as exc:
        raise RuleLoadError(f"{path}: {exc}") from None
    except UnicodeDecodeError:
        raise RuleLoadError(f"{path}: not UTF-8 text") from None
    try:
        try:
            _refuse_aliases(text)
        except RuleLoadError as exc:
            raise RuleLoadError(f"{path}: {exc}") from None
        data = yaml.load(text, Loader=_SAFE_LOADER)  # a safe loader: no Python objects from YAML
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise RuleLoadError(f"{path}:{where} bad YAML: {problem}") from None
    except RecursionError:
        raise RuleLoadError(f"{path}: YAML nested too deeply") from None
    if not isinstance(data, dict):
        raise RuleLoadError(f"{path}: a rule file holds one mapping (id, title, when, ...), got {type(data).__name__}")
    try:
        rule = Rule.model_validate(data)
    except ValidationError as exc:
        raise RuleLoadError(f"{path}: {_first_error(exc)}") from None
    except RecursionError:
        raise RuleLoadError(f"{path}: condition nested too deeply") from None
    _check_references(rule, path)
    return rule


def _check_references(rule: Rule, path: Path) -> None:
    gpu_scope = rule.for_each == "gpu"
    templates = (rule.message, rule.remediation)
    example_paths = dict.fromkeys(p for example in (*rule.examples.fires, *rule.examples.passes) for p in example)
    try:
        for fact_path in dict.fromkeys(iter_paths(rule.when)):
            check_condition_path(fact_path, gpu_scope=gpu_scope)
        for fact_path in dict.fromkeys(p for t in templates for p in placeholder_paths(t)):
            check_path(fact_path, gpu_scope=gpu_scope)
        for fact_path in example_paths:
            check_example_path(fact_path, gpu_scope=gpu_scope)
    except UnknownFactPath as exc:
        raise RuleLoadError(f"{path}: unknown fact path {exc}") from None
    for spec in (s for t in templates for s in placeholder_specs(t)):
        try:
            check_spec(spec)
        except ValueError:
            raise RuleLoadError(f"{path}: bad format spec {spec!r} in a placeholder") from None
    category_dir = path.parent.name
    if category_dir in CATEGORIES and category_dir != rule.category:
        raise RuleLoadError(f"{path}: category {rule.category!r} does not match its folder {category_dir!r}")
    if path.stem != rule.id:
        raise RuleLoadError(f"{path}: file name must be the rule id ({rule.id}.yaml)")


def rule_files(directory: Path) -> list[Path]:
    """Every *.yaml under the folder. os.walk follows no symlinked folder, so a link loop cannot make it endless;
    a file that is not regular (a FIFO named x.yaml) is refused by ``parse_rule``, never read."""
    import os

    found = []
    for folder, subdirs, files in os.walk(directory):
        subdirs.sort()
        found += [Path(folder) / name for name in files if Path(name).suffix in RULE_SUFFIXES]
    return sorted(found)


def load_rules(extra_dirs: Iterable[Path] = (), *, include_builtin: bool = True) -> list[LoadedRule]:
    """All rules, built-in first; a rule id defined twice is an error (no silent override)."""
    directories = ([builtin_rules_dir()] if include_builtin else []) + [Path(d) for d in extra_dirs]
    loaded: list[LoadedRule] = []
    seen: dict[str, Path] = {}
    for directory in directories:
        if not is_dir(directory):
            raise RuleLoadError(f"{directory}: not a directory of rule files")
        for path in rule_files(directory):
            rule = parse_rule(path)
            if rule.id in seen:
                raise RuleLoadError(f"{path}: rule id {rule.id!r} is already defined in {seen[rule.id]}")
            seen[rule.id] = path
            loaded.append(LoadedRule(rule, path))
    return loaded


def find_rule(rules: Iterable[LoadedRule], rule_id: str) -> Optional[LoadedRule]:
    return next((r for r in rules if r.rule.id == rule_id), None)
