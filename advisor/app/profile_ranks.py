"""`torchrun --nproc-per-node N -m advisor profile -- train.py`: every rank profiles its own process, rank 0
gathers the summaries into one report and flags skew between ranks.

Each rank's gpu-advisor runs its own copy of the program (as torchrun would have: RANK, LOCAL_RANK, MASTER_ADDR
... pass through, so the program's own init_process_group works unchanged) and summarises its own trace. The
gathering then goes over the rendezvous store -- the notice board of the fleet diagnosis (distributed/board.py)
-- not over collectives: reading a key has a timeout, so a rank that died or hangs is named instead of
hanging rank 0. The store is opened only after this rank's program has ended: without torchrun's agent store
(srun), rank 0's program hosts the store on MASTER_PORT while it runs, and rank 0's gpu-advisor takes it over.

Ranks other than 0 write no report and exit 0 even when their program failed (rank 0 reports it): a non-zero
exit would make torchrun stop rank 0 before it has written the report.
"""

from __future__ import annotations

import datetime
import json
import os
import statistics
import time
from typing import Any, Optional

from advisor.distributed.board import Board
from advisor.distributed.launch import LaunchInfo, NotLaunched, launch_info
from advisor.models.common import is_missing, missing
from advisor.models.profile import ProfileFacts, RankProfile, RankSkew

#: Test hook only: "RANK:kill" makes that rank's gpu-advisor kill itself (SIGKILL) before it posts, for real.
FAULT_ENV = "GPU_ADVISOR_PROFILE_RANK_FAULT"
#: How often rank 0 looks for the other ranks' summaries while it waits.
POLL_S = 0.2


def ranked_launch() -> Optional[LaunchInfo]:
    """This process's rank when gpu-advisor itself was started by torchrun/srun with more than one rank."""
    try:
        info = launch_info()
    except NotLaunched:
        return None
    return info if info.world_size > 1 else None


def open_board(info: LaunchInfo, timeout_s: float) -> Board:
    """The rendezvous store as a client of torchrun's agent store, or hosted by rank 0 without one."""
    from torch.distributed import TCPStore

    agent_store = os.environ.get("TORCHELASTIC_USE_AGENT_STORE") == "True"
    store = TCPStore(info.master_addr, int(info.master_port), info.world_size,
                     is_master=(info.rank == 0 and not agent_store),
                     timeout=datetime.timedelta(seconds=timeout_s), wait_for_workers=False)
    board = Board(store, info.rank, info.world_size)
    board._prefix += "profile/"  # the fleet diagnosis's keys and ours never mix
    return board


def rank_summary(rank: int, profile: Optional[ProfileFacts], error: Optional[str], node: str = "") -> RankProfile:
    if profile is None:
        return RankProfile(rank=rank, status="failed", reason=error or "no summary", node=node)
    collectives = profile.collectives
    return RankProfile(rank=rank, status="ok", node=node, step_ms=profile.step_ms,
                       gpu_busy_fraction=profile.gpu_busy_fraction, steps_recorded=profile.steps_recorded,
                       sync_ms_per_step=profile.sync.blocked_ms_per_step,
                       data_ms_per_step=profile.data.wait_ms_per_step,
                       collective_backend=collectives.backend,
                       collective_calls_per_step=collectives.calls_per_step,
                       collective_ms_per_step=collectives.ms_per_step,
                       collective_wait_ms_per_step=collectives.wait_ms_per_step,
                       collective_wait_ms_steps=collectives.wait_ms_steps,
                       work_ms_per_step=collectives.work_ms_per_step if collectives.backend else profile.step_ms)


class LauncherStopped(KeyboardInterrupt):
    """SIGTERM from torchrun, which stops every rank once one rank's process has failed."""


#: Set by torchrun's SIGTERM; ``gathering``: rank 0 is waiting for summaries (the signal then ends the wait).
_signalled = {"stopped": False, "gathering": False}


def on_sigterm(signum: int, frame: Any) -> None:
    """Rank 0 finishes its own window (its program is in its own session: the launcher's signal does not reach
    it) and then reports what it has, instead of dying with no report at all."""
    _signalled["stopped"] = True
    if _signalled["gathering"]:
        raise LauncherStopped()


def inject_fault(rank: int) -> None:
    if os.environ.get(FAULT_ENV, "") == f"{rank}:kill":
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def post(board: Board, summary: RankProfile) -> None:
    board.post_summary(summary.model_dump_json())


