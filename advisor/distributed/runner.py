"""One rank's run of the fleet diagnosis, and rank 0's gathering into one Fleet -- which never hangs.

The work runs in a worker thread; the main thread only watches it. It gives up when no phase has advanced
for ``timeout_s`` (a rank died, hangs, or cannot be reached) or when the launcher stops the job (torchrun
sends SIGTERM to every rank once one has failed). Either way rank 0 then builds a partial Fleet from the
rendezvous store's notice board (board.py), naming each rank that did not report and why, and returns it;
the caller writes the report and ends the process (``hard_exit``: a collective stuck in C++ cannot be joined).

The process group's own timeout is longer than the watch's, so our report comes before NCCL's watchdog
aborts the process. Gathering goes over a gloo group (CPU, its own timeout) whatever the measured backend.
"""

from __future__ import annotations

import datetime
import os
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Optional

from advisor.distributed.board import Board
from advisor.distributed.launch import LaunchInfo, export_rendezvous, launch_info
from advisor.models.facts import Facts
from advisor.models.fleet import Fleet, RankSummary

Tier = Literal["quick", "standard"]
#: Wall-clock budget of each tier's own work (the issue's promise: quick under a minute, standard under five).
TIER_BUDGET_S = {"quick": 50.0, "standard": 280.0}
NOT_TESTED = {
    "quick": ["message sizes above 32 MiB (NCCL) / 1 MiB (gloo): peak bus bandwidth needs the standard tier",
              "host->device copies above 64 MiB; 3 samples per collective size instead of 5",
              "GPU-to-GPU copy bandwidth between pairs (the topology table shows NVML's paths and torch's "
              "peer-access answer only)"],
    "standard": ["GPU-to-GPU copies in the b -> a direction and their latency (a -> b bandwidth only)",
                 "reduce-scatter, broadcast and all-to-all (only all-reduce and all-gather are timed)"],
}
#: Extra time a phase that works alone (or waits for the others' probes) may take before the watch gives up.
LOCAL_PHASE_S = 60.0
#: Test hook only: "RANK:PHASE:ACTION" (kill | hang | raise) makes that rank fail at that phase, really
#: (``..._MARK``: a file touched when it fires).
FAULT_ENV = "GPU_ADVISOR_FLEET_FAULT"


class _Stopped(Exception):
    """SIGTERM from the launcher, raised in the main thread while it watches the worker."""


@dataclass
class FleetOptions:
    tier: Tier = "standard"
    timeout_s: float = 60.0
    backend: Optional[str] = None  # None: nccl with a GPU, gloo otherwise


@dataclass
class RankOutcome:
    info: LaunchInfo
    facts: Optional[Facts] = None  # this rank's probe (rank 0's goes into the report)
    fleet: Optional[Fleet] = None  # rank 0 only
    complete: bool = False  # every rank reported
    error: Optional[str] = None


@dataclass
class _State:
    info: LaunchInfo
    options: FleetOptions
    phase: str = "start"
    progress_at: float = field(default_factory=time.monotonic)
    done: threading.Event = field(default_factory=threading.Event)
    board: Optional[Board] = None
    facts: Optional[Facts] = None
    summary: Optional[RankSummary] = None
    backend: str = ""
    fleet: Optional[Fleet] = None
    error: Optional[str] = None

    def advance(self, phase: str) -> None:
        self.phase, self.progress_at = phase, time.monotonic()
        if self.board is not None:
            self.board.phase(phase)
        _inject_fault(self.info.rank, phase)


def _inject_fault(rank: int, phase: str) -> None:
    spec = os.environ.get(FAULT_ENV, "")
    if not spec:
        return
    want_rank, want_phase, action = (spec.split(":") + ["", "", ""])[:3]
    if want_rank != str(rank) or not phase.startswith(want_phase):
        return
    mark = os.environ.get(FAULT_ENV + "_MARK")
    if mark:  # lets a test act the moment the fault fires instead of sleeping a guess
        Path(mark).touch()
    if action == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif action == "hang":
        threading.Event().wait()
    elif action == "raise":
        raise RuntimeError(f"injected failure at {phase}")


