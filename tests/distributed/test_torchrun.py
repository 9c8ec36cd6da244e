"""Real processes: torchrun starts 2 ranks on the gloo backend (real rendezvous on 127.0.0.1, real
collectives, real gathering into one report), and a rank that really dies or hangs mid-run is named in the
report while the job ends by itself. Each run is bounded: --timeout for the ranks, a hard subprocess limit."""

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARD_LIMIT_S = 120


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def torchrun(tmp_path, *args, fault=None, nproc=2):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    env.pop("GPU_ADVISOR_FLEET_FAULT", None)
    if fault:
        env["GPU_ADVISOR_FLEET_FAULT"] = fault
    output = tmp_path / "fleet.json"
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", str(nproc),
               "--master-addr", "127.0.0.1", "--master-port", str(free_port()),
               "-m", "advisor", "cluster", "--quick", "-o", str(output), *args]
    started = time.monotonic()
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=HARD_LIMIT_S)
    elapsed = time.monotonic() - started
    report = json.loads(output.read_text()) if output.exists() else None
    return done, report, elapsed


def test_two_ranks_gather_into_one_report(tmp_path):
    done, report, _ = torchrun(tmp_path, "--timeout", "20")
    assert done.returncode == 0, done.stderr[-3000:]
    fleet = report["fleet"]
    assert fleet["world_size"] == 2 and fleet["backend"] == "gloo"
    assert [r["rank"] for r in fleet["ranks"]] == [0, 1] and all(r["status"] == "ok" for r in fleet["ranks"])
    ops = {(c["op"], c["ranks"]) for c in fleet["collectives"]}
    assert ops == {("all_reduce", 2), ("all_gather", 2)}
    for result in fleet["collectives"]:
        factor = 1.0 if result["op"] == "all_reduce" else 0.5  # 2(n-1)/n and (n-1)/n at n = 2
        assert result["busbw_gbps"] == pytest.approx(result["algbw_gbps"] * factor)
    assert all("cpu_matmul_fp32_gflops" in r["metrics"] for r in fleet["ranks"])
    assert fleet["facts"]["ranks_missing"] == 0 and fleet["not_tested"]
    # Redacted by default: the node is a stable placeholder, the same on both ranks.
    assert {r["node"] for r in fleet["ranks"]} == {"{host-1}"}
    if len(socket.gethostname()) >= 4:  # shorter names are not scrubbed as words (they would blank out text)
        assert socket.gethostname() not in json.dumps(report)


def test_a_rank_killed_mid_run_is_named_and_the_job_ends(tmp_path):
    done, report, elapsed = torchrun(tmp_path, "--timeout", "5", fault="1:collectives:kill")
    assert done.returncode != 0
    assert elapsed < 60
    ranks = {r["rank"]: r for r in report["fleet"]["ranks"]}
    assert ranks[1]["status"] == "missing" and ranks[1]["last_phase"].startswith("collectives")
    assert "died or was killed" in ranks[1]["reason"]
    assert report["fleet"]["facts"]["ranks_missing"] == 1
    assert "fleet-rank-missing" in {f["rule_id"] for f in report["findings"]}


def test_a_hung_rank_times_out_and_is_named(tmp_path):
    done, report, elapsed = torchrun(tmp_path, "--timeout", "3", fault="1:compute:hang")
    assert done.returncode != 0
    assert elapsed < 60
    ranks = {r["rank"]: r for r in report["fleet"]["ranks"]}
    assert ranks[1]["status"] != "ok" and ranks[1]["last_phase"] == "compute", (ranks, done.stderr[-2000:])
    assert "stuck" in ranks[1]["reason"]
    assert ranks[0]["last_phase"].startswith("collectives")  # rank 0 waited on it, and said so


def test_a_cancelled_job_still_writes_its_report(tmp_path):
    # scancel / Ctrl-C: SIGTERM to torchrun, which passes it to every rank; rank 0 writes what it has.
    mark = tmp_path / "fault-fired"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1", "GPU_ADVISOR_FLEET_FAULT": "1:compute:hang",
           "GPU_ADVISOR_FLEET_FAULT_MARK": str(mark)}
    output = tmp_path / "fleet.json"
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2", "--master-addr", "127.0.0.1",
               "--master-port", str(free_port()), "-m", "advisor", "cluster", "--quick", "--timeout", "60",
               "-o", str(output)]
    launcher = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + HARD_LIMIT_S
        while not mark.exists() and time.monotonic() < deadline and launcher.poll() is None:
            time.sleep(0.2)
        time.sleep(1.0)  # rank 1 hangs from now on; rank 0 waits on it with a 60 s timeout
        launcher.terminate()
        started = time.monotonic()
        launcher.wait(timeout=HARD_LIMIT_S)
    finally:
        if launcher.poll() is None:
            launcher.kill()
    assert time.monotonic() - started < 30  # long before the 60 s timeout
    ranks = {r["rank"]: r for r in json.loads(output.read_text())["fleet"]["ranks"]}
    assert ranks[1]["status"] != "ok"
    assert "stopped by the launcher" in ranks[0]["notes"][-1]


def test_outside_a_launcher_it_is_a_one_line_usage_error(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "WORLD_SIZE", "SLURM_PROCID")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "advisor", "cluster", "--quick"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("gpu-advisor: error: not started by a distributed launcher")
    assert len(done.stderr.strip().splitlines()) == 1
