"""The parent side: start the user's program under the bootstrap, wait (with a timeout), forward Ctrl-C,
and leave nothing running.

The child gets its own session (process group), so its DataLoader workers can be stopped with it; Ctrl-C in
the terminal reaches only this process, which passes it on as SIGINT, as the program would have received it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from advisor.profile.early_read import TRACE_DONE, EarlyRead

BOOTSTRAP = Path(__file__).resolve().parent / "bootstrap.py"
#: The child's marks of its own exit, written by bootstrap.py (EXIT_MARKS there) after status.json.
EXIT_MARKS = "exit_marks.jsonl"
#: How long a program gets to finish after SIGINT (its own cleanup, a checkpoint) before it is killed.
INTERRUPT_GRACE_S = 10.0


class ProgramNotFound(ValueError):
    """The script or module to profile does not exist: bad input."""


@dataclass(frozen=True)
class Target:
    kind: str  # "path" | "module"
    name: str
    args: list[str]
    interpreter: str = sys.executable

    @property
    def display(self) -> str:
        head = f"-m {self.name}" if self.kind == "module" else self.name
        return " ".join([head, *self.args])


@dataclass(frozen=True)
class WindowPlan:
    warmup_steps: int = 3
    steps: int = 5
    baseline_steps: int = 5
    wait_seconds: float = 15.0
    seconds: float = 0.5
    stop_after: bool = True
    with_stack: bool = True


@dataclass
class RunOutcome:
    status: dict[str, Any]
    window: Optional[dict[str, Any]]
    trace_path: Optional[Path]
    workdir: Path
    wall_s: float
    timed_out: bool = False
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    #: (phase, time.monotonic()) from the spawn to the child's exit, the child's own in between (its clock is
    #: the same): where a profile run's time goes, besides the program's own.
    phases: list[tuple[str, float]] = field(default_factory=list)

    def cleanup(self) -> None:
        shutil.rmtree(self.workdir, ignore_errors=True)


def parse_target(command: list[str]) -> Target:
    """``[python] script.py ARGS`` or ``[python] -m pkg.mod ARGS`` -> Target (ProgramNotFound if missing)."""
    if not command:
        raise ProgramNotFound("no program given (gpu-advisor profile -- python train.py ARGS)")
    interpreter = sys.executable
    first = os.path.basename(command[0])
    if first.startswith("python") and not first.endswith(".py"):
        interpreter = shutil.which(command[0]) or command[0]
        command = command[1:]
    if command[:1] == ["-m"]:
        if len(command) < 2:
            raise ProgramNotFound("-m needs a module name")
        return Target("module", command[1], command[2:], interpreter)
    if not command:
        raise ProgramNotFound("no script given after the interpreter")
    script = command[0]
    if not os.path.isfile(script):
        raise ProgramNotFound(f"{script}: no such file")
    return Target("path", script, command[1:], interpreter)


def user_roots(target: Target) -> list[str]:
    """Folders whose files count as the user's own code (for source lines): the script's folder, or the cwd."""
    if target.kind == "path":
        return [os.path.dirname(os.path.abspath(target.name))]
    return [os.getcwd()]


def run_program(target: Target, plan: WindowPlan, *, timeout_s: Optional[float],
                quiet_log: Optional[Path] = None, early: Optional[EarlyRead] = None) -> RunOutcome:
    """Run the program under the bootstrap until it exits (or is stopped); ``early``'s tasks start on the trace
    as soon as the child marks it final, while this waits for the child as it would without them."""
    workdir = Path(tempfile.mkdtemp(prefix="gpu-advisor-profile-"))
    config = {"out_dir": str(workdir), "user_roots": user_roots(target),
              "target": {"kind": target.kind, "name": target.name, "args": target.args},
              "warmup_steps": plan.warmup_steps, "steps": plan.steps, "baseline_steps": plan.baseline_steps,
              "wait_seconds": plan.wait_seconds, "seconds": plan.seconds, "stop_after": plan.stop_after,
              "with_stack": plan.with_stack, "trace_done": str(workdir / TRACE_DONE)}
    config_path = workdir / "config.json"
    config_path.write_text(json.dumps(config), encoding="utf-8")
    # The bootstrap runs by file path, with the user's environment untouched: putting gpu-advisor's own
    # site-packages on PYTHONPATH could hand the program another torch than its interpreter's.
    env = dict(os.environ)
    sink = open(quiet_log, "w", encoding="utf-8") if quiet_log else None  # noqa: SIM115 - closed below
    started = time.perf_counter()
    outcome = RunOutcome(status={}, window=None, trace_path=None, workdir=workdir, wall_s=0.0,
                         phases=[("spawn", time.monotonic())])
    try:
        process = subprocess.Popen([target.interpreter, str(BOOTSTRAP), str(config_path)],
                                   env=env, start_new_session=True, stdout=sink, stderr=sink)
    except OSError as exc:
        if sink:
            sink.close()
        raise ProgramNotFound(f"{target.interpreter}: cannot start ({exc.strerror or exc})") from None
    if early is not None:
        early.watch(workdir / TRACE_DONE, workdir / "trace.json")
    try:
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            outcome.timed_out = True
            _stop(process, signal.SIGINT, grace_s=5.0)
        except KeyboardInterrupt:
            outcome.interrupted = True
            _stop(process, signal.SIGINT, grace_s=INTERRUPT_GRACE_S)
    finally:
        _kill_group(process)
        if early is not None:
            early.child_gone()
        if sink:
            sink.close()
    outcome.wall_s = time.perf_counter() - started
    exited = ("child-exited", time.monotonic())
    outcome.status = _read_json(workdir / "status.json") or {"outcome": "killed", "exit_code": process.returncode}
    outcome.status.setdefault("exit_code", process.returncode)
    outcome.phases += [(str(name), float(at)) for name, at in outcome.status.pop("phases", None) or []] + [exited]
    outcome.phases += _exit_marks(workdir / EXIT_MARKS)
    outcome.window = _read_json(workdir / "window.json")
    trace = workdir / "trace.json"
    outcome.trace_path = trace if trace.is_file() else None
    return outcome


def _stop(process: subprocess.Popen, first_signal: int, *, grace_s: float) -> None:
    """SIGINT (the program's own KeyboardInterrupt handling), then SIGTERM, then SIGKILL."""
    for sig, wait_s in ((first_signal, grace_s), (signal.SIGTERM, 3.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait_s)
            return
        except subprocess.TimeoutExpired:
            continue
        except KeyboardInterrupt:  # a second Ctrl-C: stop now
            break
    _kill_group(process)


def _kill_group(process: subprocess.Popen) -> None:
    """Whatever is left of the program's process group (DataLoader workers, a hung child) is killed."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail
        pass


def _exit_marks(path: Path) -> list[tuple[str, float]]:
    """The child's marks of its own exit (bootstrap.py): where between status.json and the process's end its
    exit time goes. A line cut short by a kill is left out."""
    marks = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    for line in lines:
        try:
            name, at = json.loads(line)
            marks.append((str(name), float(at)))
        except (ValueError, TypeError):
            continue
    return marks


def _read_json(path: Path) -> Optional[dict[str, Any]]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
