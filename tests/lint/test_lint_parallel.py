"""Linting a folder on several processes gives exactly what one process gives (advisor/lint/parallel.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from advisor.lint import lint_paths
from advisor.lint.parallel import MIN_FILES_PER_WORKER, map_in_order, workers_for

CORPUS = Path(__file__).resolve().parent.parent / "lint_corpus" / "scripts"


def _project(root: Path, copies: int) -> Path:
    project = root / "project"
    project.mkdir()
    for copy in range(copies):
        for source in sorted(CORPUS.glob("*.py")):
            shutil.copyfile(source, project / f"{source.stem}_{copy}.py")
    (project / "broken.py").write_text("def f(:\n")  # a syntax error travels back from a worker too
    (project / "binary.py").write_bytes(b"\x00\xff\xfe")  # a file skipped with a note
    return project


def _summary(run) -> tuple:
    return ([(f.path, f.line, f.column, f.check_id, f.message) for f in run.findings],
            sorted((n.path, n.reason) for n in run.notes), run.files_checked, run.lines_checked)


def test_two_processes_find_what_one_does(tmp_path):
    project = _project(tmp_path, 2)
    one = lint_paths([str(project)], jobs=1)
    two = lint_paths([str(project)], jobs=2)
    assert one.findings and one.notes
    assert _summary(two) == _summary(one)


@pytest.mark.parametrize("files,jobs,expected", [(3, None, 1), (3, 8, 3), (100, 1, 1), (0, None, 1)])
def test_workers_for(files, jobs, expected):
    assert workers_for(files, jobs) == expected


def test_a_few_files_stay_in_this_process():
    assert workers_for(MIN_FILES_PER_WORKER - 1, None) == 1


def _pid(_: int) -> int:
    import os

    return os.getpid()


def test_the_work_runs_in_other_processes():
    """Not a silent fallback: with two workers the items are handled outside this process."""
    import os

    pids = list(map_in_order(_pid, list(range(16)), 2))
    assert len(pids) == 16 and os.getpid() not in pids
