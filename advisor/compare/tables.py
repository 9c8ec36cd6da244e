"""A Comparison as plain-text lines and titled tables, so the terminal and Markdown renderers show the same thing.

Only wording and layout live here; every judgement (what differs, better or worse) was made by the compare
modules. Cells are plain strings: the terminal renderer adds colour, the Markdown one escapes pipes.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from advisor import __version__
from advisor.formatting import Section, human_bytes, human_value, plural
from advisor.models.comparison import Comparison, FactDifference, FindingChange, MeasurementChange, ReportSide


def side_description(side: ReportSide) -> str:
    origin = "pasted text" if side.origin == "text" else f"{side.command} report"
    return f"{side.summary} ({origin}, {side.created_utc})"


def side_line(side: ReportSide) -> str:
    return f"{side.label}: {side.source} -- {side_description(side)}"


def evaluation_line(comparison: Comparison) -> str:
    sides = [s for s in (comparison.a, comparison.b) if s.re_evaluated]
    if not sides:
        return "Findings as saved in the reports (rules not re-evaluated)."
    names = " and ".join(s.label for s in sides)
    saved = [f"{s.label} was saved with {s.saved_findings}, now {s.findings}" for s in sides
             if s.saved_findings is not None and s.saved_findings != s.findings]
    tail = f" Findings changed by the current rules: {'; '.join(saved)}." if saved else ""
    return f"Rules re-evaluated on {names} by gpu-advisor {__version__}, so findings reflect the current rule set.{tail}"


def _undecided(change: FindingChange) -> bool:
    """On one side only because the other side could not evaluate the rule: "not evaluated", not a change."""
    return change.change in ("appeared", "disappeared") and change.undecided_reason is not None


def change_label(change: FindingChange) -> str:
    if _undecided(change):
        return f"not evaluated in {'A' if change.change == 'appeared' else 'B'}"
    return change.change


def summary_line(comparison: Comparison) -> str:
    facts = comparison.facts
    verdicts = Counter(m.verdict for m in comparison.measurements)
    changes = Counter(change_label(f) for f in comparison.findings)
    measured = sum(verdicts[v] for v in ("better", "worse", "similar", "changed", "unclear"))
    parts = [f"{plural(len(facts.differences), 'fact')} {'differs' if len(facts.differences) == 1 else 'differ'} "
             f"({len(facts.one_sided)} recorded on one side only)"]
    if comparison.measurements_note:
        parts.append("measurements not compared")
    else:
        parts.append(f"{plural(measured, 'measurement')} on both sides: {verdicts['better']} better, {verdicts['worse']} worse, "
                     f"{verdicts['similar']} similar")
    undecided = changes["not evaluated in A"] + changes["not evaluated in B"]
    parts.append(f"findings: {changes['appeared']} appeared, {changes['disappeared']} disappeared, "
                 + (f"{undecided} not evaluated on one side, " if undecided else "") + f"{changes['persists']} persist")
    noisy = sum(1 for m in comparison.measurements if m.verdict == "worse" and not m.regression)
    if noisy:
        parts.append(f"{plural(noisy, 'noisy number')} {'looks' if noisy == 1 else 'look'} worse: not counted")
    return " · ".join(parts)


def regression_headline(comparison: Comparison) -> str:
    """One short line (it titles a panel at 80 columns): the details are in the summary line under it."""
    if comparison.regressions:
        return f"B regressed against A in {plural(len(comparison.regressions), 'way')}"
    return (f"No regressions: nothing worse by over {comparison.threshold:.0%}, no new "
            f"{comparison.regression_severity.value}-or-higher finding")


def _fact_cell(value: Any, path: str, absent: str) -> str:
    if value is None and absent:
        return absent
    if path.endswith("_bytes") and isinstance(value, int) and not isinstance(value, bool):
        return human_bytes(value)
    return human_value(value)


def _difference_row(difference: FactDifference) -> tuple[str, str, str]:
    absent = "unset" if difference.note.startswith("unset") else ("absent" if difference.note.startswith("only") else "")
    if difference.added or difference.removed:
        if isinstance(difference.a, list) and isinstance(difference.b, list) and difference.a and difference.b:
            # Both long lists: show what differs, not fifteen shared CPU flags twice.
            common = len(difference.a) - len(difference.removed)
            return (difference.path, f"only here: {human_value(difference.removed)}",
                    f"only here: {human_value(difference.added)} ({common} in common)")
    return (difference.path, _fact_cell(difference.a, difference.path, absent),
            _fact_cell(difference.b, difference.path, absent))


def fact_tables(comparison: Comparison) -> list[Section]:
    facts = comparison.facts
    differing = Section("Facts that differ", header=("Fact", "A", "B"), rows=[_difference_row(d) for d in facts.differences])
    if not facts.differences:
        differing.note = "no fact recorded on both sides differs"
    tables = [differing]
    if facts.one_sided:
        rows = []
        for item in facts.one_sided:
            value = _fact_cell(item.value, item.path, "")
            listed = item.missing_reason.startswith("not listed")
            missing = "not listed" if listed else f"unavailable: {item.missing_reason}"
            rows.append((item.path, value, missing) if item.side == "a" else (item.path, missing, value))
        table = Section("Facts recorded on one side only (not differences)", header=("Fact", "A", "B"), rows=rows)
        tables.append(footnote_reasons(table, [2 if item.side == "a" else 1 for item in facts.one_sided]))
    if facts.not_compared:
        tables.append(Section("Facts not compared", header=("Fact", "Why"), rows=[(n.path, n.reason) for n in facts.not_compared]))
    return tables


def verdict_text(change: MeasurementChange) -> str:
    # Without a ratio the amount comes from bounds ("GPU never wins up to N"): it is the least the change can be.
    at_least = "at least " if change.ratio is None else ""
    if change.verdict == "worse":
        text = f"worse by {at_least}{change.worse_by:.0%}" if change.worse_by is not None else "worse"
    elif change.verdict == "better":
        text = f"better by {at_least}{-change.worse_by:.0%}" if change.worse_by is not None else "better"
    elif change.verdict == "similar" and change.higher_is_better is not None:
        text = "similar"
    else:
        text = change.verdict
    return f"{text} (noisy)" if change.noisy else text


_VERDICT_ORDER = {"worse": 0, "better": 1, "changed": 2, "unclear": 3, "similar": 4}


def _ratio(change: MeasurementChange) -> str:
    return f"{change.ratio:.2f}x" if change.ratio is not None else ""


def measurement_tables(comparison: Comparison) -> list[Section]:
    if comparison.measurements_note:
        return [Section("Measurements", header=("Measurement", "A", "B"), note=comparison.measurements_note)]
    tables: dict[str, Section] = {}
    one_sided = [m for m in comparison.measurements if m.verdict in ("only_a", "only_b")]
    # Within a table, what changed comes first: a worse number must not hide in row 30 of a folded table.
    for change in sorted(comparison.measurements, key=lambda c: _VERDICT_ORDER.get(c.verdict, len(_VERDICT_ORDER))):
        if change.verdict in ("only_a", "only_b"):
            continue
        table = tables.setdefault(change.group, Section(change.group, header=("Measurement", "A", "B", "B/A", "Verdict", "Note")))
        table.rows.append((change.name, change.a_text, change.b_text, _ratio(change), verdict_text(change), change.note))
    result = list(tables.values())
    if "Crossover sizes" in tables:
        tables["Crossover sizes"].note = "smallest size from which the GPU beats the CPU: smaller is better"
    if one_sided:
        result.append(_one_sided_measurements(one_sided))
    return result


def _one_sided_measurements(changes: list[MeasurementChange]) -> Section:
    table = Section("Measured on one side only", header=("Measurement", "A", "B"),
                    rows=[(f"{c.group}: {c.name}", c.a_text, c.b_text) for c in changes])
    return footnote_reasons(table, [1 if c.verdict == "only_b" else 2 for c in changes])


def footnote_reasons(table: Section, reason_columns: list[int]) -> Section:
    """Replace a why-missing text repeated down the table by "[n]", with the text once in the note.

    ``reason_columns`` names, row by row, the cell that says why a value is missing. A CPU-only machine
    misses every GPU number for one reason: saying it sixty times would hide the numbers.
    """
    counts = Counter(row[column] for row, column in zip(table.rows, reason_columns, strict=True))
    marks: dict[str, str] = {}
    for text, count in counts.items():
        if count > 1 and len(text) > 12:
            marks[text] = f"[{len(marks) + 1}]"
    rows = []
    for row, column in zip(table.rows, reason_columns, strict=True):
        cells = list(row)
        cells[column] = marks.get(cells[column], cells[column])
        rows.append(tuple(cells))
    table.rows = rows
    table.note = "; ".join(filter(None, [table.note, *(f"{mark} {text}" for text, mark in marks.items())]))
    return table


def finding_row(change: FindingChange) -> tuple[str, str, str, str]:
    before, after = (s.value if s else "?" for s in (change.severity_a, change.severity_b))
    if change.change == "persists" and before != after:
        severity = f"{before} -> {after}"
    else:
        severity = after if change.severity_b else before
    where = f" (GPU {change.gpu_index})" if change.gpu_index is not None else ""
    if change.location:
        where = f" ({change.location})"
    about = change.title
    if _undecided(change):
        about += f" -- {change.undecided_reason}"
    return change_label(change), severity, f"{change.rule_id}{where}", about


def finding_table(comparison: Comparison) -> Section:
    table = Section("Findings", header=("Change", "Severity", "Rule", "What"), rows=[finding_row(f) for f in comparison.findings])
    if not comparison.findings:
        table.note = "no findings on either side"
    return table
