"""Read what the linter checks -- Python files and Jupyter notebooks -- into one Python text each.

Limits: files over ``MAX_SOURCE_BYTES`` (notebooks: ``MAX_NOTEBOOK_BYTES``, their outputs embed images),
binary files (a NUL byte in the first 8 KiB), undecodable files and notebooks that are not JSON or not
Python are skipped with a reason (``SkipFile``), never half-read.

Notebook location scheme: the code cells of a notebook are joined, top to bottom, into one module,
because a kernel run top to bottom shares its state (a tensor moved to CUDA in cell 2 is still on CUDA
in cell 5). Every finding maps back to ``path:cellN:line:col``: N is the 1-based position of the cell
among ALL cells of the notebook (markdown cells count: it is the number you reach scrolling, and what
VS Code and JupyterLab show as "cell N"), line is 1-based inside that cell, col 1-based in characters.

IPython syntax is neutralised without moving any column: ``%magic`` / ``!shell`` lines become
``pass``; ``x = !cmd`` becomes ``x = None``; ``%time stmt`` / ``%timeit [-n N -r R] stmt`` become
``if 1: stmt`` padded to the same width (so the statement is still analysed, and the timing checks know
it is timed); a ``%%time``/``%%timeit`` cell keeps its body; any other ``%%cell`` magic (bash, html,
writefile, ...) is not Python and its cell is blanked. Each magic is kept in ``SourceUnit.magics``.
A cell with a syntax error is reported and blanked; the other cells are still checked.
"""

from __future__ import annotations

import ast
import bisect
import io
import json
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from advisor.lint.exported_magics import read_exported_magics
from advisor.safe_io import InputRefused, read_capped

MAX_SOURCE_BYTES = 2 * 1024 * 1024  # ~50k lines: anything larger is generated code, not a script
MAX_NOTEBOOK_BYTES = 32 * 1024 * 1024
_BINARY_SNIFF_BYTES = 8192

# Cell magics whose body is still Python (timed or captured); every other cell magic is another language.
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "memit", "mprun"})
_LINE_MAGIC = re.compile(r"^(\s*)(%{1,2}|!)")
_HELP_LINE = re.compile(r"^\s*(\?{1,2}[\w.]+|[\w.()]+\?{1,2})\s*$")
_TIMEIT_VALUE_OPTS = frozenset({"-n", "-r", "-p"})


class SkipFile(Exception):
    """This file is not checked; ``reason`` says why, in a few words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Magic:
    """An IPython magic found in a notebook, on a line of the joined module."""

    name: str  # "timeit", "env", "time", ... (the shell escape "!" is "!")
    args: str
    line: int  # line of the joined module
    column: int  # 0-based
    is_cell: bool = False
    body_first: int = 0  # for cell magics: the cell's body, lines of the joined module
    body_last: int = 0


@dataclass
class SyntaxProblem:
    line: int
    column: int  # 1-based
    message: str


@dataclass
class SourceUnit:
    path: str  # as the user wrote it (or relative to the directory they gave)
    text: str  # Python source; for notebooks the joined, neutralised code cells
    is_notebook: bool = False
    magics: list[Magic] = field(default_factory=list)
    # notebook only: (first joined line, last joined line, cell number) per code cell, in order
    cells: list[tuple[int, int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lines = self.text.splitlines()
        self._cell_firsts = [first for first, _, _ in self.cells]

    def locate(self, line: int) -> tuple[Optional[int], int]:
        """(cell number, line inside the cell) for a line of the joined module; (None, line) for .py files."""
        if not self.is_notebook or not self.cells:
            return None, line
        index = max(bisect.bisect_right(self._cell_firsts, line) - 1, 0)
        first, _, cell = self.cells[index]
        return cell, line - first + 1

    def char_column(self, line: int, col_offset: int) -> int:
        """1-based character column from ast's 0-based UTF-8 byte offset."""
        if 1 <= line <= len(self.lines):
            text = self.lines[line - 1]
            if not text.isascii():
                return len(text.encode("utf-8")[:col_offset].decode("utf-8", errors="replace")) + 1
        return col_offset + 1


