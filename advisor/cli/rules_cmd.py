"""`gpu-advisor rules list|show|validate`: the rule catalogue, and a checker for people writing rules."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.errors import EXIT_BAD_INPUT, CliError
from advisor.cli.options import RulesDirOption

rules_app = typer.Typer(help="List, show and validate rules (no torch import).", no_args_is_help=True,
                        rich_markup_mode=None)


@rules_app.command("list")
def list_rules(rules_dir: RulesDirOption = None) -> None:
    """One line per rule: id, category, severity, confidence, title."""
    from advisor.app.rules_service import load_catalogue

    loaded = load_catalogue(rules_dir)
    width = max(len(item.rule.id) for item in loaded)
    for item in sorted(loaded, key=lambda i: (i.rule.category, i.rule.id)):
        rule = item.rule
        from advisor.report.safe_text import printable  # a --rules-dir title is data: no escape sequences

        typer.echo(f"{rule.id:<{width}}  {rule.category:<7} {rule.severity.value:<6} {rule.confidence.value:<9} "
                   f"{printable(rule.title)}")


@rules_app.command("show")
def show_rule(rule_id: Annotated[str, typer.Argument(
        metavar="ID", help="A rule id from `gpu-advisor rules list`, or a lint check's (GA101).")],
              rules_dir: RulesDirOption = None) -> None:
    """Print one rule's file (condition, message, remediation, examples), or a lint check's page."""
    from advisor.app.rules_service import lint_check_page, load_catalogue
    from advisor.engine.loader import find_rule

    loaded = load_catalogue(rules_dir)
    found = find_rule(loaded, rule_id)
    if found is None:
        page = lint_check_page(rule_id)
        if page is None:
            raise CliError(f"no rule or lint check with id {rule_id!r} (gpu-advisor rules list and "
                           "gpu-advisor lint --list-checks show them)")
        typer.echo(page, nl=False)
        return
    from advisor.report.safe_text import printable

    typer.echo(f"# {found.path}")
    typer.echo(printable(found.path.read_text(encoding="utf-8", errors="replace")), nl=False)


@rules_app.command("validate")
def validate_rules(directory: Annotated[Optional[Path], typer.Argument(
        metavar="[DIR]", help="Directory of rule files (default: the built-in rules).")] = None) -> None:
    """Check every rule file in DIR: schema, fact paths, placeholders, and that its examples fire/pass."""
    from advisor.app.rules_service import validate_rule_dir

    count, problems = validate_rule_dir(directory)
    for problem in problems:
        typer.echo(problem, err=True)
    typer.echo(f"{count} rule file{'' if count == 1 else 's'}, "
               f"{len(problems)} problem{'' if len(problems) == 1 else 's'}")
    if problems:
        raise typer.Exit(EXIT_BAD_INPUT)


def register(app: typer.Typer) -> None:
    app.add_typer(rules_app, name="rules")
