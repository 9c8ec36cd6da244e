"""nccl-tests' algbw -> busbw conversion and the expected-bandwidth table."""

import pytest

from advisor.distributed.bandwidth import (
    FabricView,
    algbw_gbps,
    bus_factor,
    busbw_gbps,
    expected_allreduce_busbw,
    ib_rate_gbps,
)


@pytest.mark.parametrize("op, ranks, factor", [
    ("all_reduce", 2, 1.0), ("all_reduce", 8, 1.75), ("all_reduce", 64, 2 * 63 / 64),
    ("all_gather", 2, 0.5), ("all_gather", 8, 0.875), ("reduce_scatter", 4, 0.75),
])
def test_bus_factors_are_nccl_tests_own(op, ranks, factor):
    assert bus_factor(op, ranks) == pytest.approx(factor)


def test_one_rank_has_no_bus_bandwidth():
    assert bus_factor("all_reduce", 1) is None
    assert busbw_gbps("all_reduce", 1 << 30, 0.01, 1) is None


def test_busbw_of_a_known_case():
    # 8 ranks, 1 GB all-reduce in 5 ms: algbw 200 GB/s (1e9 bytes), busbw 200 x 2*7/8 = 350.
    assert algbw_gbps(10**9, 0.005) == pytest.approx(200.0)
    assert busbw_gbps("all_reduce", 10**9, 0.005, 8) == pytest.approx(350.0)


def test_unknown_collective_is_an_error():
    with pytest.raises(ValueError):
        bus_factor("all_to_all_v", 4)


def test_infiniband_rate_text():
    assert ib_rate_gbps("400 Gb/sec (4X NDR)") == 50.0
    assert ib_rate_gbps("garbage") is None


def test_eight_h100_nvlink_expect_about_the_published_ring_number():
    expected, _ = expected_allreduce_busbw(FabricView(ranks=8, nodes=1, backend="nccl", nvlink_links_min=18))
    assert 340 <= expected.gbps <= 380  # ~370 GB/s ring (NVLS reaches ~480)
    assert "NVLink" in expected.basis


def test_pcie_only_node_uses_the_link_rate():
    expected, _ = expected_allreduce_busbw(FabricView(ranks=4, nodes=1, backend="nccl", nvlink_links_min=0,
                                                      pcie_min=(4, 16)))
    assert expected.gbps == pytest.approx(31.5 * 0.8)


def test_across_nodes_the_network_caps_the_expectation():
    expected, _ = expected_allreduce_busbw(FabricView(ranks=16, nodes=2, backend="nccl", nvlink_links_min=18,
                                                      nic_gbps_per_node_min=50.0))
    assert expected.gbps == pytest.approx(45.0) and "InfiniBand" in expected.basis


@pytest.mark.parametrize("fabric, why", [
    (FabricView(ranks=1, nodes=1, backend="nccl", nvlink_links_min=18), "one rank"),
    (FabricView(ranks=2, nodes=1, backend="gloo"), "gloo"),
    (FabricView(ranks=16, nodes=2, backend="nccl", nvlink_links_min=18), "no InfiniBand"),
    (FabricView(ranks=2, nodes=1, backend="nccl"), "neither NVLink nor"),
])
def test_no_expectation_says_why(fabric, why):
    expected, reason = expected_allreduce_busbw(fabric)
    assert expected is None and why in reason
