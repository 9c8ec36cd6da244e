"""`batch-size`: the largest batch that runs full steps, the one to use, and the throughput knee."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from advisor.app.errors import EXIT_FAILURE, AdvisorError

if TYPE_CHECKING:
    from advisor.app.reports import ReportOutcome

# The command module reads INPUT_DTYPES for its help text when it registers: everything else loads on use.

INPUT_DTYPES = ("float32", "float16", "bfloat16", "float64", "int64", "int32")
#: Rows of random sample data the batch is built from (repeated cyclically).
SAMPLE_ROWS = 8


@dataclass
class BatchSizeRequest:
    model: str
    input_shape: Optional[str]
    input_dtype: Optional[str]
    target: Optional[str]
    mode: str
    optimizer: str
    amp: Optional[str]
    margin: float
    max_batch: Optional[int]
    device: int
    throughput: bool
    budget_s: float


def parse_input_shape(text: Optional[str], default: Optional[tuple[int, ...]]) -> tuple[int, ...]:
    from advisor.recommend.memory_fit import parse_shape

    if text is None:
        if default is None:
            raise AdvisorError("--input-shape is required for this model (the shape of one sample, without the "
                               "batch dimension, e.g. 3,224,224)")
        return default
    try:
        return parse_shape(text)
    except ValueError as error:
        raise AdvisorError(f"--input-shape: {error}") from None


def make_sample(model, shape: tuple[int, ...], dtype: str):
    """Random rows of one sample's shape: normal floats, or token ids below the model's smallest vocabulary."""
    import torch

    if dtype.startswith("int"):
        vocab = [m.num_embeddings for m in model.modules() if isinstance(m, torch.nn.Embedding)]
        high = min(vocab) if vocab else 1000
        return torch.randint(0, high, (SAMPLE_ROWS, *shape), dtype=getattr(torch, dtype))
    return torch.randn(SAMPLE_ROWS, *shape, dtype=getattr(torch, dtype))


def batch_size_report(request: BatchSizeRequest) -> ReportOutcome:
    """The report; its failure when the model does not fit even at the first batch."""
    from advisor.app.devices import require_gpu
    from advisor.app.progress import working
    from advisor.app.reports import ReportOutcome, build_report
    from advisor.measure.timer import Stopwatch
    from advisor.probe import collect_facts
    from advisor.recommend.model_source import ModelSourceError, load_model
    from advisor.recommend.policy import parse_target

    try:
        target = parse_target(request.target)
    except ValueError as error:
        raise AdvisorError(str(error)) from None
    if request.input_dtype is not None and request.input_dtype not in INPUT_DTYPES:
        raise AdvisorError(f"--input-dtype {request.input_dtype!r}: expected one of {', '.join(INPUT_DTYPES)}")
    try:
        loaded = load_model(request.model, time_limit_s=request.budget_s)  # --budget covers import and factory
    except ModelSourceError as error:
        raise AdvisorError(str(error)) from None
    shape = parse_input_shape(request.input_shape, loaded.default_input_shape)
    dtype = request.input_dtype or loaded.default_input_dtype or "float32"

    watch = Stopwatch()
    with working("probing this machine (importing torch)"):
        facts = collect_facts()
    require_gpu(facts, request.device)
    result = _search(loaded, shape, dtype, target, request)
    report = build_report("batch-size", facts, sources=["probe", "batch-size search"], rules_dirs=None)
    report.recommendations.append(result.to_recommendation())
    report.meta.wall_s = round(watch.elapsed(), 2)
    failure = None
    if not result.fits_at_all:
        failure = AdvisorError(f"{loaded.label} does not fit on this GPU even at batch {result.trials[0].batch}: "
                               f"{result.trials[0].message}", EXIT_FAILURE)
    return ReportOutcome(report, failure)


def _search(loaded, shape, dtype, target, request: BatchSizeRequest):
    from advisor.app.progress import progress_bar
    from advisor.recommend.api import recommend_batch_size
    from advisor.recommend.errors import ModelRejectedInput, NoCudaDevice

    try:
        sample = make_sample(loaded.model, shape, dtype)
    except Exception as error:  # noqa: BLE001 -- e.g. a dtype torch cannot make random values of
        raise AdvisorError(f"cannot build an input of shape {shape} {dtype}: {error}") from None
    with progress_bar("batch size") as update:
        steps = [0]

        def progress(message: str) -> None:
            steps[0] += 1
            update(message, steps[0], steps[0] + 1)

        try:
            return recommend_batch_size(
                loaded.model, sample, mode=request.mode, optimizer=request.optimizer, amp=request.amp,
                margin=request.margin, target=target, max_batch=request.max_batch, device=f"cuda:{request.device}",
                throughput=request.throughput, time_budget_s=max(request.budget_s - loaded.load_s, 1.0),
                progress=progress,
                model_label=loaded.label)
        except ModelRejectedInput as error:
            raise AdvisorError(f"the model rejected the input: shape {(1, *shape)} {dtype} (batch first) -> "
                               f"{error.model_message}") from None
        except NoCudaDevice as error:
            raise AdvisorError(str(error), EXIT_FAILURE) from None
        except ValueError as error:  # arguments the API refuses (e.g. nothing trainable in train mode)
            raise AdvisorError(str(error)) from None
        except KeyboardInterrupt:
            raise AdvisorError("interrupted: the model was restored and the GPU memory released", 130) from None
