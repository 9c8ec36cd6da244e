"""Fleet-wide conclusions: who differs, who lags, which transport fell back -- each naming its ranks."""

from advisor.distributed.analysis import derive_fleet_facts, rank_names
from advisor.distributed.collectives import combine
from advisor.models.fleet import CollectiveTiming
from tests.distributed.fleet_models import fleet_of, healthy_job, rank


def facts_of(ranks, backend="nccl"):
    fleet = fleet_of(ranks, backend)
    fleet.collectives = combine(ranks)
    return derive_fleet_facts(fleet)


def test_rank_names_compress_runs():
    assert rank_names([5, 0, 1, 2]) == "ranks 0-2, 5"
    assert rank_names([7]) == "rank 7"


def test_a_healthy_job_has_nothing_to_say():
    facts = facts_of(healthy_job())
    assert (facts.world_size, facts.nodes, facts.ranks_missing) == (16, 2, 0)
    for count in (facts.version_differences, facts.env_differences, facts.stragglers, facts.socket_fallback_ranks,
                  facts.transport_disabled_ranks, facts.shared_gpu_ranks):
        assert count == 0


def test_the_odd_version_is_named_after_the_majority():
    ranks = healthy_job()
    ranks[15].fingerprint["torch"] = "2.4.0+cu121"
    facts = facts_of(ranks)
    assert facts.version_differences == 1
    assert facts.version_differences_text == "torch: 2.5.1+cu124 on ranks 0-14; 2.4.0+cu121 on rank 15"


def test_environment_set_on_one_node_only():
    ranks = healthy_job()
    for r in ranks[8:]:
        r.fingerprint["env.NCCL_SOCKET_IFNAME"] = "eth0"
    ranks[3].fingerprint["env.NCCL_ALGO"] = "Tree"
    facts = facts_of(ranks)
    assert facts.env_differences == 2
    assert "NCCL_SOCKET_IFNAME: ib0 on ranks 0-7; eth0 on ranks 8-15" in facts.env_differences_text
    assert "NCCL_ALGO: <unset> on ranks 0-2, 4-15; Tree on rank 3" in facts.env_differences_text


def test_one_gpu_per_task_visible_devices_is_not_a_difference():
    ranks = healthy_job(nodes=1)
    for r in ranks:
        r.fingerprint["env.CUDA_VISIBLE_DEVICES"] = str(r.rank)
    assert facts_of(ranks).env_differences == 0
    ranks[0].fingerprint["env.CUDA_VISIBLE_DEVICES"] = "0,1"
    assert facts_of(ranks).env_differences == 1


def test_straggler_by_number_and_by_health():
    ranks = healthy_job()
    ranks[5].metrics["matmul_bf16_tflops"] = 400.0
    ranks[12].health = ["PCIe link x8 of x16"]
    facts = facts_of(ranks)
    assert facts.stragglers == 2
    assert "rank 5 on node-0: matmul_bf16_tflops 400 vs fleet median 650" in facts.stragglers_text
    assert "rank 12 on node-1: PCIe link x8 of x16" in facts.stragglers_text


def test_small_spread_is_not_a_straggler():
    ranks = healthy_job()
    ranks[5].metrics["matmul_bf16_tflops"] = 600.0  # 8% under the median: noise, not a straggler
    assert facts_of(ranks).stragglers == 0


def test_sockets_where_infiniband_is_active():
    ranks = healthy_job()
    for r in ranks[8:]:
        r.nccl_transports, r.nccl_network = ["P2P", "NET/Socket"], "Socket"
    facts = facts_of(ranks)
    assert facts.socket_fallback_ranks == 8
    assert "rank 8 on node-1: NCCL used sockets although the node has an active InfiniBand/RoCE port" in facts.socket_fallback_text


def test_disabled_transports_named_per_rank():
    ranks = healthy_job(nodes=1)
    ranks[0].fingerprint["env.NCCL_P2P_DISABLE"] = "1"
    ranks[1].fingerprint["env.NCCL_NET"] = "Socket"
    ranks[2].fingerprint["env.NCCL_IB_DISABLE"] = "0"  # explicitly enabled: fine
    facts = facts_of(ranks)
    assert facts.transport_disabled_ranks == 2
    assert "NCCL_P2P_DISABLE=1" in facts.transport_disabled_text and "NCCL_NET=Socket" in facts.transport_disabled_text


