"""`gpu-advisor schema`: the JSON Schema of the report, for people who consume the JSON output."""

import json

import typer


def schema() -> None:
    """Print the JSON Schema of gpu-advisor's JSON report."""
    from advisor.models.report import Report

    typer.echo(json.dumps(Report.model_json_schema(), indent=2))


def register(app: typer.Typer) -> None:
    app.command("schema")(schema)
