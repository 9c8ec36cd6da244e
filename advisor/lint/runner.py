"""Run the checks: over one SourceUnit, over text, or over the files and folders a user names."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from functools import partial
from typing import Iterable, Optional

from advisor.lint.context import FileContext
from advisor.lint.discover import discover
from advisor.lint.machine import Machine
from advisor.lint.model import CheckInfo, Hit, LintFinding, LintRun, Note
from advisor.lint.parallel import map_in_order, workers_for
from advisor.lint.registry import GPU_COST_CHECKS, SYNTAX_ERROR, all_checks, selected_ids
from advisor.lint.source import SkipFile, SourceUnit, notebook_unit, parse_unit, python_unit, read_source
from advisor.lint.suppress import find_suppressions, is_suppressed


def lint_paths(paths: list[str], select: Optional[Iterable[str]] = None,
               ignore: Optional[Iterable[str]] = None, machine: Optional[Machine] = None,
               jobs: Optional[int] = None) -> LintRun:
    """Lint files and folders. Raises discover.MissingPath and registry.UnknownCheck (bad usage).
    ``machine``: this machine's measurements (machine.load_machine), quoted in messages where they apply.
    ``jobs``: processes to use (1: this one only; None: one per core for a project of many files)."""
    ids = selected_ids(select, ignore)
    files = list(discover(paths))
    task = partial(_lint_file, ids=ids, machine=machine)
    run = LintRun()
    for findings, notes, lines in map_in_order(task, files, workers_for(len(files), jobs)):
        run.findings.extend(findings)
        run.notes.extend(notes)
        if lines is not None:
            run.files_checked += 1
            run.lines_checked += lines
    run.findings.sort(key=LintFinding.sort_key)
    return run


def _lint_file(file: tuple, ids: set[str], machine: Optional[Machine]) -> tuple[list, list, Optional[int]]:
    """One discovered file: its findings, notes and line count (None: skipped, not checked)."""
    path, display = file
    try:
        unit = read_source(path, display)
    except SkipFile as skip:
        return [], [Note(display, skip.reason)], None
    findings, notes = lint_unit(unit, ids, machine)
    return findings, notes, len(unit.lines)


def lint_text(text: str, path: str = "<string>", select: Optional[Iterable[str]] = None,
              ignore: Optional[Iterable[str]] = None, machine: Optional[Machine] = None) -> list[LintFinding]:
    """Lint Python source (or notebook JSON when ``path`` ends in .ipynb) held in memory."""
    ids = selected_ids(select, ignore)
    if path.endswith(".ipynb"):
        unit = notebook_unit(text.encode("utf-8"), path)
    else:
        unit = python_unit(text, path)
    return sorted(lint_unit(unit, ids, machine)[0], key=LintFinding.sort_key)


def lint_unit(unit: SourceUnit, ids: set[str],
              machine: Optional[Machine] = None) -> tuple[list[LintFinding], list[Note]]:
    with _collector_paused():
        return _lint_parsed(unit, ids, machine)


@contextmanager
def _collector_paused():
    """A file's syntax tree and its analyses are hundreds of thousands of objects that all live until the file is
    done; the cyclic garbage collector walks them again and again meanwhile (about a third of the time on a
    10,000-line module) and finds next to nothing to free -- reference counting frees the rest. Paused for one
    file; whatever cycles the file left behind are collected once it is switched back on."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _lint_parsed(unit: SourceUnit, ids: set[str], machine: Optional[Machine]) -> tuple[list[LintFinding], list[Note]]:
    tree, problems = parse_unit(unit)
    findings: list[tuple[LintFinding, tuple[int, int]]] = []  # with its lines in the parsed text
    notes: list[Note] = []
    if SYNTAX_ERROR.id in ids:
        for problem in problems:
            hit = Hit(problem.message, line=problem.line, column=problem.column - 1)
            findings.append(_finding(unit, SYNTAX_ERROR, hit))
    if tree is None or not _mentions_gpu(unit.text):
        return [finding for finding, _ in findings], notes  # no torch, no CUDA: nothing here to check
    try:
        ctx = FileContext(unit, tree, machine or Machine())
    except RecursionError:
        notes.append(Note(unit.path, "skipped: nested too deeply to analyse"))
        return [finding for finding, _ in findings], notes
    except Exception as exc:  # a bug of ours must not cost the user the other files: say so and go on
        notes.append(Note(unit.path, f"skipped: internal error in the analysis ({type(exc).__name__}: {exc})"))
        return [finding for finding, _ in findings], notes
    for check in all_checks():
        if check.INFO.id not in ids or (check.INFO.id in GPU_COST_CHECKS and not ctx.shows_cuda):
            continue
        try:
            hits = list(check.run(ctx))
        except RecursionError:
            notes.append(Note(unit.path, f"{check.INFO.id} skipped: nested too deeply to analyse"))
            continue
        except Exception as exc:  # same: report it as a note, keep the other checks' findings
            notes.append(Note(unit.path, f"{check.INFO.id} skipped: internal error ({type(exc).__name__}: {exc})"))
            continue
        hits = [hit for hit in hits if not ctx.dead_lines.hides(check.INFO.id, _hit_line(hit))]
        measured = getattr(check, "measured_cost", None)  # the cost in this machine's numbers, when known
        cost = measured(ctx.machine) if measured is not None else None
        findings.extend(_finding(unit, check.INFO, hit, cost) for hit in hits)
    suppressions = find_suppressions(unit.lines)
    kept, seen = [], set()
    for finding, joined_lines in findings:
        key = (finding.check_id, finding.cell, finding.line, finding.column)
        if key in seen or (suppressions and is_suppressed(finding.check_id, joined_lines, suppressions)):
            continue
        seen.add(key)
        kept.append(finding)
    return kept, notes


