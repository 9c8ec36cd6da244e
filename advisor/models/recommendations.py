"""Recommendations: concrete settings the tool proposes (batch size, memory limits), with their reasoning.

``Recommendation`` is a union discriminated by ``kind``: each kind has its own typed ``details`` (the numbers
behind the answer), so `gpu-advisor schema` documents them, loading a report validates them, and the reporters
read attributes, not string keys. The JSON is the one the untyped ``details`` dict had.
"""

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from advisor.models.common import Confidence, StrictModel


class RecommendationBase(StrictModel):
    """What every kind has. Each kind narrows ``kind``, ``value`` and ``details`` (the field order, and so the
    JSON's, stays this one)."""

    kind: str
    title: str
    #: The answer in one line, e.g. "batch size 96 (largest that fits: 107, margin 10%)".
    summary: str
    value: Optional[Any] = None
    confidence: Confidence = Confidence.measured
    reasoning: list[str] = Field(default_factory=list)
    details: Any


# -- batch size ------------------------------------------------------------------------------------------------
#: What a batch-size trial step is: forward, backward and optimizer step, or forward under inference_mode.
StepMode = Literal["train", "inference"]
#: Optimizers whose state the batch-size search counts (SGD momentum: one copy of the weights; Adam/AdamW two).
OptimizerName = Literal["sgd", "adam", "adamw"]
#: Autocast dtypes the batch-size search can run under (fp16 adds a GradScaler).
AmpDType = Literal["bf16", "fp16"]


class LinearMemoryFit(StrictModel):
    """Peak memory = fixed + per_sample x batch, fitted on real steps."""

    fixed_bytes: int
    per_sample_bytes: int
    fitted_on_batches: list[int]
    max_residual_bytes: int


class StaticMemory(StrictModel):
    param_count: int
    param_bytes: int
    buffer_bytes: int
    gradient_bytes: int
    optimizer_state_bytes: int


class ThroughputKnee(StrictModel):
    batch: int
    samples_per_s: float
    target: float  # share of the peak, e.g. 0.95
    peak_batch: int
    peak_samples_per_s: float
    still_rising: bool
    previous_batch: Optional[int] = None


class ThroughputPoint(StrictModel):
    batch: int
    samples_per_s: float
    step_s: float
    timing_samples: int = 0
    stable: Optional[bool] = None


class BatchTrial(StrictModel):
    """One batch size tried with real steps (see advisor/recommend/trials.py)."""

    batch: int
    fits: bool
    peak_allocated: int = 0
    peak_reserved: int = 0
    failure: Optional[Literal["oom", "error"]] = None
    message: str = ""
    steps: int = 0
    step_s: Optional[float] = None
    timing_samples: int = 0
    timing_stable: Optional[bool] = None
    phase: str = "search"  # "fit", "search" or "throughput"
    wall_s: float = 0.0
    samples_per_s: Optional[float] = None


class SearchWallTimes(StrictModel):
    search: float
    throughput: float
    total: float


class BatchSizeDetails(StrictModel):
    model: str
    input: str
    setup: str  # what a step was, in words
    mode: StepMode
    optimizer: Optional[OptimizerName] = None
    amp: Optional[AmpDType] = None
    device: str
    total_bytes: int
    usable_bytes: int
    max_fit: int
    smallest_fail: Optional[int] = None
    max_batch_cap: Optional[int] = None
    search_stopped_because: str
    initial_prediction: Optional[int] = None
    recommended: Optional[int] = None
    margin: float
    target: str
    knee: Optional[ThroughputKnee] = None
    memory_model: Optional[LinearMemoryFit] = None  # peak allocated
    reserved_model: Optional[LinearMemoryFit] = None  # peak reserved: what must fit
    static_memory: StaticMemory
    throughput_curve: list[ThroughputPoint] = Field(default_factory=list)
    trials: list[BatchTrial] = Field(default_factory=list)
    wall_s: SearchWallTimes
    leftover_bytes: Optional[int] = None  # still allocated after the model was restored (should be 0)
    restore_problems: list[str] = Field(default_factory=list)


