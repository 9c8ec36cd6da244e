"""Real processes: `torchrun --nproc-per-node 2 -m advisor profile -- rank_train.py` on gloo. Each rank runs and
profiles its own copy of the program (which joins the job's own gloo group); rank 0 writes one report with every
rank's step time. One rank really is slower (it sleeps each step), or its gpu-advisor really dies (SIGKILL),
and the report says so. Every run is bounded: --rank-timeout, --timeout and a hard subprocess limit."""

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

from advisor.app.profile_ranks import skew
from advisor.models.profile import RankProfile
from tests.profile.child_env import child_env

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = ROOT / "tests/profile/programs/rank_train.py"
HARD_LIMIT_S = 170


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def torchrun_profile(tmp_path, **extra_env):
    env = child_env(OMP_NUM_THREADS="1", PYTHONUNBUFFERED="1", **extra_env)
    output = tmp_path / "profile.json"
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2",
               "--master-addr", "127.0.0.1", "--master-port", str(free_port()),
               "-m", "advisor", "profile", "--warmup-steps", "1", "--steps", "3", "--baseline-steps", "2",
               "--max-overhead", "50", "--rank-timeout", "30", "--timeout", "90", "-f", "json", "-o", str(output),
               "--", str(PROGRAM)]
    started = time.monotonic()
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=HARD_LIMIT_S)
    report = json.loads(output.read_text()) if output.exists() else None
    return done, report, time.monotonic() - started


def test_rank_zero_reports_every_rank_and_flags_the_slow_one(tmp_path) -> None:
    done, report, _ = torchrun_profile(tmp_path, SLOW_RANK="1", SLOW_MS="80")
    assert done.returncode == 0, done.stderr[-2000:]
    profile = report["profile"]
    ranks = {r["rank"]: r for r in profile["ranks"]}
    assert set(ranks) == {0, 1} and all(r["status"] == "ok" and r["steps_recorded"] == 3 for r in ranks.values())
    # rank 1 sleeps 80 ms a step, rank 0 10 ms: generous margins for a loaded machine
    assert ranks[1]["step_ms"] > 2 * ranks[0]["step_ms"]
    assert profile["rank_skew"]["slowest_rank"] == 1 and profile["rank_skew"]["ratio"] > 2
    rule_ids = [f["rule_id"] for f in report["findings"]]
    assert "profile-rank-skew" in rule_ids and "profile-rank-missing" not in rule_ids
    message = next(f["message"] for f in report["findings"] if f["rule_id"] == "profile-rank-skew")
    assert message.startswith("Rank 1's steps took")


def test_a_rank_whose_gpu_advisor_dies_is_named_and_rank_zero_still_reports(tmp_path) -> None:
    done, report, elapsed = torchrun_profile(tmp_path, GPU_ADVISOR_PROFILE_RANK_FAULT="1:kill")
    assert report is not None, done.stderr[-2000:]  # torchrun itself fails (a rank died): the report is there
    ranks = {r["rank"]: r for r in report["profile"]["ranks"]}
    assert ranks[0]["status"] == "ok" and ranks[1]["status"] == "missing"
    assert "launcher stopped the job" in ranks[1]["reason"] or "did not report" in ranks[1]["reason"]
    assert "profile-rank-missing" in [f["rule_id"] for f in report["findings"]]
    assert elapsed < HARD_LIMIT_S


def test_a_rank_whose_program_fails_is_named_with_its_error(tmp_path) -> None:
    done, report, _ = torchrun_profile(tmp_path, FAIL_RANK="1")
    assert done.returncode == 0, done.stderr[-2000:]  # rank 1's gpu-advisor reports to rank 0, exits 0
    ranks = {r["rank"]: r for r in report["profile"]["ranks"]}
    assert ranks[1]["status"] == "failed" and "exited with code 1" in ranks[1]["reason"]
    assert "profile-rank-missing" in [f["rule_id"] for f in report["findings"]]


def test_skew_compares_the_slowest_rank_with_the_others() -> None:
    ranks = [RankProfile(rank=r, status="ok", step_ms=ms) for r, ms in enumerate([10.0, 11.0, 30.0, 10.5])]
    result = skew(ranks + [RankProfile(rank=4, status="missing", reason="gone")])
    assert result.slowest_rank == 2 and result.median_step_ms == 10.5 and result.ratio == round(30 / 10.5, 3)
    assert result.world_size == 5 and result.reported == 4 and result.missing == 1
    assert result.missing_text == "rank 4 (missing: gone)"
    single = skew([RankProfile(rank=0, status="ok", step_ms=10.0)])
    assert single.slowest_rank is None