def test_two_ranks_on_one_gpu():
    ranks = [rank(0, uuid="GPU-same"), rank(1, uuid="GPU-same"), rank(2)]
    facts = facts_of(ranks)
    assert facts.shared_gpu_ranks == 1 and "ranks 0-1 on node-a share GPU GPU-same" == facts.shared_gpu_text


def test_busbw_judged_against_nvlink_expectation():
    ranks = healthy_job(nodes=1)
    for r in ranks:
        # 1 GiB all-reduce at 30 ms on 8 ranks: algbw 35.8, busbw 62.6 GB/s -- far below NVLink's ~360.
        r.collectives = [CollectiveTiming(op="all_reduce", size_bytes=1 << 30, median_s=0.030, iterations=5)]
    facts = facts_of(ranks)
    assert abs(facts.allreduce_busbw_gbps - (1 << 30) / 0.030 / 1e9 * 1.75) < 1e-6
    assert facts.expected_busbw_gbps == 360.0
    assert facts.busbw_fraction_of_expected < 0.2


def test_a_missing_rank_is_named_with_its_last_phase():
    ranks = healthy_job(nodes=1)
    ranks[6] = rank(6, status="missing")
    ranks[6].reason, ranks[6].last_phase = "stopped answering: the process died or was killed", "collectives"
    facts = facts_of(ranks)
    assert facts.ranks_missing == 1
    assert facts.ranks_missing_text == ("rank 6 on node-a: stopped answering: the process died or was killed "
                                        "(last phase: collectives)")


def test_gloo_leaves_nccl_questions_unanswered_with_a_reason():
    facts = facts_of([rank(0, transports=()), rank(1, transports=())], backend="gloo")
    assert "gloo" in facts.socket_fallback_ranks.unavailable
    assert "gloo" in facts.expected_busbw_gbps.unavailable


def test_nccl_naming_its_socket_network_on_an_nvlink_node_is_not_a_fallback():
    # Recorded on an H100 node without InfiniBand: NCCL logs "Using network Socket" even when no NET is used.
    from tests.distributed.fleet_models import eight_gpu_topology

    ranks = healthy_job(nodes=1)
    ranks[0].topology = eight_gpu_topology("node-0", nics=())
    for r in ranks:
        r.nccl_network = "Socket"
    assert facts_of(ranks).socket_fallback_ranks == 0
    ranks[3].nccl_transports = ["NET/Socket"]
    assert facts_of(ranks).socket_fallback_ranks == 1


def test_a_gpu_with_nvlinks_down_is_named_but_a_node_with_none_up_is_not():
    from tests.distributed.fleet_models import eight_gpu_topology

    ranks = healthy_job(nodes=1)
    ranks[0].topology.nvlink_active[5] = 16
    facts = facts_of(ranks)
    assert facts.stragglers == 1 and "GPU 5 on node-0: 16 of 18 NVLinks up" in facts.stragglers_text
    ranks[0].topology = eight_gpu_topology("node-0")
    ranks[0].topology.nvlink_active = dict.fromkeys(range(8), 0)
    assert facts_of(ranks).stragglers == 0


def test_peer_access_refused_on_a_shared_switch_points_at_acs():
    ranks = healthy_job(nodes=1)
    link = ranks[0].topology.links[0]
    link.path, link.peer_access = "PIX", False
    facts = facts_of(ranks)
    assert facts.peer_access_blocked == 1 and facts.peer_access_blocked_text == "node-0: GPU0-GPU1 (PIX)"
    ranks[0].topology.links[0].path = "SYS"  # across sockets: no direct path to block
    assert facts_of(ranks).peer_access_blocked == 0


def test_socket_fallback_names_its_cause():
    ranks = healthy_job()
    ranks[8].nccl_transports, ranks[8].notes = ["NET/Socket"], ["no InfiniBand device found by NCCL"]
    ranks[8].fingerprint["env.NCCL_IB_DISABLE"] = "1"
    text = facts_of(ranks).socket_fallback_text
    assert text.endswith("(cause: no InfiniBand device found by NCCL, NCCL_IB_DISABLE=1)")
