"""The real one-GPU fleet report recorded on an H100 (tests/fixtures/fleet, from `torchrun --nproc-per-node 1
-m advisor cluster` on the lent machine): it loads, re-derives the same conclusions, and renders."""

from pathlib import Path

from advisor.distributed.analysis import derive_fleet_facts
from advisor.models.load import load_report_json
from advisor.report.markdown import render_markdown

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "fleet" / "h100_one_rank_standard.json"


def recorded():
    return load_report_json(RECORDED.read_text(), str(RECORDED))


def test_one_rank_on_nccl_measured_its_own_gpu():
    fleet = recorded().fleet
    assert fleet.backend == "nccl" and fleet.world_size == 1
    rank = fleet.ranks[0]
    assert rank.device == "cuda:0" and rank.gpu.name == "NVIDIA H100 80GB HBM3"
    assert 500 < rank.metrics["matmul_bf16_tflops"] < 800  # REFERENCE.md: bf16 ~635-675 TFLOP/s
    assert 40 < rank.h2d.local_gbps < 64  # PCIe Gen5 x16; REFERENCE.md: pinned H2D ~54 GB/s
    assert rank.nccl_network == "Socket" and rank.nccl_transports == []  # one rank: NCCL connects nothing


def test_one_rank_has_no_bus_bandwidth_and_says_why():
    fleet = recorded().fleet
    assert all(c.busbw_gbps is None and c.ranks == 1 for c in fleet.collectives)
    assert "one rank" in fleet.facts.expected_busbw_gbps.unavailable


def test_conclusions_re_derive_identically():
    # Facts added after the recording are "not collected" in it; every fact it has re-derives the same.
    from advisor.models.common import NOT_COLLECTED

    fleet = recorded().fleet
    again = derive_fleet_facts(fleet)
    recorded_facts = {k: v for k, v in fleet.facts if v != NOT_COLLECTED}
    assert len(recorded_facts) >= 15
    assert {k: getattr(again, k) for k in recorded_facts} == recorded_facts


def test_renders_the_one_device_topology():
    text = render_markdown(recorded())
    assert "<summary>Topology of {host-1} (1 GPU)</summary>" in text
    assert "| GPU0 | X | 0 |" in text
