"""`gpu-advisor profile`: run the user's program under the profiler, summarise its trace, explain it.

The command calls ``profile_program``; it returns a Report (facts from the child, the trace summary, the
profile rules' findings pointing at the user's lines) or raises ProfileFailure with one line and its kind.
Under torchrun (``torchrun --nproc-per-node N -m advisor profile -- train.py``) ``profile_ranks_program`` runs
this on every rank and gathers the summaries on rank 0 (profile_ranks.py).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from advisor.app.errors import EXIT_BAD_INPUT, EXIT_FAILURE, AdvisorError
from advisor.app.kept_trace import RUN_NAME, TRACE_NAME, compress_beside, keep_trace
from advisor.models.facts import Facts, TorchDevice, TorchFacts
from advisor.models.findings import Finding, SourceLocation
from advisor.models.profile import ProfileFacts, ProgramRun
from advisor.models.report import Report
from advisor.profile.early_read import EarlyRead, EarlyTask
from advisor.profile.runner import WindowPlan

#: Where each rule's finding points in the user's code: the profile fact holding the line.
#: The lint checks that describe the same problem as a profile rule: only those confirm a finding statically.
LINT_CHECKS_OF_RULE = {
    "profile-host-sync-every-step": ("GA103",), "profile-pageable-copies-every-step": ("GA104", "GA105"),
    "profile-data-loading-bound": ("GA106",), "profile-launch-bound": ("GA103",),
}
SITE_OF_RULE = {
    "profile-launch-bound": "host_site", "profile-host-sync-every-step": "sync.site",
    "profile-pageable-copies-every-step": "copies.site", "profile-data-loading-bound": "data.site",
    "profile-fp32-matmul-without-tf32": "matmul.site", "profile-work-left-on-cpu": "cpu_work.site",
    "profile-compiled-kernels-without-stack": "compiled.site",
}


class ProfileFailure(AdvisorError):
    """One line for the user, and the exit code: 2 the program or its arguments, 3 the tooling, 130 Ctrl-C."""

    def __init__(self, message: str, *, bad_input: bool = True, exit_code: Optional[int] = None) -> None:
        super().__init__(message, exit_code if exit_code is not None else (EXIT_BAD_INPUT if bad_input else EXIT_FAILURE))
        self.bad_input = bad_input


@dataclass
class ProfileRequest:
    command: list[str]
    # The recording window's settings, defaulting to the runner's own (WindowPlan says what each means).
    warmup_steps: int = WindowPlan.warmup_steps
    steps: int = WindowPlan.steps
    baseline_steps: int = WindowPlan.baseline_steps
    wait_seconds: float = WindowPlan.wait_seconds
    seconds: float = WindowPlan.seconds
    stop_after: bool = WindowPlan.stop_after
    with_stack: bool = WindowPlan.with_stack
    timeout_s: Optional[float] = 600.0
    max_overhead: float = 0.25
    quiet_log: Optional[Path] = None
    trace_out: Optional[Path] = None
    rules_dirs: list[Path] = field(default_factory=list)
    rank_timeout_s: float = 120.0  # under torchrun: how long rank 0 waits for the other ranks' summaries


def profile_program(request: ProfileRequest) -> Report:
    from advisor.profile.runner import ProgramNotFound, parse_target, run_program, user_roots

    started = time.perf_counter()
    try:
        target = parse_target(request.command)
    except ProgramNotFound as exc:
        raise ProfileFailure(str(exc)) from None
    plan = WindowPlan(**{setting.name: getattr(request, setting.name) for setting in fields(WindowPlan)})
    early = _early_read(request)
    try:
        outcome = run_program(target, plan, timeout_s=request.timeout_s, quiet_log=request.quiet_log, early=early)
    except ProgramNotFound as exc:
        raise ProfileFailure(str(exc)) from None
    try:
        status = outcome.status
        run = ProgramRun(command=target.display, outcome=_outcome_name(outcome), exit_code=status.get("exit_code"),
                         error=status.get("error"), steps_seen=int(status.get("steps_seen") or 0),
                         program_s=round(outcome.wall_s, 2), partial=bool(status.get("partial")),
                         window_s=round(float((outcome.window or {}).get("window_wall_s") or 0.0), 3))
        if status.get("outcome") == "setup-failed":
            raise ProfileFailure(f"cannot profile with {target.interpreter}: {status.get('error')}", bad_input=False)
        if outcome.trace_path is None or outcome.window is None:
            if status.get("profiler_error"):
                raise ProfileFailure(f"torch.profiler could not record this program: {status['profiler_error']}",
                                     bad_input=False)
            if outcome.interrupted:
                raise ProfileFailure("interrupted before a recording window completed; the program got the Ctrl-C "
                                     "and was stopped", exit_code=130)
            raise ProfileFailure(_nothing_recorded(run, outcome.timed_out, request.timeout_s))
        if request.trace_out is not None:
            try:
                keep_trace(outcome.trace_path, request.trace_out, {
                    "run": run.model_dump(mode="json"), "window": outcome.window, "user_roots": user_roots(target)},
                    compressed=early.task(TRACE_COMPRESSED))
            except OSError as exc:
                raise ProfileFailure(f"cannot write the trace to {request.trace_out}: {exc.strerror or exc}") from None
            outcome.phases.append(("trace-kept", time.monotonic()))
        profile = _summarise(outcome.trace_path, outcome.window, run, user_roots(target), request.max_overhead,
                             phases=outcome.phases, early=early.task(TRACE_READ))
    finally:
        try:
            early.wait_all()  # nothing may still read or write in the work folder when it is removed
        finally:
            outcome.cleanup()
    _measure_pinning(profile, outcome.window or {})
    outcome.phases.append(("pinning-measured", time.monotonic()))
    profile.run.wall_s = round(time.perf_counter() - started, 2)
    report = build_profile_report(profile, request.rules_dirs, wall_s=profile.run.wall_s)
    outcome.phases.append(("report-built", time.monotonic()))
    profile.run.phases_s = phase_durations(outcome.phases + early.marks())
    return report


#: The parent's work on the trace that starts while the program exits (early_read.py): names of its phases.
TRACE_READ, TRACE_COMPRESSED = "trace-read", "trace-compressed"


def _early_read(request: ProfileRequest) -> EarlyRead:
    from advisor.profile.trace_events import load_trace

    tasks: dict[str, Callable[[Path], Any]] = {TRACE_READ: load_trace}
    if request.trace_out is not None:
        tasks[TRACE_COMPRESSED] = compress_beside
    return EarlyRead(tasks)


def phase_durations(phases: list[tuple[str, float]]) -> dict[str, float]:
    """(name, time) marks -> {name: seconds since the mark before}: each phase named by how it ended. The marks
    are put in time order first: the parent's reading of the trace ends while the program is still exiting, so
    the phases stay a timeline whose durations add up to the run's wall time."""
    phases = sorted(phases, key=lambda mark: mark[1])
    durations: dict[str, float] = {}
    for (_, before), (name, at) in zip(phases, phases[1:], strict=False):
        durations[name] = round(durations.get(name, 0.0) + max(at - before, 0.0), 4)
    return durations


