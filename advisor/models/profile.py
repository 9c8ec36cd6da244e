"""What `gpu-advisor profile` learned from the user's own program: a bounded summary of its trace.

Field names are the fact paths rules read (``profile.sync.blocked_ms_per_step``). Costs are per recorded step
(ms) and as a fraction of the step; ``site`` strings name the user's line (``train.py:42``) or are empty.
Lists (steps, top operators, sites) are for the reporters; rules read the scalar fields.
"""

from typing import Optional

from pydantic import Field

from advisor.models.common import NOT_COLLECTED, Fact, StrictModel


class ProgramRun(StrictModel):
    command: str
    outcome: str  # finished / stopped (after the window) / failed / interrupted / timed-out / killed
    exit_code: Optional[int] = None
    error: Optional[str] = None
    steps_seen: int = 0
    wall_s: float = 0.0  # the whole profile run, program start to summary
    program_s: float = 0.0  # the child process (the program under the bootstrap), start to exit
    window_s: float = 0.0  # the recorded window itself
    partial: bool = False  # the program ended inside the window: only its completed steps were analysed
    #: Where the run's time went, in seconds each, in order (spawn -> bootstrap -> ... -> report): the program's
    #: own time and what the profiling added (profiler start/stop, trace export and reading, the summary).
    phases_s: dict[str, float] = Field(default_factory=dict)


class StepTime(StrictModel):
    index: int
    wall_ms: float
    gpu_busy_ms: Optional[float] = None
    sync_ms: float = 0.0  # host blocked in synchronising calls
    data_ms: float = 0.0  # host inside a DataLoader's __next__
    kernels: int = 0
    #: The GPU's idle time in this step, by cause (see IdleSplit); busy + the three = the step.
    idle_launch_ms: float = 0.0
    idle_sync_ms: float = 0.0
    idle_data_ms: float = 0.0


class OpTime(StrictModel):
    name: str
    ms_per_step: float
    calls_per_step: float
    share: float  # of the step's CPU time (top by CPU) or of GPU busy time (top by GPU)


class SourceSite(StrictModel):
    """A line of the user's program and what happened there, per step."""

    site: str  # path:line
    function: str = ""
    what: str  # "sync", "h2d-copy", "data-wait", "launches", "cpu-compute", "host-time"
    ms_per_step: float = 0.0
    count_per_step: float = 0.0
    detail: str = ""


class IdleSplit(StrictModel):
    """GPU idle time per step, by cause."""

    total_ms: float = 0.0
    launch_bound_ms: float = 0.0  # host busy launching / running Python: the queue ran dry
    host_sync_ms: float = 0.0  # the GPU drained while the host waited in a synchronisation, then refilled
    data_wait_ms: float = 0.0  # the host was inside a DataLoader's __next__


class KernelStats(StrictModel):
    per_step: float = 0.0
    short_fraction: Fact[float] = NOT_COLLECTED  # kernels that ran shorter than their own launch call
    launch_us_median: Fact[float] = NOT_COLLECTED  # host time of cudaLaunchKernel in this trace
    kernel_us_median: Fact[float] = NOT_COLLECTED
    without_python_stack: int = 0  # kernels with no user frame: autograd thread, CUDA graphs, compiled code
    from_cuda_graphs: int = 0
    from_compiled_code: int = 0


class CompiledStats(StrictModel):
    """Work from torch.compile regions and CUDA graph replays: their kernels have no Python stack of their own
    (generated code, a graph launched as one call), so they are counted here and in the totals, never at a line."""

    regions_per_step: float = 0.0  # torch.compile regions entered (forward and backward)
    graph_replays_per_step: float = 0.0  # cudaGraphLaunch calls (CUDAGraph.replay, mode="reduce-overhead")
    kernels_per_step: float = 0.0  # kernels launched inside those regions or replayed from graphs
    kernel_fraction: float = 0.0  # of all kernels in the window
    gpu_ms_per_step: float = 0.0  # GPU time of those kernels
    host_ms_per_step: float = 0.0  # host time inside the compiled regions
    site: str = ""  # the user's line that called the compiled code or replayed the graph most


class CopyStats(StrictModel):
    h2d_per_step: float = 0.0
    h2d_bytes_per_step: float = 0.0
    h2d_pageable_per_step: float = 0.0
    h2d_ms_per_step: float = 0.0
    d2h_per_step: float = 0.0
    d2h_bytes_per_step: float = 0.0
    d2h_ms_per_step: float = 0.0
    site: str = ""  # the line issuing most host->device copies
    #: Pinning measured at the program's mean copy size (gpu-advisor's process, same GPU, after the program):
    #: ms saved per step (the median over pageable/pinned sample pairs) and the pairs' range (low, high).
    pinned_saved_ms_per_step: Fact[float] = NOT_COLLECTED
    pinned_saved_range_ms: list[float] = Field(default_factory=list)
    fix_gain: str = "estimated, not measured: most of the copy time, and the stall it puts between kernels"