def read_source(path: Path, display: str) -> SourceUnit:
    """Read one file into a SourceUnit, or raise SkipFile with the reason it cannot be checked."""
    is_notebook = path.suffix.lower() == ".ipynb"
    limit = MAX_NOTEBOOK_BYTES if is_notebook else MAX_SOURCE_BYTES
    try:
        # Regular files only, opened without blocking, and never more than the limit read: a FIFO, a device
        # such as /dev/zero or a file that grows while read is a note, not a hang.
        data = read_capped(path, limit)
    except InputRefused as exc:
        raise SkipFile(f"skipped: {exc}") from None
    if b"\0" in data[:_BINARY_SNIFF_BYTES]:
        raise SkipFile("skipped: binary file")
    if is_notebook:
        return notebook_unit(data, display)
    return python_unit(_decode_python(data), display)


def python_unit(text: str, display: str) -> SourceUnit:
    """A Python file's unit: line magics of a notebook exported as .py are read back as magics."""
    text, magics = read_exported_magics(text, _neutralise_line)
    return SourceUnit(path=display, text=text, magics=magics)


def _decode_python(data: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding).removeprefix("\ufeff")
    except (SyntaxError, LookupError, UnicodeDecodeError) as exc:
        raise SkipFile(f"skipped: not readable as Python text ({exc})") from None


def notebook_unit(data: bytes, display: str) -> SourceUnit:
    """The notebook's code cells as one module. Any shape that is not a notebook (metadata a list, a cell
    source of numbers, JSON nested a million deep) is a SkipFile for this file, never an error of the run."""
    try:
        return _notebook_unit(data, display)
    except SkipFile:
        raise
    except RecursionError:
        raise SkipFile("skipped: not a notebook (JSON nested too deeply)") from None
    except (ValueError, TypeError, AttributeError, KeyError, IndexError, MemoryError) as exc:
        raise SkipFile(f"skipped: not a notebook ({type(exc).__name__}: {str(exc)[:200]})") from None


def _notebook_unit(data: bytes, display: str) -> SourceUnit:
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SkipFile(f"skipped: not a notebook (invalid JSON: {exc})") from None
    if not isinstance(notebook, dict):
        raise SkipFile("skipped: not a notebook (no top-level JSON object)")
    language = _notebook_language(notebook)
    if language and language != "python":
        raise SkipFile(f"skipped: notebook language is {language}, not Python")
    cells = notebook.get("cells")
    if cells is None:  # nbformat 3 keeps cells under worksheets
        sheets = notebook.get("worksheets")
        sheets = sheets if isinstance(sheets, list) else []
        cells = [cell for sheet in sheets if isinstance(sheet, dict)
                 for cell in (sheet.get("cells") if isinstance(sheet.get("cells"), list) else [])]
    if not isinstance(cells, list):
        raise SkipFile("skipped: not a notebook (no list of cells)")
    out_lines: list[str] = []
    spans: list[tuple[int, int, int]] = []
    magics: list[Magic] = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        text = _cell_text(cell.get("source", cell.get("input", "")))
        first = len(out_lines) + 1
        lines = _neutralise_cell(text.splitlines(), first, magics)
        out_lines.extend(lines or [""])
        spans.append((first, len(out_lines), number))
    return SourceUnit(path=display, text="\n".join(out_lines) + "\n", is_notebook=True, magics=magics,
                      cells=spans)


def _cell_text(source: object) -> str:
    """A cell's source: a string or a list of strings; anything else in it is not code (and is dropped)."""
    if isinstance(source, str):
        return source
    if isinstance(source, list):
        return "".join(part for part in source if isinstance(part, str))
    return ""


def _notebook_language(notebook: dict) -> str:
    metadata = notebook.get("metadata")
    if not isinstance(metadata, dict):
        return ""
    for key, field_name in (("kernelspec", "language"), ("language_info", "name")):
        section = metadata.get(key)
        value = section.get(field_name) if isinstance(section, dict) else None
        if isinstance(value, str) and value:
            return value.lower()
    return ""


