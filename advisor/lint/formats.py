"""Lint output: plain text like other linters (the "terminal" format), JSON, and SARIF 2.1.0 for code-scanning.

terminal ``path:line:col: GA101 message`` (``path:cellN:line:col: ...`` in notebooks), then on indented
       lines, which line-matching tools ignore, what it costs (the first time each cost appears) and
       the fix (every time: it is often written for that very line).
json   {"tool", "version", "files_checked", "lines_checked", "findings": [...], "notes": [...]}
sarif  one run; rules carry id, name, title, cost (fullDescription) and fix (help); results carry
       ruleId, level (high -> error, medium -> warning, low/info -> note), message, and one physical
       location with a 1-based region in Unicode code points. For a notebook the uri is the .ipynb and the
       region the line of its JSON text that holds the source line (what a SARIF consumer opens); SARIF
       has no notion of cells, so ``properties`` carry cell, cellLine and cellColumn: the
       ``path.ipynb:cellN:line:col`` the other formats write. Skipped files are toolExecutionNotifications.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import PurePath
from typing import Callable
from urllib.parse import quote

from advisor import __version__
from advisor.lint.model import CheckInfo, LintFinding, LintRun
from advisor.lint.notebook_lines import file_position
from advisor.lint.registry import all_infos

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"high": "error", "medium": "warning", "low": "note", "info": "note"}


def render_explanation(info: CheckInfo) -> str:
    """A check's page for `lint --explain ID`: what it finds, why it is bad, an example and its fix."""
    lines = [f"{info.id} {info.name}: {info.title}",
             f"severity {info.severity.value}, confidence {info.confidence.value}", ""]
    doc = info.doc
    if doc is not None:
        lines += ["What it does", *_indent(doc.what), "", "Why is this bad?", *_indent(doc.why), "",
                  "Example", *_indent(doc.bad.rstrip("\n"), wrap=False), "", "Use instead",
                  *_indent(doc.good.rstrip("\n"), wrap=False), ""]
    lines += ["Cost", *_indent(info.cost), "", "Fix", *_indent(info.fix)]
    if info.references:
        lines += ["", "References", *("    " + reference for reference in info.references)]
    return "\n".join(lines) + "\n"


def _indent(text: str, wrap: bool = True) -> list[str]:
    if not wrap:
        return ["    " + line if line else "" for line in text.split("\n")]
    return textwrap.wrap(text, width=100, initial_indent="    ", subsequent_indent="    ")


def render_text(run: LintRun) -> str:
    lines = []
    explained: set[tuple[str, str]] = set()
    for finding in run.findings:
        lines.append(f"{finding.location}: {finding.check_id} {finding.message}")
        if (finding.check_id, finding.cost) not in explained:
            explained.add((finding.check_id, finding.cost))
            lines.append(f"    cost: {finding.cost}")
        lines.append(f"    fix: {finding.fix}")
    return "\n".join(lines) + ("\n" if lines else "")


def finding_dict(finding: LintFinding) -> dict:
    return {
        "id": finding.check_id, "title": finding.title, "path": finding.path, "cell": finding.cell,
        "line": finding.line, "column": finding.column, "end_line": finding.end_line,
        "end_column": finding.end_column, "severity": finding.severity.value, "confidence": finding.confidence.value,
        "message": finding.message, "cost": finding.cost, "fix": finding.fix,
        "references": list(finding.references), "evidence": finding.evidence,
    }


def render_json(run: LintRun) -> str:
    document = {
        "tool": "gpu-advisor lint", "version": __version__, "files_checked": run.files_checked,
        "lines_checked": run.lines_checked, "findings": [finding_dict(f) for f in run.findings],
        "notes": [{"path": note.path, "reason": note.reason} for note in run.notes],
    }
    return json.dumps(document, indent=2, default=str) + "\n"


def _uri(path: str) -> str:
    pure = PurePath(path)
    if pure.is_absolute():
        return "file://" + quote(pure.as_posix())
    return quote(pure.as_posix())


def render_sarif(run: LintRun) -> str:
    infos = all_infos()
    index_of = {info.id: i for i, info in enumerate(infos)}
    rules = []
    for info in infos:
        rule = {
            "id": info.id, "name": info.name, "shortDescription": {"text": info.title},
            "fullDescription": {"text": info.cost}, "help": {"text": info.fix},
            "defaultConfiguration": {"level": _LEVELS[info.severity.value]},
            "properties": {"tags": ["performance", "gpu", "pytorch"], "confidence": info.confidence.value},
        }
        if info.references:
            rule["helpUri"] = info.references[0]
        rules.append(rule)
    results = []
    for finding in run.findings:
        region = {"startLine": finding.line, "startColumn": finding.column}
        if finding.end_line is not None and finding.end_column is not None:
            region.update(endLine=finding.end_line, endColumn=finding.end_column)
        result = {
            "ruleId": finding.check_id, "ruleIndex": index_of[finding.check_id],
            "level": _LEVELS.get(finding.severity.value, "warning"),
            "message": {"text": f"{finding.message}. Fix: {finding.fix}"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(finding.path)},
                                                "region": region}}],
        }
        if finding.cell is not None:
            # The line in the .ipynb text a SARIF consumer opens; the cell and the line inside it as properties.
            result["properties"] = {"cell": finding.cell, "cellLine": finding.line, "cellColumn": finding.column}
            position = file_position(finding.path, finding.cell, finding.line, finding.column)
            region.clear()
            region.update(startLine=position[0], startColumn=position[1]) if position else region.update(startLine=1)
        results.append(result)
    notifications = [{"level": "warning", "message": {"text": note.reason},
                      "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(note.path)}}}]}
                     for note in run.notes]
    document = {
        "$schema": SARIF_SCHEMA, "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "gpu-advisor", "version": __version__, "semanticVersion": __version__,
                                "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}],
            "results": results,
        }],
    }
    return json.dumps(document, indent=2) + "\n"


#: Named as the report formats are: "terminal" is the plain text a terminal shows.
FORMATS: dict[str, Callable[[LintRun], str]] = {"terminal": render_text, "json": render_json, "sarif": render_sarif}
