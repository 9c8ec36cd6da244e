"""Measurements: numbers timed on this machine, each with its method, sample count and spread.

A measurement that could not be taken keeps its place with ``status`` failed/skipped and the reason, so a
rule that needs it is skipped with that reason instead of reading a number that is not there.
"""

from typing import Literal, Optional

from pydantic import Field, model_validator

from advisor.models.common import NOT_COLLECTED, Fact, StrictModel

Op = Literal["matmul", "add", "conv2d", "sum"]
DType = Literal["float32", "tf32", "float16", "bfloat16", "float64"]
#: Where a crossover's data lives and when its result is needed (not to be confused with batch-size's
#: train/inference StepMode). resident: data already on the GPU, many ops queued, one synchronize (best case);
#: sync: one op then the result is needed (per-op code with .item() or print);
#: transfer_pinned / transfer_pageable: inputs copied host->device, op, result copied back.
CrossoverMode = Literal["resident", "sync", "transfer_pinned", "transfer_pageable"]
TimingMethod = Literal["cuda_events", "synchronize", "cpu_clock", "single_observation"]
Status = Literal["ok", "failed", "skipped"]


class TimingStats(StrictModel):
    """Summary of repeated timings of one piece of work. Times are per operation, in seconds."""

    median_s: float
    q1_s: float
    q3_s: float
    min_s: float
    max_s: float
    samples: int
    #: Interquartile range over median: the spread the stopping rule looks at.
    rel_spread: float
    #: False when the time budget ran out before the spread fell under its target.
    stable: bool
    method: TimingMethod
    #: Operations run back to back inside one timed sample (tiny ops are batched to rise above clock noise).
    ops_per_sample: int = 1
    #: CPU threads torch used (CPU timings only).
    threads: Optional[int] = None
    #: "warm": the working set was reused between repeats (it may sit in cache); "cold": caches were flushed.
    cache_state: Literal["warm", "cold"] = "warm"
    #: CPU timing taken while other processes kept the CPU busy (probe/load.py): never ``stable``, and
    #: ``compare`` does not call a change in it a regression.
    contended: bool = False


class Measured(StrictModel):
    status: Status = "ok"
    reason: Optional[str] = None


class ScalarMeasurement(Measured):
    """One derived number (a bandwidth, a rate, an overhead) and the timing it came from."""

    #: Short label: "launch overhead", "host->device pinned 256 MiB".
    name: str = ""
    value: Optional[float] = None
    unit: str
    stats: Optional[TimingStats] = None
    #: What exactly was timed, in words a user can reproduce.
    workload: str = ""


class CrossoverPoint(StrictModel):
    size: int
    cpu: TimingStats
    gpu: TimingStats
    #: CPU median over GPU median: above 1 the GPU is faster.
    speedup: float
    #: "tie" when the medians are within a few percent of each other.
    winner: Literal["gpu", "cpu", "tie"]
    #: Sampling stopped (time cap) before the confidence interval settled the race: the winner is the point
    #: estimate, and a rerun may call it the other way.
    close_call: bool = False
    #: Measured afresh after its first look contradicted its neighbours, or before an answer rested on it.
    remeasured: bool = False


class CrossoverResult(Measured):
    op: Op
    dtype: DType
    mode: CrossoverMode
    #: What "size" counts for this op: matrix side n, number of elements, images in the batch.
    size_unit: str
    workload: str = ""
    #: Smallest size tried from which the GPU is faster and stays faster for every larger size tried.
    crossover_size: Optional[int] = None
    #: The GPU did not win at the largest size tried: said plainly rather than extrapolated.
    gpu_never_wins: bool = False
    #: The GPU already won at the smallest size tried (the true crossover is at or below range_min).
    gpu_always_wins: bool = False
    range_min: int = 0
    range_max: int = 0
    #: Smallest and largest size tried where CPU and GPU were within 15% of each other: across this range it
    #: hardly matters which one runs the op, and reruns can place the crossover anywhere inside it.
    close_race_from: Optional[int] = None
    close_race_to: Optional[int] = None
    #: What reruns reproduce (set by the measurement; None on reports older than it): the smallest size tried from
    #: which the GPU is faster by more than ``clear_factor`` at every larger size tried, and the largest size
    #: tried up to which the CPU is faster by more than that at every smaller size tried. Between them the two
    #: are about even: a single crossover size inside that stretch moves from run to run.
    gpu_clear_from: Optional[int] = None
    cpu_clear_to: Optional[int] = None
    clear_factor: Optional[float] = None
    #: Why this result contradicts another mode's (sync per op faster than resident, pageable copies faster than
    #: pinned ones) after being measured again; None when consistent.
    consistency_note: Optional[str] = None
    #: The CPU side was timed while other processes kept the CPU busy.
    cpu_contended: bool = False
    points: list[CrossoverPoint] = Field(default_factory=list)
    search: Literal["bisect", "dense"] = "bisect"
    evaluations: int = 0
    wall_s: float = 0.0

    @model_validator(mode="after")
    def _ok_has_an_answer(self) -> "CrossoverResult":
        # Every reader of an ok result prints its size or says "never"/"always": an ok result with none of
        # the three is a malformed report (bad input), not something to render.
        if self.status == "ok" and self.crossover_size is None and not (self.gpu_never_wins or self.gpu_always_wins):
            raise ValueError("a crossover marked ok needs crossover_size, gpu_never_wins or gpu_always_wins")
        return self