class BatchSizeRecommendation(RecommendationBase):
    kind: Literal["batch_size"] = "batch_size"
    value: Optional[int] = None  # the recommended batch; None when not even the first batch fits
    details: BatchSizeDetails


# -- memory headroom, will it fit ------------------------------------------------------------------------------
class SquareMatmulFit(StrictModel):
    dtype: str
    n: int
    n_with_copy: int  # with one extra full copy of an operand alive
    bytes: int


class CopyCheck(StrictModel):
    pattern: str
    result_bytes: int
    extra_bytes: int  # peak beyond the inputs and the result: the hidden copy (0: none)


class MemoryHeadroomDetails(StrictModel):
    device_index: int
    device: str
    total_bytes: int
    free_bytes: int
    used_before_bytes: Optional[int] = None
    other_processes_bytes: Optional[int] = None
    context_bytes: Optional[int] = None
    cublas_outside_torch_bytes: int
    cublas_workspace_bytes: int
    torch_reserved_bytes: int
    torch_allocated_bytes: int
    reserved_unallocated_bytes: int
    fragmented_bytes: int
    driver_reserve_bytes: int
    usable_bytes: int
    allocator_conf: Optional[str] = None
    matmul_fits: list[SquareMatmulFit] = Field(default_factory=list)
    copy_checks: list[CopyCheck] = Field(default_factory=list)


class MemoryHeadroomRecommendation(RecommendationBase):
    kind: Literal["memory_headroom"] = "memory_headroom"
    value: int  # usable bytes
    details: MemoryHeadroomDetails


class TensorFootprint(StrictModel):
    name: str
    shape: list[int]
    bytes: int


class FitVerification(StrictModel):
    ran: bool
    out_of_memory: bool
    peak_bytes: int
    predicted_bytes: int
    message: Optional[str] = None


class MemoryFitDetails(StrictModel):
    op: str
    shape: list[int]
    dtype: str
    noncontiguous: bool
    tensors: list[TensorFootprint]
    needed_bytes: int
    usable_bytes: int
    fits: bool
    largest_fitting_shape: Optional[list[int]] = None
    verified: Optional[FitVerification] = None  # when --verify ran the op for real

    @model_serializer(mode="wrap")
    def _left_out_when_not_verified(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Reports have always said "not verified" by leaving the key out; keep the JSON as it was.
        data = handler(self)
        if data.get("verified") is None:
            data.pop("verified", None)
        return data


class MemoryFitRecommendation(RecommendationBase):
    kind: Literal["memory_fit"] = "memory_fit"
    value: bool  # fits
    details: MemoryFitDetails


# -- an out-of-memory message explained ------------------------------------------------------------------------
OomCause = Literal["too_big_for_gpu", "fragmentation", "other_processes", "non_pytorch", "genuinely_full", "unknown"]


class OomDetails(StrictModel):
    """The numbers the message held (None: not in it)."""

    cause: OomCause
    tried_bytes: Optional[int] = None
    gpu: Optional[int] = None
    total_bytes: Optional[int] = None
    free_bytes: Optional[int] = None
    this_process_bytes: Optional[int] = None
    allocated_bytes: Optional[int] = None
    reserved_unallocated_bytes: Optional[int] = None
    private_pool_bytes: Optional[int] = None
    non_pytorch_bytes: Optional[int] = None
    other_processes_bytes: Optional[int] = None
    other_processes: dict[str, int] = Field(default_factory=dict)  # pid -> bytes, as torch listed them
    message_style: str = ""  # "torch>=2.1" or "torch<2.1"


class OomRecommendation(RecommendationBase):
    kind: Literal["oom_explained"] = "oom_explained"
    value: None = None
    details: OomDetails


Recommendation = Annotated[
    Union[BatchSizeRecommendation, MemoryHeadroomRecommendation, MemoryFitRecommendation, OomRecommendation],
    Field(discriminator="kind"),
]
