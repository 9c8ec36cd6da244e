"""`gpu-advisor schema`: the JSON Schema of the report, for people who consume the JSON output."""

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.cli.options import output_option


def schema(output: Annotated[Optional[Path], output_option({".json": "json"}, "the schema")] = None) -> None:
    """Print the JSON Schema of gpu-advisor's JSON report."""
    from advisor.cli.errors import CliError
    from advisor.models.report import Report

    text = json.dumps(Report.model_json_schema(), indent=2) + "\n"
    if output is None or str(output) == "-":
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None


def register(app: typer.Typer) -> None:
    app.command("schema")(schema)