def run_fleet(options: FleetOptions) -> RankOutcome:
    """This rank's part of the diagnosis; on rank 0, the gathered Fleet (partial when a rank failed)."""
    info = launch_info()
    export_rendezvous(info)
    state = _State(info, options)
    worker = threading.Thread(target=_work_guarded, args=(state,), name="gpu-advisor-rank", daemon=True)
    previous = signal.signal(signal.SIGTERM, _raise_stopped) if threading.current_thread() is threading.main_thread() else None
    stop_reason: Optional[str] = None
    stopped = False
    try:
        worker.start()
        stop_reason = _watch(state)
    except (_Stopped, KeyboardInterrupt):
        stopped = True
        stop_reason = (f"stopped by the launcher during {state.phase} (SIGTERM: another rank failed, "
                       "or the job was cancelled)")
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # writing the report must not be cut short
    if state.board is not None:
        state.board.stop_heartbeat()
    if stop_reason is None and state.error is None:
        return RankOutcome(info, state.facts, state.fleet, complete=True)
    error = state.error or stop_reason
    if state.board is not None:
        # Said before this rank goes, so rank 0 can tell "gave up / failed here" from "vanished".
        verdict = "failed" if state.error else "" if stopped else "gave up"
        state.board.stopped(f"{verdict}: {error}" if verdict else error)
    fleet = _partial_fleet(state, error) if info.rank == 0 else None
    return RankOutcome(info, state.facts, fleet, complete=False, error=error)


def _raise_stopped(signum: int, frame: Any) -> None:
    raise _Stopped()


def phase_allowance(phase: str, timeout_s: float) -> float:
    """How long a phase may go without progress: ``timeout_s`` where the rank waits on the others, more where
    it works alone (probing, a matmul, copies) or waits on others' probes (rendezvous) on a loaded machine."""
    # The gather also waits on each node's local rank 0 timing its GPU pairs: it gets the longer allowance.
    waits_on_others = phase.startswith("collectives")
    return timeout_s if waits_on_others else timeout_s + LOCAL_PHASE_S


def _watch(state: _State) -> Optional[str]:
    """None when the worker finished; otherwise why the watch gave up."""
    budget_end = time.monotonic() + TIER_BUDGET_S[state.options.tier] + state.options.timeout_s
    while not state.done.wait(0.25):
        now = time.monotonic()
        allowance = phase_allowance(state.phase, state.options.timeout_s)
        if now - state.progress_at > allowance:
            return f"no progress for {allowance:g} s at phase {state.phase} (this rank or one it waits on died, hangs or is unreachable)"
        if now > budget_end:
            return f"the {state.options.tier} tier's time ran out at phase {state.phase}"
    return None


def _work_guarded(state: _State) -> None:
    try:
        from advisor.distributed.rank_work import work

        work(state)
    except Exception as error:  # noqa: BLE001 - reported by the watch, never a traceback
        state.error = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''} (at phase {state.phase})"
    finally:
        state.done.set()


def new_log_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="gpu-advisor-nccl-"))


def pg_timeout(options: FleetOptions) -> datetime.timedelta:
    # Longer than the watch: our partial report must come before NCCL's watchdog aborts the process.
    return datetime.timedelta(seconds=options.timeout_s * 2 + 30)


def _partial_fleet(state: _State, error: str) -> Fleet:
    from advisor.distributed.analysis import derive_fleet_facts
    from advisor.distributed.collectives import combine

    info = state.info
    board = state.board
    ranks: list[RankSummary] = []
    if board is not None:
        time.sleep(0.5)  # let ranks the launcher is stopping post their "stopped" note first
        alive = board.alive()
    else:
        alive = set()
    for rank in range(info.world_size):
        if rank == 0 and state.summary is not None:
            own = state.summary.model_copy()
            own.last_phase = state.phase
            own.notes = [*own.notes, f"this rank's run ended early: {error}"]
            ranks.append(own)
            continue
        posted = board.read("summary", rank) if board is not None else None
        if posted is not None:
            ranks.append(RankSummary.model_validate_json(posted))
            continue
        ranks.append(_absent(rank, board, alive, error))
    fleet = Fleet(world_size=info.world_size, backend=state.backend or "unknown", tier=state.options.tier,
                  ranks=ranks, not_tested=NOT_TESTED[state.options.tier], timeout_s=state.options.timeout_s)
    fleet.collectives = combine([r for r in ranks if r.status == "ok"])
    fleet.facts = derive_fleet_facts(fleet)
    return fleet


def _absent(rank: int, board: Optional[Board], alive: set[int], error: str) -> RankSummary:
    if board is None:
        return RankSummary(rank=rank, status="missing",
                           reason=f"the rendezvous did not complete ({error})")
    phase = board.read("phase", rank)
    stopped = board.read("stopped", rank)
    if stopped is not None:
        reason, status = stopped, "failed"
    elif rank in alive:
        reason, status = "alive but stuck: it did not report (the rank with the earliest last phase is the cause)", "failed"
    elif phase is None:
        reason, status = "never reached the rendezvous store (could not start or reach rank 0)", "missing"
    else:
        reason, status = "stopped answering: the process died or was killed", "missing"
    return RankSummary(rank=rank, node=board.read("node", rank) or "", status=status, reason=reason,  # type: ignore[arg-type]
                       last_phase=phase)


def hard_exit(code: int) -> None:
    """End the process now: a worker thread stuck in a collective cannot be joined, and torch's exit
    handlers could wait on it. Output is flushed first."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
