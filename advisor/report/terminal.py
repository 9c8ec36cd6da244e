"""The terminal report (rich): the only place with colour. Verdict first, then findings, then the facts."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from advisor.models.findings import Finding
from advisor.models.report import Report
from advisor.report.fact_sections import Section
from advisor.report.safe_text import printable_copy
from advisor.report.sections import has_facts, report_sections
from advisor.report.tidy import skipped_by_reason, skipped_summary
from advisor.report.verdict import verdict

_STYLE = {"high": "bold red", "medium": "bold yellow", "low": "yellow", "info": "cyan"}


def _finding_panel(finding: Finding) -> Panel:
    where = f"GPU {finding.gpu_index} · " if finding.gpu_index is not None else ""
    if finding.location is not None:
        where = f"{finding.location.text} · "
    body = Group(
        Text(finding.message),
        Text.assemble(("Fix: ", "bold"), finding.remediation),
        Text(f"{where}{finding.rule_id} · confidence: {finding.confidence.value}", style="dim"),
    )
    style = _STYLE[finding.severity.value]
    return Panel(body, title=Text(f"{finding.severity.value.upper()} {finding.title}", style=style),
                 title_align="left", border_style=style)


def _section_table(section: Section) -> Group:
    table = Table(title=Text(section.title), title_justify="left", show_header=bool(section.header), box=None,
                  pad_edge=False, header_style="bold")
    for index, name in enumerate(section.header or ("", "")):
        table.add_column(Text(name), style="bold" if index == 0 else None, no_wrap=index == 0, overflow="fold")
    for row in section.rows:
        table.add_row(*(Text(cell, style="dim" if cell.startswith("unavailable") else "") for cell in row))
    parts = [table]
    if section.note:
        parts.append(Text(section.note, style="dim italic"))
    if section.chart:
        parts.append(Text(section.chart))
    return Group(*parts)


def render_terminal(report: Report, console: Console, *, verbose: bool = False) -> None:
    """Every string in the report is data: control characters are made visible first, and rich is only ever
    handed Text objects, so nothing in a paste is read as markup (see report/safe_text.py)."""
    report = printable_copy(report)
    answer = verdict(report)
    style = {True: "green", False: "red", None: "yellow"}[answer.usable]
    console.print(Panel(Text(answer.because), title=Text(answer.headline, style=f"bold {style}"),
                        title_align="left", border_style=style))
    if report.findings:
        for finding in report.findings:
            console.print(_finding_panel(finding))
    elif has_facts(report):
        console.print(Text("No problems found by the rules that could be evaluated.", style="green"))
    for recommendation in report.recommendations:
        lines = [Text(recommendation.summary, style="bold")] + [Text(f"- {r}") for r in recommendation.reasoning]
        console.print(Panel(Group(*lines), title=Text(recommendation.title), title_align="left", border_style="blue"))
    for section in report_sections(report):
        console.print()
        console.print(_section_table(section))
    if report.skipped and not verbose:
        console.print()
        console.print(Text(skipped_summary(report), style="dim"))
    elif report.skipped:
        console.print()
        console.print(Text(f"Rules skipped for missing facts ({len(report.skipped)}):", style="bold dim"))
        for reason, rules in skipped_by_reason(report):
            console.print(Text(f"  {reason}: {', '.join(rules)}", style="dim"))
    meta = report.meta
    console.print(Text(f"\ngpu-advisor {meta.tool_version} · {meta.command} · {meta.created_utc} · "
                       f"{'redacted' if meta.redacted else 'NOT redacted'}", style="dim"))
