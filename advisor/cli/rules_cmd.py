"""`gpu-advisor rules list|show|validate`: the rule catalogue, and a checker for people writing rules."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.errors import EXIT_BAD_INPUT, CliError
from advisor.cli.options import RulesDirOption

rules_app = typer.Typer(help="List, show and validate rules (no torch import).", no_args_is_help=True)


def _load(rules_dir: Optional[list[Path]]):
    from advisor.engine.loader import RuleLoadError, load_rules

    try:
        return load_rules(rules_dir or ())
    except RuleLoadError as exc:
        raise CliError(f"bad rule: {exc}") from None


@rules_app.command("list")
def list_rules(rules_dir: RulesDirOption = None) -> None:
    """One line per rule: id, category, severity, confidence, title."""
    loaded = _load(rules_dir)
    width = max(len(item.rule.id) for item in loaded)
    for item in sorted(loaded, key=lambda i: (i.rule.category, i.rule.id)):
        rule = item.rule
        from advisor.report.safe_text import printable  # a --rules-dir title is data: no escape sequences

        typer.echo(f"{rule.id:<{width}}  {rule.category:<7} {rule.severity.value:<6} {rule.confidence.value:<9} "
                   f"{printable(rule.title)}")


@rules_app.command("show")
def show_rule(rule_id: Annotated[str, typer.Argument(help="A rule id from `gpu-advisor rules list`.")],
              rules_dir: RulesDirOption = None) -> None:
    """Print one rule's file: its condition, message, remediation and examples."""
    from advisor.engine.loader import find_rule

    loaded = _load(rules_dir)
    found = find_rule(loaded, rule_id)
    if found is None:
        raise CliError(f"no rule with id {rule_id!r} (gpu-advisor rules list shows them)")
    from advisor.report.safe_text import printable

    typer.echo(f"# {found.path}")
    typer.echo(printable(found.path.read_text(encoding="utf-8", errors="replace")), nl=False)


@rules_app.command("validate")
def validate_rules(directory: Annotated[Optional[Path], typer.Argument(
        help="Directory of rule files (default: the built-in rules).")] = None) -> None:
    """Check every rule file in DIRECTORY: schema, fact paths, placeholders, and that its examples fire/pass."""
    from advisor.engine.examples import example_failures
    from advisor.engine.loader import RuleLoadError, builtin_rules_dir, parse_rule, rule_files

    from advisor.safe_io import is_dir

    directory = directory or builtin_rules_dir()
    if not is_dir(directory):
        raise CliError(f"{directory}: not a directory of rule files")
    files = rule_files(directory)
    if not files:
        raise CliError(f"{directory}: no .yaml rule files found")
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
    for problem in problems:
        typer.echo(problem, err=True)
    typer.echo(f"{len(files)} rule file(s), {len(problems)} problem(s)")
    if problems:
        raise typer.Exit(EXIT_BAD_INPUT)


def register(app: typer.Typer) -> None:
    app.add_typer(rules_app, name="rules")
