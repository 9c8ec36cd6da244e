"""Markdown for GitHub/GitLab issues: verdict and findings on top, the details folded, one comment long."""

from __future__ import annotations

from advisor.models.findings import Finding
from advisor.models.report import Report
from advisor.report.fact_sections import Section
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
    return text.replace("|", "\\|").replace("\n", " ")


def _finding(finding: Finding) -> list[str]:
    where = f" (GPU {finding.gpu_index})" if finding.gpu_index is not None else ""
    if finding.location is not None:
        where = f" (`{finding.location.text}`)"
    return [
        f"- **{_SEVERITY_MARK[finding.severity.value]}** · `{finding.rule_id}`{where} · {finding.confidence.value}  ",
        f"  **{finding.title}.** {finding.message}  ",
        f"  *Fix:* {finding.remediation}",
    ]


def _table(section: Section) -> list[str]:
    lines = [f"<details><summary>{section.title}</summary>", ""]
    if section.note:
        lines += [f"_{section.note}_", ""]
    if section.rows:
        width = len(section.header) or 2
        header = section.header or ("",) * width
        lines += ["| " + " | ".join(header) + " |", "|" + "---|" * width,
                  *("| " + " | ".join(_cell(cell) for cell in row) + " |" for row in section.rows), ""]
    if section.chart:
        lines += ["```", section.chart, "```", ""]
    lines += ["</details>", ""]
    return lines


def render_markdown(report: Report, *, verbose: bool = False) -> str:
    answer = verdict(report)
    lines = ["### gpu-advisor report", "", f"**{answer.headline}** — {answer.because}", ""]
    if report.findings:
        lines += [f"**Findings ({len(report.findings)})**", ""]
        for finding in report.findings:
            lines += _finding(finding)
        lines.append("")
    elif has_facts(report):
        lines += ["No problems found by the rules that could be evaluated.", ""]
    for recommendation in report.recommendations:
        lines += [f"**{recommendation.title}:** {recommendation.summary}", ""]
        lines += [f"- {reason}" for reason in recommendation.reasoning] + [""]
    for section in report_sections(report):
        lines += _table(section)
    if report.skipped and not verbose:
        lines += [f"_{skipped_summary(report)}_", ""]
    elif report.skipped:
        lines += [f"<details><summary>Rules skipped for missing facts ({len(report.skipped)})</summary>", ""]
        lines += [f"- {_cell(reason)}: " + ", ".join(f"`{rule}`" for rule in rules)
                  for reason, rules in skipped_by_reason(report)]
        lines += ["", "</details>", ""]
    meta = report.meta
    lines.append(f"<sub>gpu-advisor {meta.tool_version} · `{meta.command}` · {meta.created_utc} · "
                 f"{'redacted' if meta.redacted else 'NOT redacted'} · schema {report.schema_version}</sub>")
    return fit_one_comment("\n".join(lines) + "\n", "the JSON report")
