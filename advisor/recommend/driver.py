"""The GPU side of the batch-size search: run real steps at one batch size and report what happened.

A trial builds the batch on the device, creates a fresh optimizer (its state appears at the first step, as in
training), runs ``steps_per_trial`` full steps through the one timer, and records peak allocated and reserved
memory. Out-of-memory is caught, and recovered from *outside* the ``except`` block: while the exception is
alive its traceback holds the frames that hold the batch, the activations and the optimizer; only after the
block ends can they be dropped, gradients cleared, cycles collected and the cache emptied for the next trial.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, get_args

from advisor.measure.timer import Stopwatch, TimerConfig
from advisor.models.recommendations import AmpDType, OptimizerName, StepMode
from advisor.recommend.trials import Trial, first_line, is_oom_message

MODES: tuple[str, ...] = get_args(StepMode)
OPTIMIZERS: tuple[str, ...] = get_args(OptimizerName)
AMP_DTYPES: tuple[str, ...] = get_args(AmpDType)

def search_timing(steps: int) -> TimerConfig:
    """Search trials: exactly ``steps`` steps (the first allocates optimizer state, the rest are timed)."""
    timed = max(1, steps - 1)
    return TimerConfig(warmup_runs=0, min_samples=timed, min_samples_slow=timed, max_samples=timed, budget_s=0.0,
                       min_sample_s=0.0)


#: Throughput points (and the small fit-phase batches, which double as points): one warm-up step after the
#: first, then at least three timed steps, more for fast steps until the spread is under 5% or 0.3 s is spent.
THROUGHPUT_TIMING = TimerConfig(warmup_runs=1, min_samples=3, min_samples_slow=3, max_samples=40, budget_s=0.3,
                                target_rel_spread=0.05, min_sample_s=0.0)


@dataclass(frozen=True)
class StepSpec:
    mode: str = "train"
    optimizer: str = "adam"
    amp: Optional[str] = None
    steps_per_trial: int = 3

    def describe(self) -> str:
        if self.mode == "inference":
            what = "inference forward passes (torch.inference_mode, eval mode)"
        else:
            what = f"training steps (forward, backward, {self.optimizer} step, zero_grad(set_to_none=True))"
        return what + (f", autocast {self.amp}" if self.amp else ", no autocast")


class CudaMeter:
    """Memory readings and the timer for one CUDA device."""

    def __init__(self, device: Any) -> None:
        self.device = device

    def release(self, *, collect: bool, allocated_before: Optional[int] = None) -> None:
        """Hand cached memory back to the device; ``collect``: first free what reference cycles still hold.

        ``allocated_before``: what was allocated before a trial that failed. Its leftovers are young cycles (the
        exception's frames and the tensors they hold), which a collection of the young generations frees; the full
        collection is paid only when memory is still held after it. It cost 0.16-0.33 s per failed trial on the H100
        (275k-506k live objects) against ~0 for the young ones (benchmarks/probe_trial_cost.py)."""
        import torch

        if collect and allocated_before is not None:
            gc.collect(1)
            if torch.cuda.memory_allocated(self.device) > allocated_before:
                gc.collect()
        elif collect:
            gc.collect()
        torch.cuda.synchronize(self.device)
        torch.cuda.empty_cache()

    def reset_peak(self) -> None:
        import torch

        torch.cuda.reset_peak_memory_stats(self.device)

    def clear_library_workspaces(self) -> None:
        import torch

        clear = getattr(torch._C, "_cuda_clearCublasWorkspaces", None)
        if clear is not None:
            clear()
        torch.cuda.empty_cache()

    def peaks(self) -> tuple[int, int]:
        import torch

        return torch.cuda.max_memory_allocated(self.device), torch.cuda.max_memory_reserved(self.device)

    def allocated(self) -> int:
        import torch

        return torch.cuda.memory_allocated(self.device)

    def limits(self) -> tuple[int, int]:
        """(bytes this process can reach: free + what torch already holds, total bytes of the device)."""
        import torch

        free, total = torch.cuda.mem_get_info(self.device)
        reachable = free + torch.cuda.memory_reserved(self.device)
        # torch.cuda.set_per_process_memory_fraction caps torch's allocator below what the device has free.
        get_fraction = getattr(torch.cuda, "get_per_process_memory_fraction", None)
        if get_fraction is not None:
            reachable = min(reachable, int(get_fraction(self.device) * total))
        return reachable, total

    def time(self, step: Callable[[], Any], config: TimerConfig):
        from advisor.measure.timer import time_synchronized

        return time_synchronized(step, config)


def _tensors(value: Any) -> Iterator[Any]:
    import torch

    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tensors(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _tensors(item)


def _map_tensors(value: Any, function: Callable[[Any], Any]) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        return function(value)
    if isinstance(value, dict):
        return type(value)((k, _map_tensors(v, function)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value)(_map_tensors(v, function) for v in value)
    return value


def sample_rows(sample: Any) -> int:
    first = next(_tensors(sample), None)
    if first is None or first.dim() == 0:
        raise ValueError("sample_input needs at least one tensor with a batch dimension (dimension 0)")
    return int(first.shape[0])


def default_loss(output: Any) -> Any:
    """Sum of the means of every floating-point tensor the model returned: a loss every output shape has, with
    the same backward graph (and memory) as a real loss over those outputs."""
    tensors = [t for t in _tensors(output) if t.is_floating_point() and t.requires_grad]
    if not tensors:
        raise TypeError("the model's output has no floating-point tensor that requires grad to take a loss "
                        "from; pass loss_fn=, or use mode='inference'")
    loss = tensors[0].mean().float()
    for tensor in tensors[1:]:
        loss = loss + tensor.mean().float()
    return loss


class StepRunner:
    def __init__(self, model: Any, sample: Any, spec: StepSpec, device: Any, meter: Any,
                 loss_fn: Optional[Callable[[Any, Any], Any]] = None) -> None:
        self.model, self.spec, self.device, self.meter = model, spec, device, meter
        self.sample = _map_tensors(sample, lambda t: t.to(device))
        self.rows = sample_rows(sample)
        self.loss_fn = loss_fn

    def close(self) -> None:
        self.sample = None

    def make_batch(self, batch: int) -> Any:
        """``batch`` rows drawn cyclically from the sample's rows: real values (token ids stay in range)."""
        import torch

        index = torch.arange(batch, device=self.device) % self.rows
        return _map_tensors(self.sample, lambda t: t.index_select(0, index)
                            if t.dim() >= 1 and t.shape[0] == self.rows else t)

    def _forward(self, batch: Any) -> Any:
        if isinstance(batch, dict):
            return self.model(**batch)
        if isinstance(batch, (list, tuple)):
            return self.model(*batch)
        return self.model(batch)

    def _autocast(self) -> Any:
        import contextlib

        import torch

        if self.spec.amp is None:
            return contextlib.nullcontext()
        dtype = torch.bfloat16 if self.spec.amp == "bf16" else torch.float16
        return torch.autocast(device_type=self.device.type, dtype=dtype)

    def _make_optimizer(self) -> Any:
        import torch

        params = [p for p in self.model.parameters() if p.requires_grad]
        if not params:
            raise ValueError("the model has no parameter with requires_grad=True: nothing to train "
                             "(use mode='inference')")
        # A tiny learning rate: the kernels and state are the real ones, the weights barely move (and are
        # restored afterwards anyway).
        if self.spec.optimizer == "sgd":
            return torch.optim.SGD(params, lr=1e-6, momentum=0.9)
        if self.spec.optimizer == "adamw":
            return torch.optim.AdamW(params, lr=1e-6)
        return torch.optim.Adam(params, lr=1e-6)

    def _make_step(self, batch_size: int, counter: list[int]) -> Callable[[], None]:
        import torch

        batch = self.make_batch(batch_size)
        if self.spec.mode == "inference":
            def infer() -> None:
                with torch.inference_mode(), self._autocast():
                    self._forward(batch)
                counter[0] += 1
            return infer
        optimizer = self._make_optimizer()
        scaler = None
        if self.spec.amp == "fp16" and self.device.type == "cuda":
            scaler = torch.amp.GradScaler("cuda")
        loss_fn = self.loss_fn

        def train() -> None:
            with self._autocast():
                output = self._forward(batch)
                loss = loss_fn(output, batch) if loss_fn is not None else default_loss(output)
            del output
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.step(optimizer)
                scaler.update()
            else:
                loss.backward()
                optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            counter[0] += 1
        return train

    def trial(self, batch: int, *, phase: str, timing: TimerConfig) -> Trial:
        watch = Stopwatch()
        self.meter.release(collect=False)
        allocated_before = self.meter.allocated()
        self.meter.reset_peak()
        counter = [0]
        failure, message, stats = None, "", None
        try:
            stats = self.meter.time(self._make_step(batch, counter), timing)
        except Exception as error:  # noqa: BLE001 -- classified below; KeyboardInterrupt passes through
            text = f"{type(error).__name__}: {first_line(str(error))}"
            failure = "oom" if _is_oom(error) else "error"
            message = text
        # Outside the except block: the traceback (and every tensor its frames held) is gone now.
        peak_allocated, peak_reserved = self.meter.peaks()
        if failure is not None:
            self.model.zero_grad(set_to_none=True)  # a failure mid-backward leaves some .grad filled
            self.meter.release(collect=True, allocated_before=allocated_before)
        trial = Trial(batch=batch, fits=failure is None, peak_allocated=peak_allocated, peak_reserved=peak_reserved,
                      failure=failure, message=message, steps=counter[0], phase=phase)  # type: ignore[arg-type]
        if stats is not None:
            trial.step_s, trial.timing_samples, trial.timing_stable = stats.median_s, stats.samples, stats.stable
        trial.wall_s = watch.elapsed()
        return trial


def _is_oom(error: BaseException) -> bool:
    import torch

    oom_type = getattr(torch, "OutOfMemoryError", None) or torch.cuda.OutOfMemoryError  # torch < 2.5: cuda only
    return isinstance(error, oom_type) or is_oom_message(str(error))