class TransferMeasurements(StrictModel):
    points: list[ScalarMeasurement] = Field(default_factory=list)
    h2d_pinned_gbps: Fact[float] = NOT_COLLECTED
    h2d_pageable_gbps: Fact[float] = NOT_COLLECTED
    d2h_pinned_gbps: Fact[float] = NOT_COLLECTED
    d2h_pageable_gbps: Fact[float] = NOT_COLLECTED
    #: Pinned over pageable host->device bandwidth at the largest size.
    pinned_speedup: Fact[float] = NOT_COLLECTED
    #: PCIe link as NVML read it while a large copy was in flight (an idle link downtrains to save power).
    link_gen_under_load: Fact[int] = NOT_COLLECTED
    link_width_under_load: Fact[int] = NOT_COLLECTED
    link_gen_max: Fact[int] = NOT_COLLECTED
    link_width_max: Fact[int] = NOT_COLLECTED
    #: Theoretical per-direction rate of the link under load (generation x width), GB/s.
    link_theoretical_gbps: Fact[float] = NOT_COLLECTED
    #: Theoretical rate of the link at its maximum generation and width, GB/s.
    link_max_theoretical_gbps: Fact[float] = NOT_COLLECTED
    #: Pinned host->device bandwidth over the theoretical rate of the link's maximum.
    h2d_fraction_of_link_max: Fact[float] = NOT_COLLECTED


class OverheadMeasurements(StrictModel):
    #: Host time to dispatch and launch one tiny eager op (queued, no sync), microseconds.
    launch_us: Fact[float] = NOT_COLLECTED
    #: GPU time of the same tiny op's kernel, microseconds.
    tiny_kernel_us: Fact[float] = NOT_COLLECTED
    #: torch.cuda.synchronize() on an idle stream, microseconds.
    sync_us: Fact[float] = NOT_COLLECTED
    #: tiny op + .item(): the round trip per-iteration host syncs pay, microseconds.
    item_us: Fact[float] = NOT_COLLECTED
    #: CUDA context creation + first kernel, seconds (one observation: it happens once per process).
    context_init_s: Fact[float] = NOT_COLLECTED
    #: First cuBLAS matmul (handle creation, lazy module load), seconds (one observation).
    first_matmul_s: Fact[float] = NOT_COLLECTED
    details: list[ScalarMeasurement] = Field(default_factory=list)


class PeakMeasurements(StrictModel):
    matmul_tflops: dict[DType, Fact[float]] = Field(default_factory=dict)
    #: Device-to-device copy, counting bytes read plus bytes written, GB/s.
    device_copy_gbps: Fact[float] = NOT_COLLECTED
    #: CPU matmul at the threads the user's program gets, GFLOP/s.
    cpu_matmul_gflops: dict[DType, Fact[float]] = Field(default_factory=dict)
    #: The GPU's published dense peak for this part where known (TFLOP/s, GB/s).
    spec_matmul_tflops: dict[DType, Fact[float]] = Field(default_factory=dict)
    spec_memory_gbps: Fact[float] = NOT_COLLECTED
    details: list[ScalarMeasurement] = Field(default_factory=list)


class UnsyncTimingDemo(Measured):
    """The same large matmul timed wrongly (host clock, no synchronize) and rightly (CUDA events)."""

    workload: str = ""
    naive_s: Optional[float] = None
    correct_s: Optional[float] = None
    #: correct over naive: how many times the naive timer under-reports.
    underreport_factor: Optional[float] = None


class GpuStateDuringRun(StrictModel):
    """What NVML saw while the measurements ran: throttling that makes every number above pessimistic."""

    clock_event_reasons_seen: Fact[list[str]] = NOT_COLLECTED
    sm_clock_min_mhz: Fact[int] = NOT_COLLECTED
    sm_clock_max_mhz: Fact[int] = NOT_COLLECTED
    temperature_max_c: Fact[int] = NOT_COLLECTED
    power_max_w: Fact[float] = NOT_COLLECTED


class CpuLoad(StrictModel):
    """How busy the CPU was with other work while gpu-advisor timed it (advisor/probe/load.py)."""

    #: CPUs this process may run on (affinity, and a cgroup CPU quota where one is set).
    usable_cores: float
    #: 1-minute load average at the end of the run (includes gpu-advisor's own threads).
    load_avg_1m: Optional[float] = None
    #: CPU time other processes used during the timed work, in cores (all CPU busy time minus ours, over wall).
    others_busy_cores: Optional[float] = None
    #: Share of CPU time the hypervisor gave to other guests (steal), where the kernel reports it.
    steal_fraction: Optional[float] = None
    #: Our own CPU time over wall time across the timed CPU loops, over the threads torch runs them with.
    own_cpu_share: Optional[float] = None
    contended: bool = False
    #: Which measurements were timed while contended.
    contended_measurements: list[str] = Field(default_factory=list)


class MeasurementRun(StrictModel):
    """Context every number needs to be read correctly."""

    device_index: Optional[int] = None
    device_name: Optional[str] = None
    cpu_threads: Optional[int] = None
    budget_s: Optional[float] = None
    wall_s: Optional[float] = None
    memory_cap_fraction: Optional[float] = None
    interrupted: bool = False
    notes: list[str] = Field(default_factory=list)
    cpu_load: Fact[CpuLoad] = NOT_COLLECTED


class Measurements(StrictModel):
    run: MeasurementRun = Field(default_factory=MeasurementRun)
    overheads: OverheadMeasurements = Field(default_factory=OverheadMeasurements)
    transfer: TransferMeasurements = Field(default_factory=TransferMeasurements)
    peaks: PeakMeasurements = Field(default_factory=PeakMeasurements)
    unsync_timing: Fact[UnsyncTimingDemo] = NOT_COLLECTED
    crossover: list[CrossoverResult] = Field(default_factory=list)
    gpu_state: GpuStateDuringRun = Field(default_factory=GpuStateDuringRun)