class SyncStats(StrictModel):
    per_step: float = 0.0
    blocked_ms_per_step: float = 0.0  # host time inside synchronising calls
    cost_ms_per_step: float = 0.0  # what removing them would save: min(host blocked, GPU idle after them)
    step_fraction: float = 0.0
    floor_fraction: float = 0.0
    site: str = ""  # the line with most syncs (from torch.cuda.set_sync_debug_mode)
    site_per_step: float = 0.0


class DataStats(StrictModel):
    wait_ms_per_step: float = 0.0
    step_fraction: float = 0.0
    floor_fraction: float = 0.0
    site: str = ""
    num_workers: Optional[int] = None
    pin_memory: Optional[bool] = None


class MatmulStats(StrictModel):
    fp32_calls_per_step: float = 0.0
    low_precision_calls_per_step: float = 0.0  # bf16 / fp16 (AMP or a half model)
    fp32_gpu_ms_per_step: float = 0.0
    fp32_gpu_fraction: float = 0.0  # of the step
    tf32_enabled: Optional[bool] = None
    conv_calls_per_step: float = 0.0
    conv_fixed_shapes: Optional[bool] = None
    cudnn_benchmark: Optional[bool] = None
    site: str = ""
    #: The same program's steps (unprofiled) with TF32 switched on by the tool after the window, when it was off.
    tf32_step_ms: Fact[float] = NOT_COLLECTED
    #: Share of the step TF32 saved: the median over off/on sample pairs, and their range (low, high).
    tf32_saved_fraction: Fact[float] = NOT_COLLECTED
    tf32_saved_range: list[float] = Field(default_factory=list)
    #: What turning TF32 on gives, in words: measured (steps before/after) or estimated, and saying which.
    fix_gain: str = ""
    #: cudnn.benchmark off/on, timed after the window on the program's own conv modules at their recorded input
    #: shapes (forward): ms of convolution time saved per step, the median over off/on pairs, and their range.
    cudnn_saved_ms_per_step: Fact[float] = NOT_COLLECTED
    cudnn_saved_range_ms: list[float] = Field(default_factory=list)
    #: The off/on pairs agree on a saving (every pair saved time): false when the range reaches zero, so the
    #: rule does not advise a switch its own measurement found useless; not collected when nothing was timed.
    cudnn_clear_gain: Fact[bool] = NOT_COLLECTED
    cudnn_fix_gain: str = ("estimated, not measured: often 5-30% of convolution time for CNNs; paid for with a "
                           "slower first step")


class MemoryStats(StrictModel):
    peak_allocated_bytes: Fact[int] = NOT_COLLECTED
    peak_reserved_bytes: Fact[int] = NOT_COLLECTED
    capacity_bytes: Fact[int] = NOT_COLLECTED
    peak_reserved_fraction: Fact[float] = NOT_COLLECTED


class CpuWorkStats(StrictModel):
    """Compute ops (matmul, conv) that ran on the CPU although CUDA was available."""

    ms_per_step: float = 0.0
    step_fraction: float = 0.0
    site: str = ""


class CollectiveStats(StrictModel):
    """Collectives (all-reduce, broadcast, ...) in the window, per step: NCCL kernels on a GPU, gloo's on the CPU.
    ``wait`` is the part with none of the rank's own compute beside it: in a synchronous job, mostly waiting for
    the other ranks; ``work`` is the rest of the step."""

    backend: str = ""  # "nccl" / "gloo" / "" (no collective in the window)
    calls_per_step: float = 0.0
    ms_per_step: float = 0.0
    wait_ms_per_step: float = 0.0
    wait_fraction: float = 0.0  # of the step
    work_ms_per_step: float = 0.0  # step - wait
    wait_ms_steps: list[float] = Field(default_factory=list)  # each recorded step's wait, in the step that launched it
    names: list[str] = Field(default_factory=list)  # "AllReduce", "gloo:all_reduce", ...


class RankProfile(StrictModel):
    """One rank of a torchrun job, as rank 0 gathered it (its own summary, or why there is none)."""

    rank: int
    status: str  # "ok" / "failed" (said why) / "missing" (never reported before the timeout)
    reason: str = ""
    node: str = ""
    step_ms: Fact[float] = NOT_COLLECTED
    gpu_busy_fraction: Fact[float] = NOT_COLLECTED
    steps_recorded: int = 0
    sync_ms_per_step: float = 0.0
    data_ms_per_step: float = 0.0
    #: From the rank's own trace (CollectiveStats): collectives per step, their time, the part spent waiting
    #: with no compute of its own beside it, and the rest of the step (its own work).
    collective_backend: str = ""
    collective_calls_per_step: float = 0.0
    collective_ms_per_step: float = 0.0
    collective_wait_ms_per_step: float = 0.0
    collective_wait_ms_steps: list[float] = Field(default_factory=list)
    work_ms_per_step: Fact[float] = NOT_COLLECTED


