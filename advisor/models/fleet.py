"""A training job's hardware seen from every rank: per-rank summaries, collectives, fleet-wide conclusions.

``Report.fleet`` holds one ``Fleet`` when the report came from ``gpu-advisor cluster`` (or ``diagnose
--distributed``): each rank of a torch.distributed job built a ``RankSummary``; rank 0 gathered them and
derived ``FleetFacts``, the values fleet rules read as ``fleet.*``. Gathering is linear in ranks and every
list here is per rank or per message size, so a 64-GPU report stays small.
"""

from typing import Literal, Optional

from pydantic import Field

from advisor.models.common import NOT_COLLECTED, Fact, StrictModel
from advisor.models.facts import GpuFacts

RankStatus = Literal["ok", "failed", "missing"]
CollectiveOp = Literal["all_reduce", "all_gather"]


class HostToDeviceAffinity(StrictModel):
    """Pinned host->device bandwidth with the copying thread on the GPU's own NUMA cores and on other cores."""

    local_cpus: Fact[str] = NOT_COLLECTED  # "0-15,32-47"
    numa_node: Fact[int] = NOT_COLLECTED
    local_gbps: Fact[float] = NOT_COLLECTED
    remote_gbps: Fact[float] = NOT_COLLECTED
    size_bytes: int = 0


class CollectiveTiming(StrictModel):
    """One collective at one message size as this rank timed it (fixed iteration count, same on every rank)."""

    op: CollectiveOp
    #: nccl-tests' "size": bytes of the all-reduce buffer / of the whole all-gather output.
    size_bytes: int
    median_s: float
    iterations: int


class CollectiveResult(StrictModel):
    """A collective over the whole job at one size, converted as nccl-tests does (doc/PERFORMANCE.md)."""

    op: CollectiveOp
    size_bytes: int
    ranks: int
    #: Average over ranks of each rank's median time (nccl-tests' default ``-a 1``), seconds.
    time_s: float
    #: size / time, GB/s (1e9 bytes).
    algbw_gbps: float
    #: algbw x 2(n-1)/n for all-reduce, x (n-1)/n for all-gather; None for one rank (no traffic).
    busbw_gbps: Optional[float] = None
    #: Slowest rank's median over the fastest's: a straggler shows here first.
    rank_time_ratio: float = 1.0


class TopologyLink(StrictModel):
    """One pair of GPUs on a node as NVML sees it (``nvidia-smi topo -m``), with measured numbers where taken."""

    gpu_a: int
    gpu_b: int
    #: NVLINK / PIX (same PCIe switch) / PXB / PHB (host bridge) / NODE (same NUMA node) / SYS (across sockets).
    path: Fact[str] = NOT_COLLECTED
    nvlink_count: Fact[int] = NOT_COLLECTED
    peer_access: Fact[bool] = NOT_COLLECTED
    copy_gbps: Fact[float] = NOT_COLLECTED


class NodeTopology(StrictModel):
    node: str  # hostname; redacted to a stable placeholder in public reports
    gpu_count: int = 0
    #: Active NVLink links per GPU (NVML index -> count).
    nvlink_active: dict[int, Fact[int]] = Field(default_factory=dict)
    links: list[TopologyLink] = Field(default_factory=list)
    #: InfiniBand / RoCE devices with their rate: "mlx5_0 400 Gb/sec (4X NDR)".
    ib_devices: Fact[list[str]] = NOT_COLLECTED


