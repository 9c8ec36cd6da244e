"""IPython line magics in a notebook exported as a .py file (``jupyter nbconvert --to script``).

The export writes ``%timeit a @ b`` as ``get_ipython().run_line_magic('timeit', 'a @ b')``: a call whose
statement hides in a string, so nothing in it is analysed (the tensors it uses look unused; the timing is not
seen). Each such line is read back as the magic it was and neutralised as a notebook's line is (source.py):
``%timeit a @ b`` becomes ``if 1: a @ b``, the magic kept in ``SourceUnit.magics``. Line numbers are kept;
columns inside the rewritten line move. Cell magics (``run_cell_magic``) span one line in the export but
several in the notebook, and are left as they are.
"""

from __future__ import annotations

import ast
import re

# The call up to its first argument; the rest of the line is cut by hand (a lazy group before `\s*\)\s*$` would
# backtrack quadratically on a long run of spaces).
_EXPORTED = re.compile(r"^(\s*)get_ipython\(\)\.run_line_magic\(\s*(['\"])(\w+)\2\s*,")


def read_exported_magics(text: str, neutralise) -> tuple[str, list]:
    """The text with each exported line magic neutralised, and the magics (``neutralise``: source.py's
    line rewriter, handed in to keep one definition of what a magic line becomes)."""
    if "get_ipython()" not in text:
        return text, []
    magics: list = []
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        match = _EXPORTED.match(line)
        if match is None:
            continue
        indent, _, name = match.groups()
        rest = line[match.end():].rstrip()
        if not rest.endswith(")"):
            continue
        argument = rest[:-1].strip()
        try:
            args = ast.literal_eval(argument)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        if not isinstance(args, str) or "\n" in args:
            continue
        lines[number - 1] = neutralise(f"{indent}%{name} {args}".rstrip(), number, magics)
    return "\n".join(lines), magics
