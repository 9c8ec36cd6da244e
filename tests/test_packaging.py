"""The wheel ships the rules: a non-editable install must find them inside the package."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_wheel_contains_every_rule_next_to_the_code(tmp_path):
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(REPO)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    wheel = next(tmp_path.glob("gpu_advisor-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {n.split("advisor/_rules/", 1)[1] for n in names if "advisor/_rules/" in n}
    in_repo = {str(p.relative_to(REPO / "rules")) for p in (REPO / "rules").rglob("*.yaml")}
    assert shipped == in_repo
    # The public tables explain reads (GPU names, drivers, torch wheels) ship inside the package too.
    tables = {f"advisor/knowledge/{p.name}" for p in (REPO / "advisor" / "knowledge").glob("*.yaml")}
    assert tables and tables <= set(names)
    assert any(n.endswith("entry_points.txt") for n in names)
    entry_points = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "gpu-advisor = advisor.cli.entry:run" in entry_points
