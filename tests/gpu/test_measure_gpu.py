"""Measurement on a real GPU: the timer's two GPU methods agree, memory is returned, crossovers make sense."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def device():
    import torch

    return torch.device("cuda", 0)


def test_cuda_events_and_synchronize_agree_on_a_large_matmul(device):
    import torch

    from advisor.measure.timer import TimerConfig, time_cuda_events, time_synchronized

    a = torch.randn(4096, 4096, device=device)
    config = TimerConfig(budget_s=0.3)
    events = time_cuda_events(lambda: a @ a, config)
    synced = time_synchronized(lambda: a @ a, config)
    assert events.median_s == pytest.approx(synced.median_s, rel=0.15)


def test_unsynchronized_timing_under_reports(device):
    from advisor.measure.unsync import unsync_demo

    demo = unsync_demo(device)
    assert demo.underreport_factor > 3  # a 4096^2 fp32 matmul takes ms; its launch takes us


def test_a_measurement_run_returns_every_byte_it_allocated(device):
    import torch

    from advisor.measure.session import DeviceInfo, MeasurementSession, MeasurePlan

    before = torch.cuda.memory_allocated(device)
    plan = MeasurePlan.quick(budget_s=8)
    plan.crossovers = (("add", "float32"),)
    result = MeasurementSession(plan, DeviceInfo(torch_index=0, name=torch.cuda.get_device_name(0))).run()
    assert torch.cuda.memory_allocated(device) == before
    assert not any("still allocated" in note for note in result.run.notes)
    resident = next(r for r in result.crossover if r.mode == "resident")
    assert resident.status == "ok"
    assert resident.points[-1].winner == "gpu" or resident.gpu_never_wins


def test_transfer_and_memory_figures_are_physically_plausible(device):
    from advisor.measure.peaks import device_copy_bandwidth
    from advisor.measure.transfer import measure_transfers
    from advisor.models.measurements import TransferMeasurements

    transfer = TransferMeasurements(link_max_theoretical_gbps=126.0)
    measure_transfers(device, transfer, max_bytes=1 << 30)
    assert 1 < transfer.h2d_pinned_gbps < 126  # below PCIe Gen6 x16
    assert transfer.pinned_speedup > 1.0
    copy = device_copy_bandwidth(device, 4 << 30)
    assert 100 < copy.value < 10_000  # GB/s: any real GPU, no impossible number


def test_an_out_of_memory_inside_one_measurement_is_recorded_and_freed(device):
    import torch

    from advisor.measure.session import DeviceInfo, MeasurementSession, MeasurePlan

    session = MeasurementSession(MeasurePlan(), DeviceInfo())
    before = torch.cuda.memory_allocated(device)
    reason = session._guarded("a deliberately impossible allocation",
                              lambda: torch.empty(1 << 50, dtype=torch.uint8, device=device))
    assert reason is not None and reason.startswith("out of GPU memory during a deliberately impossible allocation")
    assert reason in session.result.run.notes
    assert torch.cuda.memory_allocated(device) == before


def test_ctrl_c_during_diagnose_still_writes_the_partial_report(tmp_path):
    """SIGINT once measuring has begun: the report is written, marked interrupted, and the process exits 0."""
    import json
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    target = tmp_path / "partial.json"
    process = subprocess.Popen([sys.executable, "-m", "advisor", "diagnose", "--format", "json", "-o", str(target)],
                               cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(12)  # past import torch and the probe: inside the crossover searches
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    report = json.loads(target.read_text())
    run = report["measurements"]["run"]
    assert run["interrupted"] is True
    assert any(c["status"] == "ok" for c in report["measurements"]["crossover"]) or report["measurements"]["peaks"]
    assert not any("still allocated" in note for note in run["notes"])
