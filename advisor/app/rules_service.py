"""The rule catalogue: rules read and checked once for every command, and the checker for rule authors.

Light on purpose: `gpu-advisor rules` loads this and the engine's loader, never the report model or torch."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional

from advisor.app.errors import AdvisorError

if TYPE_CHECKING:
    from advisor.engine.loader import LoadedRule


def load_catalogue(rules_dirs: Optional[Iterable[Path]]) -> list[LoadedRule]:
    """The built-in rules and those in ``rules_dirs``, each with the file it came from."""
    from advisor.engine.loader import RuleLoadError, load_rules

    try:
        return load_rules(rules_dirs or ())
    except RuleLoadError as exc:
        raise AdvisorError(f"bad rule: {exc}") from None


def validate_rule_dir(directory: Optional[Path]) -> tuple[int, list[str]]:
    """(rule files read, problems found) for every rule file in ``directory`` (default: the built-in rules):
    schema, fact paths, placeholders, duplicate ids, and that its examples fire/pass."""
    from advisor.engine.examples import example_failures
    from advisor.engine.loader import RuleLoadError, builtin_rules_dir, parse_rule, rule_files

    directory = directory or builtin_rules_dir()
    from advisor.safe_io import is_dir

    if not is_dir(directory):  # also a name the file system refuses (too long): bad input, not an OSError
        raise AdvisorError(f"{directory}: not a directory of rule files")
    files = rule_files(directory)
    if not files:
        raise AdvisorError(f"{directory}: no .yaml rule files found")
    problems, seen = [], {}
    for path in files:
        try:
            rule = parse_rule(path)
        except RuleLoadError as exc:
            problems.append(str(exc))
            continue
        if rule.id in seen:
            problems.append(f"{path}: rule id {rule.id!r} is already defined in {seen[rule.id]}")
        seen[rule.id] = path
        problems.extend(f"{path}: {failure}" for failure in example_failures(rule))
    return len(files), problems


def lint_check_page(check: str) -> Optional[str]:
    """The documentation of the lint check ``check`` (GA101, or its name) -- what it finds, why it is bad, a bad
    and a good example -- or None when no lint check has that id. Lint checks are part of the catalogue:
    `gpu-advisor rules show GA101` prints the same page as `gpu-advisor lint --explain GA101`."""
    from advisor.lint.registry import all_infos

    info = next((i for i in all_infos() if check.upper() == i.id or check.lower() == i.name), None)
    if info is None:
        return None
    try:  # the linter's own page, where it has one
        from advisor.lint.formats import render_explanation  # type: ignore[attr-defined]
    except ImportError:
        return _page_from_docstring(info)
    return render_explanation(info)


def _page_from_docstring(info) -> str:
    """A check's page assembled from its CheckInfo and its module's docstring (the examples it must match and
    must not), for a linter without pages of its own."""
    import importlib

    from advisor.lint.checks import CHECK_MODULES

    module = next((m for m in CHECK_MODULES if m.INFO.id == info.id), None)
    doc = (importlib.import_module(module.__name__).__doc__ or "") if module is not None else ""
    lines = [f"{info.id} {info.name}: {info.title}", "",
             f"Severity {info.severity.value}, confidence {info.confidence.value}.", "",
             "Why it costs:", f"    {info.cost}", "", "Fix:", f"    {info.fix}"]
    examples = doc.split("\n", 1)[1].strip() if "\n" in doc else ""
    if examples:
        lines += ["", "Examples (reported, and not reported):", *(f"    {line}" for line in examples.splitlines())]
    if info.references:
        lines += ["", "References:", *(f"    {ref}" for ref in info.references)]
    return "\n".join(lines) + "\n"