def gather(board: Board, own: RankProfile, timeout_s: float) -> list[RankProfile]:
    """Rank 0: every rank's summary, waiting at most ``timeout_s`` for those not posted yet."""
    found: dict[int, RankProfile] = {0: own}
    deadline = time.monotonic() + timeout_s
    reason = (f"did not report within {timeout_s:g} s after rank 0's window (its gpu-advisor died, hangs, or its "
              "program is still running)")
    try:
        _signalled["gathering"] = True
        if _signalled["stopped"]:
            raise LauncherStopped()
        while len(found) < board.world_size and time.monotonic() < deadline:
            _read_posted(board, found)
            if len(found) < board.world_size:
                time.sleep(POLL_S)
    except LauncherStopped:
        _read_posted(board, found)
        reason = ("the launcher stopped the job before this rank reported: torchrun stops every rank once one "
                  "rank's process has failed, so this rank's gpu-advisor (or its program) most likely died")
    finally:
        _signalled["gathering"] = False
    return [found.get(rank) or RankProfile(rank=rank, status="missing", reason=reason)
            for rank in range(board.world_size)]


def _read_posted(board: Board, found: dict[int, RankProfile]) -> None:
    for rank in range(1, board.world_size):
        if rank not in found:
            posted = board.read("summary", rank)
            if posted is not None:
                found[rank] = RankProfile.model_validate(json.loads(posted))


def skew(ranks: list[RankProfile]) -> RankSkew:
    result = RankSkew(world_size=len(ranks), reported=sum(r.status == "ok" for r in ranks))
    absent = [r for r in ranks if r.status != "ok"]
    result.missing = len(absent)
    result.missing_text = "; ".join(f"rank {r.rank} ({r.status}: {r.reason})" for r in absent)
    timed = [(r.step_ms, r.rank) for r in ranks if r.status == "ok" and not is_missing(r.step_ms)]
    if len(timed) >= 2:
        slowest_ms, slowest_rank = max(timed)
        # Against the others, not all: with two ranks the median of all would hide half of the gap.
        median_ms = statistics.median(ms for ms, rank in timed if rank != slowest_rank)
        result.slowest_rank, result.slowest_step_ms = slowest_rank, round(float(slowest_ms), 3)
        result.median_step_ms = round(float(median_ms), 3)
        result.ratio = round(float(slowest_ms) / float(median_ms), 3) if median_ms > 0 else 1.0
    _straggler(result, [r for r in ranks if r.status == "ok" and not is_missing(r.step_ms)])
    return result


def _straggler(result: RankSkew, ranks: list[RankProfile]) -> None:
    """Ranks tied together by a collective every step: the one that waits least in them is the one the others
    wait for. What it costs them is their extra wait: in each recorded step the median of the others' wait less
    the straggler's, and the median of that over the steps (one stalled step does not make a straggler). Noise
    moves the least-waiting rank from step to step; a straggler waits least in every step."""
    if len(ranks) < 2 or any(r.collective_calls_per_step < 1 for r in ranks):
        return
    result.synchronised = True
    straggler = min(ranks, key=lambda r: (r.collective_wait_ms_per_step, r.rank))
    others = [r for r in ranks if r.rank != straggler.rank]
    step_ms = statistics.median(float(r.step_ms) for r in ranks)  # type: ignore[arg-type]
    result.straggler_rank, result.collective_backend = straggler.rank, straggler.collective_backend
    result.straggler_wait_ms = round(straggler.collective_wait_ms_per_step, 3)
    result.others_wait_ms = round(statistics.median(r.collective_wait_ms_per_step for r in others), 3)
    compared = min(len(r.collective_wait_ms_steps) for r in ranks)
    if compared:
        own = straggler.collective_wait_ms_steps
        extras = [statistics.median(r.collective_wait_ms_steps[i] for r in others) - own[i] for i in range(compared)]
        result.steps_compared = compared
        result.straggler_steps = sum(all(own[i] <= r.collective_wait_ms_steps[i] for r in others)
                                     for i in range(compared))
        result.straggler_step_fraction = round(result.straggler_steps / compared, 3)
        extra = max(statistics.median(extras), 0.0)
    else:  # summaries without per-step waits: the averages alone
        extra = max(float(result.others_wait_ms) - float(result.straggler_wait_ms), 0.0)
        result.straggler_step_fraction = missing("the ranks' summaries hold no per-step collective wait")
    result.extra_wait_ms = round(extra, 3)
    result.extra_wait_fraction = round(extra / step_ms, 4) if step_ms > 0 else 0.0
    works = [float(r.work_ms_per_step) for r in others if not is_missing(r.work_ms_per_step)]
    if not is_missing(straggler.work_ms_per_step):
        result.straggler_work_ms = round(float(straggler.work_ms_per_step), 3)  # type: ignore[arg-type]
    if works:
        result.others_work_ms = round(statistics.median(works), 3)


def with_ranks(profile: ProfileFacts, ranks: list[RankProfile]) -> ProfileFacts:
    return profile.model_copy(update={"ranks": ranks, "rank_skew": skew(ranks)})


def failure_text(error: Any) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__