def _outcome_name(outcome) -> str:
    if outcome.timed_out:
        return "timed-out"
    if outcome.interrupted:
        return "interrupted"
    return str(outcome.status.get("outcome", "killed"))


def _nothing_recorded(run: ProgramRun, timed_out: bool, timeout_s: Optional[float]) -> str:
    if timed_out:
        return (f"the program ran past --timeout {timeout_s:g}s before a recording window completed "
                f"({run.steps_seen} step(s) seen); it was stopped, nothing is left running")
    if run.exit_code not in (0, None):
        detail = f": {run.error}" if run.error else " (its output is above)"
        return f"the program exited with code {run.exit_code} before a recording window completed{detail}"
    return (f"the program finished after {run.steps_seen} step(s), before a recording window completed; "
            "ask for fewer steps (--warmup-steps 1 --steps 3 --baseline-steps 0) or a shorter --wait-seconds")


def _summarise(trace_path: Path, window: dict, run: ProgramRun, roots: list[str], max_overhead: float,
               phases: Optional[list[tuple[str, float]]] = None, early: Optional[EarlyTask] = None) -> ProfileFacts:
    """``early``: the trace already being read while the program exited (its result, or its error, is the
    same as reading it here)."""
    from advisor.profile.summarise import summarise
    from advisor.profile.trace_events import load_trace

    phases = phases if phases is not None else []
    try:
        trace = early.result() if early is not None else load_trace(trace_path)
    except (OSError, ValueError, EOFError) as exc:
        raise ProfileFailure(f"the trace could not be read ({exc})", bad_input=False) from None
    if early is None:  # the early task marks its own end
        phases.append((TRACE_READ, time.monotonic()))
    profile = summarise(trace, window, run, roots, overhead_limit=max_overhead)
    phases.append(("summarised", time.monotonic()))
    wall = window.get("wall_window") or {}
    if wall.get("pilot_events") and wall.get("window_s", 0) < wall.get("asked_s", 0):
        profile.notes.append(
            f"the wall-clock window was cut to {wall['window_s'] * 1000:.0f} ms of the {wall['asked_s']:g} s asked: "
            f"a {wall['pilot_s'] * 1000:.0f} ms pilot recorded {wall['pilot_events']} trace events, and a window "
            "is kept to about 30,000 events so stopping, exporting and reading the trace takes seconds, not tens")
    return profile