def _hit_line(hit: Hit) -> int:
    return hit.line if hit.line is not None else hit.node.lineno  # type: ignore[union-attr]


def _mentions_gpu(text: str) -> bool:
    """Every check needs torch or a CUDA switch somewhere in the file; most helper modules have neither. A
    snippet quoted without its imports still shows autograd (``loss.backward()``); a project's evaluation helper
    that imports nothing of torch still moves batches with ``.to(device)``; a Hugging Face script may import only
    transformers (``from_pretrained(..., device_map="auto")``), which runs on torch."""
    return "torch" in text or "cuda" in text.lower() or ".backward(" in text or ".to(device)" in text \
        or "transformers" in text


def _finding(unit: SourceUnit, info: CheckInfo, hit: Hit,
             cost: Optional[str] = None) -> tuple[LintFinding, tuple[int, int]]:
    node = hit.node
    first = hit.line
    if hit.line is not None:
        line, col, end_line, end_col = hit.line, hit.column or 0, None, None
    else:
        assert node is not None
        line, col = node.lineno, node.col_offset  # where the offending call starts (issue 12's line rule)
        first = node.lineno
        end_line, end_col = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
    cell, cell_line = unit.locate(line)
    end_cell_line = None
    column = unit.char_column(line, col)
    end_column = None
    if end_line is not None and end_col is not None:
        end_cell, end_cell_line = unit.locate(end_line)
        end_column = unit.char_column(end_line, end_col)
        if end_cell != cell:
            end_cell_line, end_column = None, None
    finding = LintFinding(
        check_id=info.id, title=info.title, path=unit.path, line=cell_line, column=column,
        end_line=end_cell_line, end_column=end_column, cell=cell, message=hit.message, cost=hit.cost or cost or info.cost,
        fix=hit.fix or info.fix, severity=hit.severity or info.severity, confidence=info.confidence,
        references=info.references, evidence=dict(hit.evidence))
    return finding, (first, end_line or line)
