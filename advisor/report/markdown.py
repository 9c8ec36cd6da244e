"""Markdown for GitHub/GitLab issues: verdict and findings on top, the details folded, one comment long."""

from __future__ import annotations

from advisor.models.findings import Finding
from advisor.models.report import Report
from advisor.report.fact_sections import Section
from advisor.report.safe_text import md_block, md_code, md_inline
from advisor.report.sections import has_facts, report_sections
from advisor.report.tidy import skipped_by_reason, skipped_summary
from advisor.report.verdict import verdict

_SEVERITY_MARK = {"high": "🔴 high", "medium": "🟠 medium", "low": "🟡 low", "info": "🔵 info"}
#: GitHub rejects comments over 65,536 characters; keep room for the user's own words.
COMMENT_LIMIT = 60_000


def fit_one_comment(text: str, rest_in: str) -> str:
    """Cut whole <details> blocks off the end until the text fits one issue comment, and say so. When the part
    before the details is itself too long (thousands of findings), it is cut after the last whole finding."""
    if len(text) <= COMMENT_LIMIT:
        return text
    cut = text[:COMMENT_LIMIT]
    if "\n<details>" in cut:
        cut = cut.rsplit("\n<details>", 1)[0]
    else:  # never mid-line or mid-finding: back to the start of the last finding that fits whole
        cut = cut.rsplit("\n- **", 1)[0] if "\n- **" in cut else cut.rsplit("\n", 1)[0]
    return cut + f"\n\n_(truncated to fit one comment; attach {rest_in} for the rest)_\n"


def _cell(text: str) -> str:
    return md_inline(text)


def _finding(finding: Finding) -> list[str]:
    where = f" (GPU {finding.gpu_index})" if finding.gpu_index is not None else ""
    if finding.location is not None:
        where = f" ({md_code(finding.location.text)})"
    return [
        f"- **{_SEVERITY_MARK[finding.severity.value]}** · {md_code(finding.rule_id)}{where} · "
        f"{finding.confidence.value}  ",
        f"  **{md_inline(finding.title)}.** {md_inline(finding.message)}  ",
        f"  *Fix:* {md_inline(finding.remediation)}",
    ]


def _table(section: Section) -> list[str]:
    lines = [f"<details><summary>{md_inline(section.title)}</summary>", ""]
    if section.note:
        lines += [f"_{md_inline(section.note)}_", ""]
    if section.rows:
        width = len(section.header) or 2
        header = section.header or ("",) * width
        lines += ["| " + " | ".join(_cell(name) for name in header) + " |", "|" + "---|" * width,
                  *("| " + " | ".join(_cell(cell) for cell in row) + " |" for row in section.rows), ""]
    if section.chart:
        lines += ["```", md_block(section.chart), "```", ""]
    lines += ["</details>", ""]
    return lines


def render_markdown(report: Report, *, verbose: bool = False) -> str:
    answer = verdict(report)
    lines = ["### gpu-advisor report", "", f"**{md_inline(answer.headline)}** — {md_inline(answer.because)}", ""]
    if report.findings:
        lines += [f"**Findings ({len(report.findings)})**", ""]
        for finding in report.findings:
            lines += _finding(finding)
        lines.append("")
    elif has_facts(report):
        lines += ["No problems found by the rules that could be evaluated.", ""]
    for recommendation in report.recommendations:
        lines += [f"**{md_inline(recommendation.title)}:** {md_inline(recommendation.summary)}", ""]
        lines += [f"- {md_inline(reason)}" for reason in recommendation.reasoning] + [""]
    for section in report_sections(report):
        lines += _table(section)
    if report.skipped and not verbose:
        lines += [f"_{skipped_summary(report)}_", ""]
    elif report.skipped:
        lines += [f"<details><summary>Rules skipped for missing facts ({len(report.skipped)})</summary>", ""]
        lines += [f"- {_cell(reason)}: " + ", ".join(md_code(rule) for rule in rules)
                  for reason, rules in skipped_by_reason(report)]
        lines += ["", "</details>", ""]
    meta = report.meta
    lines.append(f"<sub>gpu-advisor {md_inline(meta.tool_version)} · {md_code(meta.command)} · "
                 f"{md_inline(meta.created_utc)} · "
                 f"{'redacted' if meta.redacted else 'NOT redacted'} · schema {report.schema_version}</sub>")
    return fit_one_comment("\n".join(lines) + "\n", "the JSON report")
