"""Reading files: notebooks (cells, magics, per-cell syntax errors), limits, encodings, skips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.lint import lint_paths, lint_text
from advisor.lint.source import MAX_SOURCE_BYTES, SkipFile, SourceUnit, notebook_unit, read_source


def notebook(*cells, language="python") -> str:
    return json.dumps({
        "cells": [{"cell_type": kind, "metadata": {}, "source": text} for kind, text in cells],
        "metadata": {"kernelspec": {"language": language, "name": "k"}}, "nbformat": 4, "nbformat_minor": 5})


def test_notebook_cells_are_one_module_and_findings_map_back_to_cells():
    text = notebook(("markdown", "# title"), ("code", "import torch\nx = torch.randn(3).cuda()"),
                    ("code", "for i in range(50):\n    y = x * i\n    print(y.sum().item())"))
    found = lint_text(text, path="nb.ipynb")
    assert [(f.cell, f.line, f.column, f.check_id) for f in found] == [(2, 2, 5, "GA104"), (3, 3, 11, "GA103")]
    assert found[0].location == "nb.ipynb:cell2:2:5"


def test_magics_keep_columns_and_timed_lines_are_checked():
    text = notebook(("code", "import torch\n%matplotlib inline\nfiles = !ls\nx = torch.ones(9, device='cuda')"),
                    ("code", "%timeit -n 5 -r 2 x @ x"), ("code", "%%bash\necho hi"),
                    ("code", "%%time\ny = x @ x\ntorch.cuda.synchronize()"))
    unit = notebook_unit(text.encode(), "nb.ipynb")
    assert "if 1:" in unit.text and "files = None" in unit.text and "echo" not in unit.text
    assert [m.name for m in unit.magics] == ["matplotlib", "!", "timeit", "bash", "time"]
    found = lint_text(text, path="nb.ipynb")
    assert [(f.cell, f.line, f.column, f.check_id) for f in found] == [(2, 1, 1, "GA101")]


def test_a_cell_with_a_syntax_error_is_reported_and_the_others_still_checked():
    text = notebook(("code", "import torch\nx = torch.randn(2).cuda()"), ("code", "def broken(:\n    pass"),
                    ("code", "z = torch.ones(3).to('cuda')"))
    found = lint_text(text, path="nb.ipynb")
    assert [(f.cell, f.line, f.check_id) for f in found] == [(1, 2, "GA104"), (2, 1, "GA000"), (3, 1, "GA104")]


def test_a_python_file_with_a_syntax_error_is_reported_and_other_files_checked(tmp_path):
    (tmp_path / "bad.py").write_text("import torch\nif True\n    pass\n")
    (tmp_path / "good.py").write_text("import torch\nx = torch.randn(3).cuda()\n")
    run = lint_paths([str(tmp_path)])
    assert [(Path(f.path).name, f.line, f.check_id) for f in run.findings] == [("bad.py", 2, "GA000"),
                                                                              ("good.py", 2, "GA104")]
    assert run.files_checked == 2


def test_binary_huge_unreadable_and_foreign_files_are_skipped_with_a_note(tmp_path):
    (tmp_path / "blob.py").write_bytes(b"\x00\x01\x02" * 100)
    (tmp_path / "huge.py").write_text("x = 1\n" * (MAX_SOURCE_BYTES // 6 + 10))
    (tmp_path / "r.ipynb").write_text(notebook(("code", "x <- 1"), language="R"))
    (tmp_path / "broken.ipynb").write_text("{not json")
    (tmp_path / "latin.py").write_bytes("# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n".encode("latin-1"))
    run = lint_paths([str(tmp_path)])
    reasons = {Path(n.path).name: n.reason for n in run.notes}
    assert "binary" in reasons["blob.py"]
    assert "limit" in reasons["huge.py"]
    assert "language is r" in reasons["r.ipynb"]
    assert "invalid JSON" in reasons["broken.ipynb"]
    assert "latin.py" not in reasons and run.files_checked == 1


def test_unreadable_file(tmp_path, monkeypatch):
    target = tmp_path / "secret.py"
    target.write_text("x = 1\n")

    import advisor.safe_io as safe_io

    real_open = safe_io.os.open

    def deny(path, *args, **kwargs):
        if str(path) == str(target):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(safe_io.os, "open", deny)
    with pytest.raises(SkipFile, match="Permission denied"):
        read_source(target, "secret.py")


def test_directories_skip_virtualenvs_and_hidden_folders(tmp_path):
    (tmp_path / "venv").mkdir()
    (tmp_path / "venv" / "pyvenv.cfg").write_text("home = /usr\n")
    (tmp_path / "venv" / "lib.py").write_text("import torch\nx = torch.randn(3).cuda()\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.py").write_text("import torch\nx = torch.randn(3).cuda()\n")
    (tmp_path / "notes.txt").write_text("not python")
    (tmp_path / "train.py").write_text("print('hi')\n")
    run = lint_paths([str(tmp_path)])
    assert run.files_checked == 1 and not run.findings


def test_columns_count_characters_not_bytes():
    found = lint_text("import torch\nétiquette = 'é'; x = torch.randn(3).cuda()\n")
    assert found[0].column == len("étiquette = 'é'; x = ") + 1


def test_python_310_syntax_is_handled():
    code = ("import torch\n"
            "def f(cmd):\n"
            "    match cmd:\n"
            "        case {'device': dev}:\n"
            "            return torch.randn(3).to(dev)\n"
            "        case _:\n"
            "            return (y := torch.randn(2).cuda())\n")
    # (session 17: `dev`, captured from the "device" key, names a device too -- its random fill is a copy as well)
    assert [(f.line, f.check_id) for f in lint_text(code)] == [(5, "GA104"), (7, "GA104")]


def test_source_unit_locate_for_plain_files():
    unit = SourceUnit("a.py", "x = 1\n")
    assert unit.locate(1) == (None, 1)
