"""The one correct timer. Every number gpu-advisor reports is timed here, and nowhere else.

Rules it enforces, because each one is a classic way to publish a wrong number:
- warm-up runs first and is never counted (CUDA context, lazy module loading, cuBLAS/cuDNN handles, caches);
- GPU work is timed with CUDA events, or with a host clock only after ``torch.cuda.synchronize()``, never
  with a bare host clock around asynchronous launches;
- tiny operations are batched (``ops_per_sample``) so one sample lasts long enough for the clock to resolve;
- samples are repeated until the relative spread (IQR / median) falls under a target or the time budget is
  spent; the median, quartiles, sample count and a ``stable`` flag are reported, so a noisy number says so;
- CPU work runs with the threads torch gives a user's program (torch.get_num_threads()), not one.
Cache state: repeated samples reuse the same tensors, so working sets that fit in cache are timed warm --
as in a user's loop -- and TimingStats says "warm".
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional

from advisor.models.measurements import TimingMethod, TimingStats


@dataclass(frozen=True)
class TimerConfig:
    warmup_runs: int = 2
    #: Keep warming up until this much time has passed (lets GPU clocks ramp up from idle).
    warmup_s: float = 0.0
    min_samples: int = 5
    #: Operations slower than ``slow_op_s`` need only this many samples (the median of 3 long runs is robust,
    #: and 5 of them would eat the budget of a whole crossover search).
    min_samples_slow: int = 3
    slow_op_s: float = 0.01
    max_samples: int = 200
    #: Stop as soon as IQR / median is at or under this.
    target_rel_spread: float = 0.05
    #: Time allowed for sampling (warm-up and calibration excluded).
    budget_s: float = 0.5
    #: One sample should last at least this long; tiny operations are repeated inside a sample to get there.
    min_sample_s: float = 2e-4
    max_ops_per_sample: int = 10_000

    def scaled(self, factor: float) -> "TimerConfig":
        """The same settings with the time budget scaled (--budget / --quick trade precision for time)."""
        return replace(self, budget_s=self.budget_s * factor, warmup_s=self.warmup_s * factor)


#: Returns (current SM clock, the clock it runs at under load) in MHz, or None; handed in by the caller (NVML),
#: so measure/ never imports it.
ClockReader = Callable[[], Optional[tuple[float, float]]]


class ClockGuard:
    """Discards GPU samples taken while the SM clock is far below its clock under load, as nvbench does.

    An idle GPU drops to a few hundred MHz (345 MHz was seen on an H100 during a run, while the CPU side of a
    crossover ran); samples taken before it ramps back up are several times too slow and decide crossovers
    wrongly. The clock is read at most every ``interval_s`` (an NVML read costs tens of microseconds); a sample
    followed by a low reading is dropped and the work is run untimed until the clock is back, for at most
    ``recover_s``.
    """

    def __init__(self, read: ClockReader, threshold: float = 0.75, interval_s: float = 0.005,
                 recover_s: float = 0.2, total_recover_s: float = 2.0) -> None:
        self._read = read
        #: All recoveries together may take this long; then the guard only watches (a GPU held at a low clock
        #: by a power cap or another process would otherwise eat the run's whole budget).
        self.total_recover_s = total_recover_s
        self.recovering_s = 0.0
        self.threshold = threshold
        self.interval_s = interval_s
        self.recover_s = recover_s
        self._last_read = -math.inf
        self.discarded = 0
        self.lowest_mhz: Optional[float] = None

    def low(self, force: bool = False) -> bool:
        now = time.perf_counter()
        if self.recovering_s >= self.total_recover_s:
            return False
        if not force and now - self._last_read < self.interval_s:
            return False
        self._last_read = now
        try:
            reading = self._read()
        except Exception:  # a guard must never break the measurement it guards
            reading = None
        if not reading or not reading[1]:
            return False
        current, under_load = reading
        if current < self.threshold * under_load:
            self.lowest_mhz = current if self.lowest_mhz is None else min(self.lowest_mhz, current)
            return True
        return False

    def recover(self, spin: Callable[[], Any]) -> None:
        started = time.perf_counter()
        deadline = started + self.recover_s
        try:
            while time.perf_counter() < deadline:
                spin()
                if not self.low(force=True):
                    return
        finally:
            self.recovering_s += time.perf_counter() - started


def summarize(per_op: list[float], *, method: TimingMethod, ops_per_sample: int, stable_target: float,
              threads: Optional[int] = None) -> TimingStats:
    """Median, quartiles and relative spread of per-operation times (seconds)."""
    ordered = sorted(per_op)
    median = statistics.median(ordered)
    if len(ordered) >= 4:
        q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    else:
        q1, q3 = ordered[0], ordered[-1]
    rel_spread = (q3 - q1) / median if median > 0 else math.inf
    return TimingStats(
        median_s=median, q1_s=q1, q3_s=q3, min_s=ordered[0], max_s=ordered[-1], samples=len(ordered),
        rel_spread=rel_spread, stable=rel_spread <= stable_target, method=method,
        ops_per_sample=ops_per_sample, threads=threads,
    )


def _guarded_sample(take_sample: Callable[[int], float], ops: int, guard: Optional[ClockGuard]) -> float:
    """One sample, per op; taken again (after the clock recovers) when the SM clock read low right after it."""
    for _ in range(3):
        value = take_sample(ops) / ops
        if guard is None or not guard.low():
            return value
        guard.discarded += 1
        guard.recover(lambda: take_sample(ops))
    return value


def _sample_until_stable(take_sample: Callable[[int], float], ops_per_sample: int, config: TimerConfig,
                         guard: Optional[ClockGuard] = None) -> list[float]:
    """Collect per-op times until the spread is small, the budget is spent, or max_samples is reached."""
    samples: list[float] = []
    deadline = time.perf_counter() + config.budget_s
    min_samples = config.min_samples
    while len(samples) < config.max_samples:
        samples.append(_guarded_sample(take_sample, ops_per_sample, guard))
        if len(samples) == 1 and ops_per_sample == 1 and samples[0] >= config.slow_op_s:
            min_samples = min(min_samples, config.min_samples_slow)
        if len(samples) >= min_samples:
            if time.perf_counter() >= deadline:
                break
            if len(samples) % 2 == 1 or len(samples) == min_samples:  # spread check is not free
                ordered = sorted(samples)
                q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
                median = statistics.median(ordered)
                if median > 0 and (q3 - q1) / median <= config.target_rel_spread:
                    break
    return samples


def _warm_up_and_calibrate(take_sample: Callable[[int], float], config: TimerConfig) -> int:
    """Run the work until warm, then pick how many operations one sample needs."""
    started = time.perf_counter()
    runs = 0
    one = take_sample(1)
    while runs < config.warmup_runs or time.perf_counter() - started < config.warmup_s:
        one = take_sample(1)
        runs += 1
    if one >= config.min_sample_s:
        return 1
    # Measure a small batch for a better estimate than one call to a tiny op gives.
    probe_ops = 8
    per_op = max(take_sample(probe_ops) / probe_ops, 1e-9)
    return int(min(config.max_ops_per_sample, max(1, math.ceil(config.min_sample_s / per_op))))


class Sampler:
    """Repeated timing of one piece of work, warm and calibrated once, to which samples can be added later.

    ``take_sample(ops)`` runs the work ``ops`` times and returns the elapsed seconds; the factories below
    build it for each timing method. Per-operation times accumulate in ``per_op``.
    """

    def __init__(self, take_sample: Callable[[int], float], method: TimingMethod, config: TimerConfig,
                 threads: Optional[int] = None, ops_per_sample: Optional[int] = None,
                 guard: Optional[ClockGuard] = None) -> None:
        self._take = take_sample
        self.guard = guard
        if guard is not None and guard.low(force=True):  # an idle GPU: ramp it up before calibrating
            guard.recover(lambda: take_sample(1))
        self.method = method
        self.threads = threads
        self.target = config.target_rel_spread
        self.ops = ops_per_sample or _warm_up_and_calibrate(take_sample, config)
        if ops_per_sample:  # re-created for more samples of known work: one warm-up run is enough
            take_sample(1)
        self.per_op: list[float] = []

    def collect(self, config: TimerConfig) -> "Sampler":
        """Add samples until the spread is small, the budget is spent, or max_samples is reached."""
        self.per_op.extend(_sample_until_stable(self._take, self.ops, config, self.guard))
        return self

    def add(self, count: int) -> "Sampler":
        self.per_op.extend(_guarded_sample(self._take, self.ops, self.guard) for _ in range(count))
        return self

    def stats(self) -> TimingStats:
        return summarize(self.per_op, method=self.method, ops_per_sample=self.ops,
                         stable_target=self.target, threads=self.threads)


#: CPU ops shorter than this get one untimed run right before each sample (see cpu_sampler).
PRIME_BELOW_S = 2e-3


def cpu_sampler(fn: Callable[[], Any], config: TimerConfig = TimerConfig(), ops: Optional[int] = None,
                prime: bool = False) -> Sampler:
    """Host work (CPU ops, or host-side costs) with the threads torch gives a user's program.

    ``prime``: a short op gets one untimed run right before each sample: between samples (while the GPU side of a race
    runs) torch's CPU thread pool goes to sleep, and waking it costs tens of microseconds that a user's tight
    loop does not pay on every op -- charged to a 20-microsecond op, that made the CPU look several times slower.
    """
    last_per_op = [0.0]

    def take_sample(count: int) -> float:
        if prime and last_per_op[0] < PRIME_BELOW_S:
            fn()
        start = time.perf_counter()
        for _ in range(count):
            fn()
        elapsed = time.perf_counter() - start
        last_per_op[0] = elapsed / count
        return elapsed

    return Sampler(take_sample, "cpu_clock", config, threads=_torch_threads(), ops_per_sample=ops)


def cuda_events_sampler(fn: Callable[[], Any], config: TimerConfig = TimerConfig(), ops: Optional[int] = None,
                           guard: Optional[ClockGuard] = None) -> Sampler:
    """GPU time of queued work: CUDA events around back-to-back calls, one wait at the end.

    For work the host launches slower than the GPU runs it, this is the launch-bound rate, which is what a
    loop of such ops really achieves.
    """
    import torch

    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def take_sample(count: int) -> float:
        start.record()
        for _ in range(count):
            fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / 1e3

    torch.cuda.synchronize()
    return Sampler(take_sample, "cuda_events", config, ops_per_sample=ops, guard=guard)


def synchronized_sampler(fn: Callable[[], Any], config: TimerConfig = TimerConfig(), ops: Optional[int] = None,
                            guard: Optional[ClockGuard] = None) -> Sampler:
    """Wall time of work that ends with the result on hand: host clock, device synchronized before and after.

    For work that includes host<->device copies or a synchronize per operation (sync / transfer modes),
    where the host's wait is part of what the user pays.
    """
    import torch

    def take_sample(count: int) -> float:
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(count):
            fn()
        torch.cuda.synchronize()
        return time.perf_counter() - start

    return Sampler(take_sample, "synchronize", config, ops_per_sample=ops, guard=guard)


def time_cpu(fn: Callable[[], Any], config: TimerConfig = TimerConfig()) -> TimingStats:
    return cpu_sampler(fn, config).collect(config).stats()


def time_cuda_events(fn: Callable[[], Any], config: TimerConfig = TimerConfig()) -> TimingStats:
    return cuda_events_sampler(fn, config).collect(config).stats()


def time_synchronized(fn: Callable[[], Any], config: TimerConfig = TimerConfig()) -> TimingStats:
    return synchronized_sampler(fn, config).collect(config).stats()


def time_host_launch(fn: Callable[[], Any], config: TimerConfig = TimerConfig()) -> TimingStats:
    """Host-side cost of launching asynchronous GPU work (dispatch + launch), queue drained between samples.

    Batches stay far below the ~1024-entry launch queue, so the host never blocks on a full queue.
    """
    import torch

    def take_sample(count: int) -> float:
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(count):
            fn()
        elapsed = time.perf_counter() - start
        torch.cuda.synchronize()
        return elapsed

    config = replace(config, max_ops_per_sample=min(config.max_ops_per_sample, 256))
    return Sampler(take_sample, "cpu_clock", config).collect(config).stats()


def time_once(fn: Callable[[], Any], *, synchronize: bool) -> float:
    """One observation of something that happens once per process (context creation, first cuBLAS call)."""
    if synchronize:
        import torch

        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        return time.perf_counter() - start
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def time_unsynchronized(fn: Callable[[], Any], repeats: int = 5) -> float:
    """THE WRONG WAY, kept for the demonstration only: a host clock around an async launch, no synchronize.

    This is what ``t0 = time.time(); y = a @ b; print(time.time() - t0)`` measures: the launch, not the work.
    The queue is drained (untimed) between repeats, as it would be in a user's script.
    """
    import torch

    observations = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        start = time.time()
        fn()
        observations.append(time.time() - start)
        torch.cuda.synchronize()
    return statistics.median(observations)


class Stopwatch:
    """Wall time of a whole phase (for budgets and reporting), not of GPU work."""

    def __init__(self, since: Optional[float] = None) -> None:
        self.started = time.perf_counter() if since is None else since

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


def _torch_threads() -> Optional[int]:
    try:
        import torch
    except ImportError:
        return None
    return torch.get_num_threads()
