"""A comparison in the terminal (rich): the verdict in a panel, then the same tables the Markdown shows."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from advisor.compare.tables import (
    evaluation_line,
    fact_tables,
    finding_table,
    measurement_tables,
    regression_headline,
    side_line,
    summary_line,
)
from advisor.formatting import Section
from advisor.models.comparison import Comparison
from advisor.report.safe_text import printable_copy

#: Colour by the first word of a cell: verdicts and finding changes read at a glance.
_CELL_STYLE = {"worse": "bold red", "better": "green", "appeared": "yellow", "disappeared": "green",
               "unavailable:": "dim", "not": "dim", "-": "dim"}


def _style(cell: str) -> str:
    if cell.endswith("(noisy)"):
        return "dim yellow"
    return _CELL_STYLE.get(cell.split(" ", 1)[0], "")


def _table(table: Section) -> Group:
    rich_table = RichTable(title=Text(f"{table.title} ({len(table.rows)})" if table.rows else table.title),
                           title_justify="left", box=None, pad_edge=False, header_style="bold",
                           show_header=bool(table.rows))
    for index, name in enumerate(table.header):
        rich_table.add_column(Text(name), style="bold" if index == 0 else None, overflow="fold")
    for row in table.rows:
        rich_table.add_row(*(Text(cell, style=_style(cell)) for cell in row))
    parts = [rich_table]
    if table.note:
        parts.append(Text(table.note, style="dim italic"))
    return Group(*parts)


def render_compare_terminal(comparison: Comparison, console: Console) -> None:
    comparison = printable_copy(comparison)  # both reports' strings are data: see report/safe_text.py
    style = "red" if comparison.regressions else "green"
    body = [Text(side_line(comparison.a)), Text(side_line(comparison.b)), Text(""),
            Text(summary_line(comparison)), Text(evaluation_line(comparison), style="dim")]
    console.print(Panel(Group(*body), title=Text(regression_headline(comparison), style=f"bold {style}"),
                        title_align="left", border_style=style))
    if comparison.regressions:
        console.print(Text(f"Regressions (threshold {comparison.threshold:.0%}):", style="bold red"))
        for line in comparison.regressions:
            console.print(Text(f"  - {line}"))
    differing, *other_facts = fact_tables(comparison)
    for table in [finding_table(comparison), differing, *measurement_tables(comparison), *other_facts]:
        console.print()
        console.print(_table(table))
    ignored = comparison.facts.ignored
    if ignored:
        console.print()
        console.print(Text(f"Left out of the comparison (change with load, or name the part): {', '.join(ignored)}",
                           style="dim"))