class RankSkew(StrictModel):
    """Step time across ranks: the slowest against the median of the other ranks that reported; and, when the
    ranks ran collectives every step (their step times then agree), the rank waiting least in them."""

    world_size: int = 1
    reported: int = 1
    slowest_rank: Optional[int] = None
    slowest_step_ms: Fact[float] = NOT_COLLECTED
    median_step_ms: Fact[float] = NOT_COLLECTED
    ratio: Fact[float] = NOT_COLLECTED  # slowest / the others' median (1.0 = no skew)
    missing: int = 0  # ranks that failed or never reported
    missing_text: str = ""  # "rank 1 (failed: ...)", for the message
    #: Every rank that reported ran collectives every step: their steps are tied together, so step times agree
    #: and the straggler shows in the collective wait instead (the rank that waits least).
    synchronised: bool = False
    straggler_rank: Optional[int] = None
    straggler_wait_ms: Fact[float] = NOT_COLLECTED  # its collective wait per step
    others_wait_ms: Fact[float] = NOT_COLLECTED  # the median of the other ranks' wait per step
    #: others - straggler: what the straggler costs them per step (the median over the recorded steps)
    extra_wait_ms: Fact[float] = NOT_COLLECTED
    extra_wait_fraction: Fact[float] = NOT_COLLECTED  # of the median step
    steps_compared: int = 0  # recorded steps every rank has a wait for
    straggler_steps: int = 0  # of those, the steps in which the straggler waited least
    straggler_step_fraction: Fact[float] = NOT_COLLECTED
    straggler_work_ms: Fact[float] = NOT_COLLECTED  # its step minus its wait
    others_work_ms: Fact[float] = NOT_COLLECTED
    collective_backend: str = ""


class ProfileFacts(StrictModel):
    run: ProgramRun
    mode: str  # "steps" (optimizer.step / profiler.step) or "wall" (a wall-clock window)
    cuda_available: bool
    device_name: Optional[str] = None
    compute_capability: Optional[str] = None
    tensor_cores: Optional[bool] = None  # capability >= 7.0
    tf32_capable: Optional[bool] = None  # capability >= 8.0 (Ampere and later)
    torch_version: str = ""
    torch_cuda_version: Optional[str] = None
    steps_recorded: int = 0
    step_ms: Fact[float] = NOT_COLLECTED  # median wall time of a recorded step (the window, in wall mode)
    baseline_step_ms: Fact[float] = NOT_COLLECTED  # median of the same program's steps, unprofiled
    overhead_fraction: Fact[float] = NOT_COLLECTED  # step_ms / baseline_step_ms - 1
    overhead_ms_per_step: Fact[float] = NOT_COLLECTED  # what the profiler added to a step (>= 0)
    conclusive: bool = True  # False when the overhead is too high to trust the breakdown as it stands
    gpu_busy_fraction: Fact[float] = NOT_COLLECTED
    #: GPU busy between the window's first and last GPU work: the lead-in after gpu-advisor's own drain at the
    #: window's start and the wait for its drain at the end are left out (the program's GPU was not idle then).
    gpu_busy_steady_fraction: Fact[float] = NOT_COLLECTED
    idle: IdleSplit = Field(default_factory=IdleSplit)
    idle_launch_fraction: float = 0.0
    idle_sync_fraction: float = 0.0
    #: The least share of an unprofiled step the launch-bound idle can be: as if all the time the profiler
    #: added came out of it. The ``floor_fraction`` fields below say the same of their costs.
    idle_launch_floor_fraction: float = 0.0
    kernels: KernelStats = Field(default_factory=KernelStats)
    compiled: CompiledStats = Field(default_factory=CompiledStats)
    copies: CopyStats = Field(default_factory=CopyStats)
    sync: SyncStats = Field(default_factory=SyncStats)
    data: DataStats = Field(default_factory=DataStats)
    matmul: MatmulStats = Field(default_factory=MatmulStats)
    memory: MemoryStats = Field(default_factory=MemoryStats)
    cpu_work: CpuWorkStats = Field(default_factory=CpuWorkStats)
    collectives: CollectiveStats = Field(default_factory=CollectiveStats)
    host_site: str = ""  # the user's line where the host spent most time in the window (sampled)
    steps: list[StepTime] = Field(default_factory=list)
    top_cpu_ops: list[OpTime] = Field(default_factory=list)
    top_gpu_ops: list[OpTime] = Field(default_factory=list)
    sites: list[SourceSite] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    #: Under torchrun: every rank's summary as gathered by rank 0 (this report's own numbers are rank 0's).
    ranks: list[RankProfile] = Field(default_factory=list)
    rank_skew: RankSkew = Field(default_factory=RankSkew)
