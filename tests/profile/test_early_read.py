"""The parent reads the trace while the program exits (advisor/profile/early_read.py), with a real CPU program
whose own atexit handler makes its exit slow: the report still waits for the program, its handler runs, the
reading is done by the time the program is gone, and an exit that never ends is stopped at --timeout with the
recorded window still reported."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

from advisor.models.load import load_report_json
from tests.profile.child_env import child_env

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = Path(__file__).resolve().parent / "programs" / "slow_exit.py"
FAST = ["--warmup-steps", "1", "--steps", "3", "--baseline-steps", "2", "--max-overhead", "50"]


def profile(tmp_path: Path, *args: str, exit_seconds: float) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "advisor", "profile", *FAST, "-q", "--log", str(tmp_path / "log"), "-f", "json",
               "-o", str(tmp_path / "r.json"), *args, "--", str(PROGRAM), str(tmp_path), str(exit_seconds)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, env=child_env())


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_trace_is_read_while_the_program_exits_and_its_exit_is_waited_for(tmp_path: Path) -> None:
    result = profile(tmp_path, "--trace-out", str(tmp_path / "trace"), exit_seconds=3)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "exited").read_text() == "done"  # the program's own atexit handler ran to its end
    assert gone(int((tmp_path / "pid").read_text()))
    report = load_report_json((tmp_path / "r.json").read_text(), "r.json")
    run = report.profile.run
    assert run.outcome == "stopped" and run.exit_code == 0 and report.profile.steps_recorded == 3
    # The phases are a timeline: the program's own atexit handler slept 3 s after the child's exit began
    # (status.json written, "child-exit"), and reading and compressing the trace ended inside those 3 s.
    phases = list(run.phases_s)
    order = ["child-exit", "threads-joined", "atexit-done", "child-exited", "summarised"]
    assert [phases.index(name) for name in order] == sorted(phases.index(name) for name in order), phases
    assert phases.index("threads-joined") < phases.index("trace-read") < phases.index("atexit-done")
    assert phases.index("threads-joined") < phases.index("trace-compressed") < phases.index("atexit-done")
    in_handlers = phases[phases.index("threads-joined") + 1:phases.index("atexit-done") + 1]
    assert 2.9 <= sum(run.phases_s[name] for name in in_handlers) < 60
    with gzip.open(tmp_path / "trace" / "gpu_advisor.pt.trace.json.gz", "rt") as handle:
        assert any(event.get("cat") == "cpu_op" for event in json.load(handle)["traceEvents"])
    assert json.loads((tmp_path / "trace" / "gpu_advisor_run.json").read_text())["run"]["outcome"] == "stopped"


def test_an_exit_that_never_ends_is_stopped_at_the_timeout_and_the_window_still_reported(tmp_path: Path) -> None:
    result = profile(tmp_path, "--timeout", "25", "--trace-out", str(tmp_path / "trace"), exit_seconds=600)
    assert result.returncode == 0, result.stderr
    assert gone(int((tmp_path / "pid").read_text())) and not (tmp_path / "exited").exists()
    report = load_report_json((tmp_path / "r.json").read_text(), "r.json")
    assert report.profile.run.outcome == "timed-out" and report.profile.steps_recorded == 3
    assert "trace-read" in report.profile.run.phases_s
    assert (tmp_path / "trace" / "gpu_advisor.pt.trace.json.gz").is_file()
