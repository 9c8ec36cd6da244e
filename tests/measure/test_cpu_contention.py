"""CPU contention, detected on this machine with a real CPU hog next to the timed work (bounded, killed after)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from advisor.probe import load

torch = pytest.importorskip("torch")

HOG = "import time\nend = time.time() + 20\nwhile time.time() < end:\n    pass\n"


@pytest.fixture
def hogs():
    """One busy-looping process per usable core, for at most 20 s, killed by pid when the test ends."""
    processes = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(max(1, int(load.usable_cores())))]
    time.sleep(0.3)  # let them start spinning
    try:
        yield processes
    finally:
        for process in processes:
            process.kill()
        for process in processes:
            process.wait(timeout=5)


def busy_matmul(seconds: float) -> None:
    a = torch.randn(512, 512)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        a @ a


def test_a_cpu_hog_is_seen_as_contention(hogs):
    before = load.read_load()
    busy_matmul(1.0)
    span = load.between(before, load.read_load())
    assert span.others_busy_cores is not None and span.others_busy_cores > 0.4, span
    assert span.contended
    assert "other processes used" in span.describe()


def test_a_contended_cpu_peak_is_marked_and_never_stable(hogs):
    from advisor.measure.load_watch import CpuLoadWatch
    from advisor.measure.session import MeasurementSession, MeasurePlan

    session = MeasurementSession(MeasurePlan(budget_s=5.0, crossovers=(), cpu_peak_dtypes=("float32",)),
                                 None, load_probe=load)  # type: ignore[arg-type]
    assert isinstance(session.load, CpuLoadWatch)
    result = session.run_cpu_only("no GPU in this test")
    peak = next(d for d in result.peaks.details if d.name == "CPU matmul float32")
    assert peak.stats.contended and not peak.stats.stable
    cpu_load = result.run.cpu_load
    assert cpu_load is not None and cpu_load.contended
    assert cpu_load.others_busy_cores > 0.4
    assert any("CPU matmul float32" in name for name in cpu_load.contended_measurements)


def test_contention_arithmetic():
    sample = lambda wall, busy, own, steal=0.0, total=None: load.LoadSample(  # noqa: E731
        wall=wall, busy_s=busy, steal_s=steal, total_s=total if total is not None else wall * 2, own_s=own)
    quiet = load.between(sample(0, 0, 0), sample(1, 1.9, 1.9), cores=2)
    assert quiet.others_busy_cores == pytest.approx(0.0) and not quiet.contended
    busy = load.between(sample(0, 0, 0), sample(1, 1.95, 1.0), cores=2)
    assert busy.others_busy_cores == pytest.approx(0.95) and busy.contended
    stolen = load.between(sample(0, 0, 0, 0, 0), sample(1, 1.0, 1.0, 0.6, 2.0), cores=2)
    assert stolen.steal_fraction == pytest.approx(0.3) and stolen.contended
    # 5-10% steal within a short window was seen on lent H100 VMs whose numbers repeated: not contention.
    assert not load.between(sample(0, 0, 0, 0, 0), sample(1, 1.0, 1.0, 0.2, 2.0), cores=2).contended