def _measure_pinning(profile: ProfileFacts, window: dict) -> None:
    """Pageable copies every step: the gain of pinning them, measured at their size on this GPU (safe: our own
    buffers, after the window), with the range over paired samples. The program's process measures it right
    after the window when it is stopped there (CUDA is already up in it); else this process does, which costs
    seconds of importing torch and starting CUDA."""
    copies = profile.copies
    if not profile.cuda_available or copies.h2d_pageable_per_step < 1 or copies.h2d_per_step <= 0:
        return
    from advisor.measure.pinned_gain import PinnedGain, measure_pinned_gain

    trial = window.get("pinned_trial") or {}
    where = "in the program's process right after the window"
    try:
        gain = PinnedGain(copy_bytes=int(trial["copy_bytes"]), pageable_us=float(trial["pageable_us"]),
                          pinned_us=float(trial["pinned_us"]), saved_us=sorted(float(x) for x in trial["saved_us"]))
        if not gain.saved_us:
            raise ValueError("no samples")
    except (KeyError, TypeError, ValueError):
        where = "after the program stopped"
        size = int(copies.h2d_bytes_per_step / copies.h2d_per_step)
        try:
            gain = measure_pinned_gain(size)
        except Exception as exc:  # noqa: BLE001 - the estimate stands, said so
            copies.fix_gain = (f"estimated, not measured (pinned copies could not be timed here: {exc}): most of the "
                               "copy time, and the stall it puts between kernels")
            return
    per_step = copies.h2d_pageable_per_step / 1e3  # us per copy -> ms per step
    middle = gain.saved_us[len(gain.saved_us) // 2]
    copies.pinned_saved_ms_per_step = round(middle * per_step, 4)
    copies.pinned_saved_range_ms = [round(gain.saved_us[0] * per_step, 4), round(gain.saved_us[-1] * per_step, 4)]
    copies.fix_gain = (f"measured at this program's mean copy size ({gain.copy_bytes:,} bytes) on this GPU by "
                       f"gpu-advisor {where}: {gain.pageable_us:.1f} us per copy from pageable "
                       f"memory, {gain.pinned_us:.1f} us from pinned (medians of {len(gain.saved_us)} alternating "
                       f"samples), so {middle * per_step:.3f} ms per step for {copies.h2d_pageable_per_step:.0f} "
                       f"copies (range {gain.saved_us[0] * per_step:.3f} to {gain.saved_us[-1] * per_step:.3f} ms); "
                       "pinning itself is not counted (a DataLoader worker or a buffer pinned once does it off the step)")


def report_from_kept_trace(directory: Path, *, max_overhead: float = 0.25, user_roots: Optional[list[str]] = None) -> Report:
    """Summarise a trace kept with --trace-out again (after a change to the analysis, or on another machine)."""
    import tempfile

    info = json.loads((directory / RUN_NAME).read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as scratch:
        plain = Path(scratch) / "trace.json"
        with gzip.open(directory / TRACE_NAME, "rb") as source, open(plain, "wb") as sink:
            shutil.copyfileobj(source, sink)
        run = ProgramRun.model_validate(info["run"])
        profile = _summarise(plain, info["window"], run, user_roots or info["user_roots"], max_overhead)
    return build_profile_report(profile, wall_s=run.wall_s)


def _facts(profile: ProfileFacts) -> Facts:
    devices = []
    if profile.device_name:
        devices = [TorchDevice(index=0, name=profile.device_name, compute_capability=profile.compute_capability or "")]
    torch = TorchFacts(version=profile.torch_version, cuda_available=profile.cuda_available,
                       device_count=len(devices), devices=devices)
    if profile.torch_cuda_version or not profile.cuda_available:
        torch.cuda_version = profile.torch_cuda_version
    return Facts(torch=torch)


def build_profile_report(profile: ProfileFacts, rules_dirs: Iterable[Path] = (), *, wall_s: Optional[float] = None) -> Report:
    """The report for a summarised program: the profile rules evaluated, findings pointed at their lines."""
    from advisor.app.reports import load_rule_set, new_meta
    from advisor.engine.evaluate import evaluate_rules, reads_profile

    meta = new_meta("profile", [f"torch.profiler trace of: {profile.run.command}"])
    meta.wall_s = round(wall_s, 2) if wall_s is not None else None
    report = Report(meta=meta, facts=_facts(profile), profile=profile)
    rules = [rule for rule in load_rule_set(rules_dirs) if reads_profile(rule)]
    findings, skipped = evaluate_rules(rules, report)
    findings = [locate(finding, profile) for finding in findings]
    return report.model_copy(update={"findings": confirm_with_lint(findings), "skipped": skipped})


def locate(finding: Finding, profile: ProfileFacts) -> Finding:
    """Point the finding at the user's line named by its site fact (``train.py:42``)."""
    fact = SITE_OF_RULE.get(finding.rule_id)
    if fact is None:
        return finding
    value: object = profile
    for part in fact.split("."):
        value = getattr(value, part)
    if not isinstance(value, str) or ":" not in value:
        return finding
    path, _, line = value.rpartition(":")
    if not line.isdigit():
        return finding
    return finding.model_copy(update={"location": SourceLocation(path=path, line=int(line),
                                                                 column=_first_column(path, int(line)))})


def _first_column(path: str, line: int) -> int:
    try:
        with open(path, encoding="utf-8") as handle:
            for number, text in enumerate(handle, 1):
                if number == line:
                    return len(text) - len(text.lstrip()) + 1
    except (OSError, UnicodeDecodeError):
        pass
    return 1


def confirm_with_lint(findings: list[Finding]) -> list[Finding]:
    """Where `gpu-advisor lint` flags the same line statically, say the measurement confirms it."""
    located = [f for f in findings if f.location is not None and os.path.isfile(f.location.path)
               and f.rule_id in LINT_CHECKS_OF_RULE]
    if not located:
        return findings
    from advisor.lint import lint_paths

    try:
        # one process: threads run here (the trace reader), and a fork of a threaded process can hang
        run = lint_paths(sorted({f.location.path for f in located}), jobs=1)  # type: ignore[union-attr]
    except Exception:  # lint is a bonus here; a file it cannot read changes nothing measured
        return findings
    by_line: dict[tuple[str, int], list[tuple[str, str]]] = {}
    for lint_finding in run.findings:
        key = (os.path.realpath(lint_finding.path), lint_finding.line)
        by_line.setdefault(key, []).append((lint_finding.check_id, lint_finding.title))
    result = []
    for finding in findings:
        location = finding.location
        related = LINT_CHECKS_OF_RULE.get(finding.rule_id, ())
        checks = [f"{check} ({title})" for check, title in by_line.get(
            (os.path.realpath(location.path), location.line), []) if check in related] if location else None
        if checks:
            finding = finding.model_copy(update={"message": finding.message + " gpu-advisor lint flags this line "
                                                 f"statically too ({', '.join(checks)}): the measurement confirms it."})
        result.append(finding)
    return result


def profile_ranks_program(request: ProfileRequest) -> Optional[Report]:
    """``profile_program`` on this rank; under torchrun with several ranks, rank 0 returns one report with every
    rank's summary and the skew between them, the other ranks post theirs and return None."""
    from advisor.app import profile_ranks

    info = profile_ranks.ranked_launch()
    if info is None:
        return profile_program(request)
    if request.trace_out is not None:
        request.trace_out = request.trace_out / f"rank{info.rank}"
    if request.quiet_log is not None:
        request.quiet_log = request.quiet_log.with_name(f"{request.quiet_log.name}.rank{info.rank}")
    import signal

    if info.rank == 0:  # torchrun's SIGTERM (another rank failed) stops rank 0's program like a Ctrl-C would
        signal.signal(signal.SIGTERM, profile_ranks.on_sigterm)
    report: Optional[Report] = None
    error: Optional[ProfileFailure] = None
    try:
        report = profile_program(request)
    except ProfileFailure as exc:
        error = exc
    profile_ranks.inject_fault(info.rank)
    own = profile_ranks.rank_summary(info.rank, report.profile if report else None,
                                     profile_ranks.failure_text(error) if error else None, info.node)
    try:
        board = profile_ranks.open_board(info, request.rank_timeout_s)
    except Exception as exc:  # noqa: BLE001 - the store is rank 0's or torchrun's: say which, once
        if error is not None:
            raise error from None
        raise ProfileFailure(f"rank {info.rank}: cannot reach the rendezvous store at {info.master_addr}:"
                             f"{info.master_port} to gather the ranks' summaries ({profile_ranks.failure_text(exc)})",
                             bad_input=False) from None
    if info.rank != 0:
        profile_ranks.post(board, own)
        return None
    if error is not None:
        raise error
    assert report is not None and report.profile is not None
    ranks = profile_ranks.gather(board, own, request.rank_timeout_s)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the report is written whatever the launcher does now
    profile = profile_ranks.with_ranks(report.profile, ranks)
    return build_profile_report(profile, request.rules_dirs, wall_s=profile.run.wall_s)
