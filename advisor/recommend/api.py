"""``recommend_batch_size``: the Python API behind `gpu-advisor batch-size`, for training scripts and callbacks.

    from advisor.recommend import recommend_batch_size
    result = recommend_batch_size(model, next(iter(loader))[0], optimizer="adamw", amp="bf16")
    batch_size = result.recommended

The model comes back exactly as it was given (weights, buffers, gradients, train/eval flags, device,
requires_grad, RNG states), also after Ctrl-C, and the call leaves no GPU memory allocated.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

from advisor.formatting import plural
from advisor.recommend.driver import (
    AMP_DTYPES,
    MODES,
    OPTIMIZERS,
    THROUGHPUT_TIMING,
    StepRunner,
    StepSpec,
    search_timing,
)
from advisor.recommend.errors import ModelRejectedInput, NoCudaDevice
from advisor.recommend.knee import ThroughputPoint, curve_batches, throughput_knee
from advisor.recommend.policy import Target, parse_target, recommend
from advisor.recommend.result import OPTIMIZER_STATE_COPIES, BatchSizeResult, StaticMemory
from advisor.recommend.search import BatchSearch, SearchConfig

ProgressFn = Callable[[str], None]


def describe_input(sample: Any) -> str:
    from advisor.recommend.driver import _tensors

    parts = [f"{tuple(t.shape[1:])} {str(t.dtype).replace('torch.', '')}" for t in _tensors(sample)]
    return "per sample " + ", ".join(parts) if parts else "no tensors"


def static_memory(model: Any, mode: str, optimizer: Optional[str]) -> StaticMemory:
    params = list(model.parameters())
    trainable = [p for p in params if p.requires_grad]
    static = StaticMemory(
        param_bytes=sum(p.numel() * p.element_size() for p in params),
        trainable_bytes=sum(p.numel() * p.element_size() for p in trainable),
        buffer_bytes=sum(b.numel() * b.element_size() for b in model.buffers()),
        param_count=sum(p.numel() for p in params))
    if mode == "train":
        static.gradient_bytes = static.trainable_bytes
        static.optimizer_state_bytes = static.trainable_bytes * OPTIMIZER_STATE_COPIES.get(optimizer or "", 0)
    return static


def _validate(mode: str, optimizer: str, amp: Optional[str], margin: float, steps_per_trial: int,
              max_batch: Optional[int]) -> None:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if optimizer not in OPTIMIZERS:
        raise ValueError(f"optimizer must be one of {OPTIMIZERS}, got {optimizer!r}")
    if amp is not None and amp not in AMP_DTYPES:
        raise ValueError(f"amp must be None or one of {AMP_DTYPES}, got {amp!r}")
    if not 0 <= margin < 0.9:
        raise ValueError(f"margin must be in [0, 0.9), got {margin}")
    if steps_per_trial < 2:
        raise ValueError("steps_per_trial must be at least 2: optimizer state appears at the first step")
    if max_batch is not None and max_batch < 1:
        raise ValueError("max_batch must be at least 1")


def _cuda_device(device: Any) -> Any:
    import torch

    if not torch.cuda.is_available():
        reason = "this torch build has no CUDA" if torch.version.cuda is None else "torch.cuda.is_available() is False"
        raise NoCudaDevice(f"no CUDA device: {reason}; the batch-size search needs a GPU")
    resolved = torch.device(device) if device is not None else torch.device("cuda", torch.cuda.current_device())
    if resolved.type != "cuda":
        raise NoCudaDevice(f"device {resolved} is not a CUDA device")
    index = resolved.index if resolved.index is not None else torch.cuda.current_device()
    if index >= torch.cuda.device_count():
        raise NoCudaDevice(f"cuda:{index} does not exist (torch sees {plural(torch.cuda.device_count(), 'GPU')})")
    return torch.device("cuda", index)


def recommend_batch_size(
    model: Any,
    sample_input: Any,
    *,
    mode: str = "train",
    optimizer: str = "adam",
    amp: Optional[str] = None,
    margin: float = 0.10,
    target: Union[Target, str, float, None] = None,
    max_batch: Optional[int] = None,
    device: Any = None,
    loss_fn: Optional[Callable[[Any, Any], Any]] = None,
    steps_per_trial: int = 3,
    throughput: bool = True,
    rel_tolerance: float = 0.01,
    time_budget_s: float = 300.0,
    progress: Optional[ProgressFn] = None,
    model_label: Optional[str] = None,
    meter: Any = None,
) -> BatchSizeResult:
    """Largest batch that runs full steps, the batch to use after ``margin``, and the throughput knee.

    ``sample_input``: one batch as the model takes it (a tensor, a tuple/list of tensors passed positionally, or
    a dict passed as keywords); dimension 0 is the batch. Its rows are repeated to build bigger batches, so real
    data keeps token ids and masks valid. ``loss_fn(output, batch)`` defaults to the sum of the means of the
    floating outputs. ``target``: 0.95 / "throughput=0.9" sets the knee; "memory=0.5" caps the recommended
    batch's predicted peak at half the GPU. ``meter`` replaces the CUDA memory meter (tests on CPU).
    """
    from advisor.measure.timer import Stopwatch
    from advisor.recommend.state import describe_differences, restore, take_snapshot

    _validate(mode, optimizer, amp, margin, steps_per_trial, max_batch)
    chosen_target = target if isinstance(target, Target) else parse_target(None if target is None else str(target))
    if meter is None:
        from advisor.recommend.driver import CudaMeter

        device = _cuda_device(device)
        meter = CudaMeter(device)
    else:
        import torch

        device = torch.device(device or "cpu")
    if mode == "train" and not any(p.requires_grad for p in model.parameters()):
        raise ValueError("the model has no parameter with requires_grad=True: nothing to train (use mode='inference')")
    say = progress or (lambda _message: None)
    watch = Stopwatch()
    spec = StepSpec(mode=mode, optimizer=optimizer, amp=amp, steps_per_trial=steps_per_trial)
    baseline = meter.allocated()
    snapshot = take_snapshot(model)
    runner: Optional[StepRunner] = None
    result: Optional[BatchSizeResult] = None
    try:
        static = static_memory(model, mode, optimizer)
        model.to(device)
        model.train(mode == "train")
        runner = StepRunner(model, sample_input, spec, device, meter, loss_fn)
        meter.release(collect=True)
        limit, total = meter.limits()
        search = BatchSearch(limit, SearchConfig(max_batch=max_batch, rel_tolerance=rel_tolerance))
        _run_search(search, runner, spec, watch, time_budget_s, say, time_fit_phase=throughput)
        search_s = watch.elapsed()
        result = _result(search, spec, static, limit, total, margin, chosen_target, max_batch,
                         model_label or type(model).__name__, describe_input(sample_input), _device_name(device))
        result.search_s = search_s
        if search.state.reason == "error":
            first = search.trials[0]
            raise ModelRejectedInput(first.message, input_description=result.input_description, batch=first.batch)
        if search.state.reason == "too_large" and any(t.failure == "error" for t in search.trials):
            # Batch 1 raised an error, batch 2 ran out of memory: the error is what the user must see.
            first = search.trials[0]
            raise ModelRejectedInput(first.message, input_description=result.input_description, batch=first.batch)
        if result.fits_at_all and throughput:
            _measure_throughput(result, runner, watch, time_budget_s, say)
            result.throughput_s = watch.elapsed() - search_s
        if result.fits_at_all:
            _choose_knee(result, chosen_target)
    finally:
        if runner is not None:
            runner.close()
        runner = None
        meter.release(collect=True)
        restore(model, snapshot)
        meter.release(collect=True)
        leftover = meter.allocated() - baseline
        if leftover > 0 and hasattr(meter, "clear_library_workspaces"):
            # cuBLAS keeps a workspace per handle and stream in torch's pool for the life of the process; one
            # created during the search is not the user's memory: hand it back (torch re-creates it on demand).
            meter.clear_library_workspaces()
            leftover = max(0, meter.allocated() - baseline)
        if result is not None:
            result.leftover_bytes = leftover
            result.restore_problems = describe_differences(model, snapshot)
            if leftover:
                result.notes.append(f"{leftover} bytes more are allocated than before the search (a leak to report)")
            result.total_s = watch.elapsed()
    return result


def _device_name(device: Any) -> str:
    import torch

    return torch.cuda.get_device_name(device) if device.type == "cuda" else str(device)


def _run_search(search: BatchSearch, runner: StepRunner, spec: StepSpec, watch: Any, budget_s: float,
                say: ProgressFn, *, time_fit_phase: bool) -> None:
    """Propose, run, record until the search is done. With ``time_fit_phase`` the small fit-phase batches are
    timed like throughput points (a few more steps each), so the curve need not run them again."""
    while (batch := search.propose()) is not None:
        if watch.elapsed() > budget_s and search.state.largest_fit:
            search.stop("time budget")
            search.state.notes.append(f"stopped at the {budget_s:.0f} s time budget: the largest batch that ran "
                                      "stands, the true maximum may be higher")
            break
        phase = "fit" if search.phase == "fit" else "search"
        timing = THROUGHPUT_TIMING if phase == "fit" and time_fit_phase else search_timing(spec.steps_per_trial)
        say(f"{phase}: batch {batch}")
        trial = runner.trial(batch, phase=phase, timing=timing)
        say(f"{phase}: batch {batch} {'ran' if trial.fits else trial.failure}")
        search.record(trial)


def _result(search: BatchSearch, spec: StepSpec, static: StaticMemory, limit: int, total: int, margin: float,
            target: Target, max_batch: Optional[int], label: str, input_description: str,
            device_name: str) -> BatchSizeResult:
    state = search.state
    result = BatchSizeResult(
        model_label=label, input_description=input_description, setup=spec.describe(), mode=spec.mode,
        optimizer=spec.optimizer if spec.mode == "train" else None, amp=spec.amp, device_name=device_name,
        total_bytes=total, limit_bytes=limit, static=static, trials=search.trials, max_fit=state.largest_fit or 0,
        smallest_fail=state.smallest_fail, search_reason=state.reason, initial_prediction=state.initial_prediction,
        memory_model=search.fitted(reserved=False), reserved_model=search.fitted(reserved=True), margin=margin,
        target=target.describe(), notes=list(state.notes), max_batch=max_batch)
    if result.fits_at_all:
        peak = max(t.peak_allocated for t in search.trials if t.fits and t.batch == result.max_fit)
        choice = recommend(result.max_fit, model=result.memory_model, limit_bytes=limit, margin=margin,
                           total_bytes=total, target=target, max_fit_peak_bytes=peak)
        result.recommended, result.recommended_reasons = choice.batch, choice.reasons
        result.notes += fragmentation_notes(search, spec.steps_per_trial)
    return result


def fragmentation_notes(search: BatchSearch, steps_per_trial: int) -> list[str]:
    """A batch that completed a whole step and then ran out of memory had the memory for a step: the allocator's
    cache was too fragmented to find it again. That limit moves with allocation order, and a setting lifts it."""
    model = search.fitted()
    capacity = model.max_batch_within(search.target_bytes) if model is not None else None
    if not capacity:
        return []
    # Only failures clearly below capacity: at the capacity itself a second step may simply need a bit more.
    late = sorted({t.batch: t for t in search.trials
                   if t.failure == "oom" and t.steps >= 1 and t.batch < 0.97 * capacity}.values(),
                  key=lambda t: t.batch)
    if not late:
        return []
    batches = ", ".join(f"{t.batch} (after {t.steps} of {steps_per_trial} steps)" for t in late[:4])
    more = f"; the memory model puts capacity near batch {capacity}"
    return [f"Fragmentation sets this limit, not capacity: {batches} ran out of memory after completing a step{more}. "
            "Where the next step fails depends on allocation order, so a nearby batch can fail in another loop. "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (set before the process starts) lets cached segments "
            "grow instead of splitting, and usually lifts this limit; run the search again with it set."]


def _measure_throughput(result: BatchSizeResult, runner: StepRunner, watch: Any, budget_s: float,
                        say: ProgressFn) -> None:
    """Samples/s along powers of two up to the largest batch that ran: the fit phase already timed the small
    ones (several samples each); the rest are timed now, the largest from its search trial if time is short."""
    timed = {t.batch: t for t in result.trials if t.fits and t.step_s and t.phase == "fit"}
    smallest = min(t.batch for t in result.trials if t.fits)  # batch 1 may not run (BatchNorm in training)
    wanted = [b for b in curve_batches(result.max_fit, include=[result.recommended or 0]) if b >= smallest]
    largest = [t for t in result.trials if t.batch == result.max_fit and t.fits and t.step_s]
    if largest and result.max_fit not in timed:
        # Its search trial timed two steady-state steps already; five more at the very limit would cost the most
        # time of the whole curve and could fail on fragmentation alone.
        timed[result.max_fit] = largest[-1]
    for batch in wanted:
        if batch in timed:
            continue
        if watch.elapsed() > budget_s:
            result.notes.append(f"throughput curve cut short at the {budget_s:.0f} s time budget")
            break
        say(f"throughput: batch {batch}")
        trial = runner.trial(batch, phase="throughput", timing=THROUGHPUT_TIMING)
        result.trials.append(trial)
        if trial.fits:
            timed[batch] = trial
        else:
            result.notes.append(f"batch {batch} failed while timing throughput ({trial.message}), although "
                                f"{result.max_fit} had run: memory is tight at the limit")
    for batch in wanted:
        if batch not in timed:  # the search's own timing of the largest batches, when it could not be re-timed
            fallback = [t for t in result.trials if t.batch == batch and t.fits and t.step_s]
            if fallback:
                timed[batch] = fallback[-1]
    result.throughput = [ThroughputPoint(batch=t.batch, samples_per_s=t.batch / t.step_s, step_s=t.step_s,
                                         timing_samples=t.timing_samples, stable=t.timing_stable)
                         for b, t in sorted(timed.items()) if t.step_s and b in wanted]


def _choose_knee(result: BatchSizeResult, target: Target) -> None:
    fraction = target.value if target.kind == "throughput" else 0.95
    result.knee = throughput_knee(result.throughput, fraction) if result.throughput else None
