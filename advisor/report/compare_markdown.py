"""A comparison as Markdown for one GitHub/GitLab comment: headline and findings open, long tables folded."""

from __future__ import annotations

from advisor import __version__
from advisor.compare.tables import (
    evaluation_line,
    fact_tables,
    finding_table,
    measurement_tables,
    regression_headline,
    side_description,
    summary_line,
)
from advisor.formatting import Section
from advisor.models.comparison import Comparison
from advisor.report.markdown import fit_one_comment
from advisor.report.safe_text import md_code, md_inline

#: Tables longer than this are folded under <details> so the comment stays readable.
FOLD_ROWS = 12


def _cell(text: str) -> str:
    return md_inline(text) or " "


def _table(table: Section, *, fold: bool = False) -> list[str]:
    title = md_inline(f"{table.title} ({len(table.rows)})" if table.rows else table.title)
    body: list[str] = []
    if table.note:
        body += [f"_{md_inline(table.note)}_", ""]
    if table.rows:
        body += ["| " + " | ".join(_cell(name) for name in table.header) + " |", "|" + "---|" * len(table.header),
                 *("| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows), ""]
    if fold or len(table.rows) > FOLD_ROWS:
        return [f"<details><summary>{title}</summary>", "", *body, "</details>", ""]
    return [f"**{title}**", "", *body]


def render_compare_markdown(comparison: Comparison) -> str:
    lines = ["### gpu-advisor compare", "", f"**{md_inline(regression_headline(comparison))}**", ""]
    lines += [f"- **{md_inline(side.label)}:** {md_code(side.source)} -- {md_inline(side_description(side))}"
              for side in (comparison.a, comparison.b)]
    lines += ["", md_inline(summary_line(comparison)), "", f"_{md_inline(evaluation_line(comparison))}_", ""]
    if comparison.regressions:
        lines += [f"**Regressions (threshold {comparison.threshold:.0%})**", ""]
        lines += [f"- {_cell(line)}" for line in comparison.regressions] + [""]
    lines += _table(finding_table(comparison))
    differing, *other_facts = fact_tables(comparison)
    lines += _table(differing)
    for table in measurement_tables(comparison):
        lines += _table(table, fold=table.title == "Measured on one side only")
    for table in other_facts:
        lines += _table(table, fold=True)
    ignored = comparison.facts.ignored
    if ignored:
        lines += [f"<details><summary>Left out of the comparison ({len(ignored)} facts)</summary>", ""]
        lines += [f"- {md_code(path)}: {md_inline(why)}" for path, why in ignored.items()] + ["", "</details>", ""]
    redaction = " · ".join(f"{side.label} {'redacted' if side.redacted else 'NOT redacted'}"
                           for side in (comparison.a, comparison.b))
    lines.append(f"<sub>gpu-advisor {__version__} · `compare` · B against baseline A · threshold "
                 f"{comparison.threshold:.0%} · {redaction}</sub>")
    return fit_one_comment("\n".join(lines) + "\n", "the JSON comparison")