class RankSummary(StrictModel):
    rank: int
    local_rank: int = 0
    node: str = ""  # hostname; redacted to a stable placeholder in public reports
    status: RankStatus = "ok"
    reason: Optional[str] = None
    #: The last phase this rank announced (probe / transfer / collectives / gather ...): where a dead rank died.
    last_phase: Optional[str] = None
    backend: str = ""
    device: str = ""  # "cuda:3" / "cpu"
    #: Versions, NCCL_*/TORCH_* environment, clocks, ECC, power cap, PCIe, NUMA: compared across ranks.
    fingerprint: dict[str, str] = Field(default_factory=dict)
    gpu: Optional[GpuFacts] = None
    h2d: Optional[HostToDeviceAffinity] = None
    collectives: list[CollectiveTiming] = Field(default_factory=list)
    #: Numbers where more is better, compared across ranks to find stragglers: matmul_tflops, h2d_local_gbps ...
    metrics: dict[str, float] = Field(default_factory=dict)
    #: Health flags of this rank's GPU: ECC errors, throttling, a PCIe link narrower than its maximum.
    health: list[str] = Field(default_factory=list)
    #: What NCCL's own INFO output says it used: P2P, NVLS, SHM, NET/IB, NET/Socket ...
    nccl_transports: Fact[list[str]] = NOT_COLLECTED
    nccl_network: Fact[str] = NOT_COLLECTED  # "IB" / "Socket"
    notes: list[str] = Field(default_factory=list)
    topology: Optional[NodeTopology] = None  # sent by each node's local rank 0 only
    wall_s: Optional[float] = None


class FleetFacts(StrictModel):
    """Fleet-wide conclusions the rules read as ``fleet.NAME``. Counts come with a ``*_text`` naming who."""

    world_size: Fact[int] = NOT_COLLECTED
    nodes: Fact[int] = NOT_COLLECTED
    ranks_missing: Fact[int] = NOT_COLLECTED
    ranks_missing_text: Fact[str] = NOT_COLLECTED
    version_differences: Fact[int] = NOT_COLLECTED
    version_differences_text: Fact[str] = NOT_COLLECTED
    env_differences: Fact[int] = NOT_COLLECTED
    env_differences_text: Fact[str] = NOT_COLLECTED
    stragglers: Fact[int] = NOT_COLLECTED
    stragglers_text: Fact[str] = NOT_COLLECTED
    #: Ranks whose NCCL used sockets although the node has InfiniBand/RoCE devices or NVLink.
    socket_fallback_ranks: Fact[int] = NOT_COLLECTED
    socket_fallback_text: Fact[str] = NOT_COLLECTED
    #: Ranks with NCCL_P2P_DISABLE / NCCL_IB_DISABLE / NCCL_SHM_DISABLE (or NCCL_NET=Socket) set to turn a transport off.
    transport_disabled_ranks: Fact[int] = NOT_COLLECTED
    transport_disabled_text: Fact[str] = NOT_COLLECTED
    #: GPU pairs on one PCIe switch or NVLink for which torch reports no peer access (ACS / IOMMU / a VM?).
    peer_access_blocked: Fact[int] = NOT_COLLECTED
    peer_access_blocked_text: Fact[str] = NOT_COLLECTED
    #: Ranks that share one physical GPU (same UUID): each gets a fraction of it.
    shared_gpu_ranks: Fact[int] = NOT_COLLECTED
    shared_gpu_text: Fact[str] = NOT_COLLECTED
    #: All-reduce bus bandwidth at the largest size measured, GB/s, and what the hardware should give.
    allreduce_busbw_gbps: Fact[float] = NOT_COLLECTED
    allreduce_busbw_size_bytes: Fact[int] = NOT_COLLECTED
    expected_busbw_gbps: Fact[float] = NOT_COLLECTED
    busbw_fraction_of_expected: Fact[float] = NOT_COLLECTED
    #: Which entry of the expected-bandwidth table applied, with its source.
    expected_busbw_basis: Fact[str] = NOT_COLLECTED


class Fleet(StrictModel):
    world_size: int
    backend: str
    tier: Literal["quick", "standard"] = "standard"
    ranks: list[RankSummary] = Field(default_factory=list)
    collectives: list[CollectiveResult] = Field(default_factory=list)
    facts: FleetFacts = Field(default_factory=FleetFacts)
    #: What this tier did not test, in words (the report says so rather than implying full coverage).
    not_tested: list[str] = Field(default_factory=list)
    timeout_s: Optional[float] = None
