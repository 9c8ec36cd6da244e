"""Hand-built rank summaries for the analysis and layout tests (the numbers are inputs, not measurements;
the measured path is exercised by test_torchrun.py with real processes)."""

from advisor.models.facts import GpuFacts
from advisor.models.fleet import Fleet, NodeTopology, RankSummary, TopologyLink

BASE_PRINT = {"torch": "2.5.1+cu124", "torch_cuda": "12.4", "nccl": "2.21.5", "driver": "550.54.15",
              "python": "3.11.9", "env.NCCL_SOCKET_IFNAME": "ib0"}


def rank(number, node="node-a", *, metrics=None, prints=None, transports=("P2P",), network="IB", health=(),
         uuid=None, topology=None, status="ok"):
    return RankSummary(
        rank=number, local_rank=number % 8, node=node, backend="nccl", device=f"cuda:{number % 8}",
        fingerprint={**BASE_PRINT, **(prints or {})},
        gpu=GpuFacts(index=number % 8, name="NVIDIA H100 80GB HBM3", uuid=uuid or f"GPU-{node}-{number % 8}",
                     pcie_gen_max=5, pcie_width_max=16, pcie_gen_current=5, pcie_width_current=16),
        metrics={"matmul_bf16_tflops": 650.0, "h2d_local_gbps": 54.0, **(metrics or {})},
        nccl_transports=list(transports), nccl_network=network, health=list(health), topology=topology,
        status=status)


def eight_gpu_topology(node, nics=("mlx5_0:1 IB 400 Gb/sec (4X NDR) ACTIVE",)):
    links = [TopologyLink(gpu_a=a, gpu_b=b, path="NVLINK", nvlink_count=18, peer_access=True)
             for a in range(8) for b in range(a + 1, 8)]
    return NodeTopology(node=node, gpu_count=8, nvlink_active=dict.fromkeys(range(8), 18), links=links,
                        ib_devices=list(nics))


def fleet_of(ranks, backend="nccl"):
    return Fleet(world_size=len(ranks), backend=backend, ranks=ranks)


def healthy_job(nodes=2, per_node=8):
    ranks = []
    for n in range(nodes):
        node = f"node-{n}"
        for local in range(per_node):
            number = n * per_node + local
            ranks.append(rank(number, node, topology=eight_gpu_topology(node) if local == 0 else None,
                              transports=("P2P", "NET/IB") if nodes > 1 else ("P2P",)))
    return ranks