def _neutralise_cell(lines: list[str], first: int, magics: list[Magic]) -> list[str]:
    """Rewrite IPython-only syntax so the cell parses, keeping every line and column where it was."""
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is not None and lines[start].lstrip().startswith("%%"):
        name, _, args = lines[start].strip()[2:].partition(" ")
        magics.append(Magic(name, args.strip(), first + start, 0, is_cell=True,
                            body_first=first + start + 1, body_last=first + len(lines) - 1))
        if name not in _PYTHON_CELL_MAGICS:
            return [""] * len(lines)  # another language: nothing here is Python
        lines = list(lines)
        lines[start] = ""
    return [_neutralise_line(line, first + i, magics) for i, line in enumerate(lines)]


def _neutralise_line(line: str, number: int, magics: list[Magic]) -> str:
    match = _LINE_MAGIC.match(line)
    if match is None:
        assigned = _assigned_magic(line)
        if assigned and not line.lstrip().startswith("#"):
            lhs, rhs = assigned
            magics.append(Magic(rhs[1:].split(" ")[0] if rhs[0] == "%" else "!", rhs, number, len(lhs)))
            return lhs + "None" + " " * max(len(rhs) - 4, 0)
        if _HELP_LINE.match(line):
            return line[: len(line) - len(line.lstrip())] + "pass"
        return line
    indent, sigil = match.groups()
    body = line[len(indent) + len(sigil):]
    if sigil == "!":
        magics.append(Magic("!", body.strip(), number, len(indent)))
        return indent + "pass"
    name, _, args = body.partition(" ")
    magics.append(Magic(name, args.strip(), number, len(indent)))
    if name in ("time", "timeit"):
        statement_at = _timed_statement_offset(body)
        if statement_at is not None:
            prefix_width = len(sigil) + statement_at
            return indent + "if 1:".ljust(prefix_width) + body[statement_at:]
    return indent + "pass"


def _is_target_char(char: str) -> bool:
    return char.isalnum() or char in "_.[], "


def _assigned_magic(line: str) -> Optional[tuple[str, str]]:
    """``x = %magic args`` / ``files = !ls`` split into (everything up to the magic, the magic), else None.

    What the regex ``^(\\s*[\\w.\\[\\], ]+\\s*=\\s*)([%!].*)$`` said, in one pass: that regex backtracked
    cubically on a long run of spaces (a 4 KB notebook line took minutes).
    """
    equals = line.find("=")
    if equals <= 0:
        return None
    head = line[:equals]
    middle = head.strip()
    if not all(_is_target_char(char) for char in middle):
        return None
    if not middle and " " not in head:  # the target needs one character of its class; a space is one
        return None
    rest = line[equals + 1:]
    rhs = rest.lstrip()
    if not rhs or rhs[0] not in "%!" or "\n" in rhs or "\r" in rhs:
        return None
    return line[: len(line) - len(rhs)], rhs


def _timed_statement_offset(body: str) -> Optional[int]:
    """Where the statement starts in ``timeit -n 10 -r 3 f(x)`` (None if there is no statement)."""
    position = len(body.split(" ")[0])
    tokens = re.finditer(r"\S+", body[position:])
    expect_value = False
    for token in tokens:
        text = token.group()
        if expect_value:
            expect_value = False
            continue
        if text.startswith("-"):
            expect_value = text in _TIMEIT_VALUE_OPTS
            continue
        offset = position + token.start()
        return offset if offset >= 4 else None  # "if 1:" must fit in "%" + what it replaces
    return None


def parse_unit(unit: SourceUnit) -> tuple[Optional[ast.Module], list[SyntaxProblem]]:
    """Parse; in a notebook a cell that does not parse is reported, blanked, and the rest parsed again."""
    problems: list[SyntaxProblem] = []
    text = unit.text
    for _ in range(len(unit.cells) + 1):
        try:
            return ast.parse(text, filename=unit.path), problems
        except SyntaxError as exc:
            line = exc.lineno or 1
            problems.append(SyntaxProblem(line, max(exc.offset or 1, 1), f"syntax error: {exc.msg}"))
        except (ValueError, RecursionError, MemoryError) as exc:
            problems.append(SyntaxProblem(1, 1, f"cannot parse: {type(exc).__name__}: {exc}"))
            return None, problems
        span = next(((first, last) for first, last, _ in unit.cells if first <= line <= last), None)
        if not unit.is_notebook or span is None:
            return None, problems
        lines = text.split("\n")
        lines[span[0] - 1: span[1]] = [""] * (span[1] - span[0] + 1)
        text = "\n".join(lines)
    return None, problems
