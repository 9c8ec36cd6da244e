"""Which batch sizes to try, and when to stop: the largest batch that runs, found with few real steps. Pure logic.

Two phases. **fit**: small batches, doubling from ``start_batch``, each measured for peak memory, until the
current batch reaches ``fit_reach`` of the batch the memory model predicts will fill the device (the slope is
then measured on batches big enough to be well above the allocator's rounding). **refine**: try the predicted
maximum with real steps; from each result step towards where the limit must be (1% first, doubling, never past
the middle of the known bracket), re-predicting from the largest batches that ran. When the prediction was
right this costs two or three trials; bisection happens only where the prediction was wrong.

The caller owns the GPU: it asks ``propose()`` for a batch, runs it, and hands the Trial to ``record()``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Optional

from advisor.recommend.memory_model import LinearMemoryModel, fit_linear
from advisor.recommend.trials import Trial

#: Near the limit the caching allocator needs some room of its own (2 MiB rounding, cached blocks of the wrong
#: size): ResNet-50's largest batch on an H200 peaked at 99.35% of the usable memory in allocated bytes, the
#: next one up failed at about 99.6%. Peak *reserved* is no guide there -- it saturates at the limit while the
#: allocator recycles its cache -- so predictions use allocated bytes and aim this far below the limit.
ALLOCATOR_SLACK = 0.0075


@dataclass
class SearchConfig:
    start_batch: int = 1
    #: Leave the fit phase once the batch is this share of the predicted maximum (extrapolate at most 8x).
    fit_reach: float = 1 / 8
    max_fit_trials: int = 30
    #: Stop when the bracket [largest that ran, smallest that did not) is this narrow, relative to the former:
    #: the answer is then within 1% of the largest batch that runs.
    rel_tolerance: float = 0.01
    #: First step from a known result towards the limit, relative; doubles while it keeps going the same way.
    #: Just under the tolerance: a prediction off by less than that is settled by this one step.
    first_step: float = 0.009
    allocator_slack: float = ALLOCATOR_SLACK
    max_batch: Optional[int] = None
    max_search_trials: int = 16
    #: The fit phase needs this many batches that ran, and peak memory grown by this share of the limit across
    #: them, before its slope is trusted (a slope read off a few MiB is mostly allocator rounding).
    min_fit_points: int = 3
    min_fit_growth: float = 0.04


@dataclass
class SearchState:
    """What is known so far; the search's answer is ``largest_fit`` once ``done``."""

    largest_fit: Optional[int] = None
    smallest_fail: Optional[int] = None
    done: bool = False
    #: converged / capped / too_large / error / trial_limit / no_growth / stopped
    reason: str = ""
    #: The first prediction of the maximum, from the fit phase alone (to report how good it was).
    initial_prediction: Optional[int] = None
    notes: list[str] = field(default_factory=list)


_TRIED = re.compile(r"Tried to allocate ([\d.]+) (B|KiB|MiB|GiB|TiB)")
_FREE = re.compile(r"of which ([\d.]+) (B|KiB|MiB|GiB|TiB) is free")
_UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


def oom_shortfall(message: str) -> Optional[tuple[float, float]]:
    """(bytes the failing allocation asked for, bytes free on the GPU then) from torch's OutOfMemoryError text."""
    tried, free = _TRIED.search(message or ""), _FREE.search(message or "")
    if tried is None or free is None:
        return None
    return float(tried[1]) * _UNITS[tried[2]], float(free[1]) * _UNITS[free[2]]


class BatchSearch:
    def __init__(self, limit_bytes: float, config: Optional[SearchConfig] = None) -> None:
        self.limit_bytes = limit_bytes
        self.config = config or SearchConfig()
        self.trials: list[Trial] = []
        self.state = SearchState()
        self.phase = "fit"
        self._up = self.config.first_step
        self._down = self.config.first_step
        self._went_up = self._went_down = self._turned = False
        self._use_local = True
        #: Steps up left, in tolerances, after a batch the out-of-memory messages pointed at ran (2, then 1).
        self._oom_closing = 0
        #: A batch the out-of-memory messages pointed at ran: from then on the bracket above it is closed by the
        #: steps above, not by pointing again (a second pointing lands next to the first and costs a trial).
        self._oom_pointed_ran = False
        self._refine_proposals = 0
        self._first_error: Optional[Trial] = None

    # -- what the caller reads -------------------------------------------------------------------------------
    def fitted(self, *, reserved: bool = False) -> Optional[LinearMemoryModel]:
        """Least-squares model of peak allocated (or reserved) bytes over the upper range of the batches that ran
        (those at least 1/16 of the largest): wide enough for a stable slope, high enough to be above the
        small batches' fixed workspaces."""
        ran = [t for t in self.trials if t.fits]
        if len({t.batch for t in ran}) < 2:
            return None
        top = max(t.batch for t in ran)
        upper = [t for t in ran if t.batch * 16 >= top]
        chosen = upper if len({t.batch for t in upper}) >= 2 else ran
        return fit_linear([(t.batch, float(t.peak_reserved if reserved else t.peak_allocated)) for t in chosen])

    @property
    def target_bytes(self) -> float:
        """Allocated bytes a step may reach: the limit less the allocator's slack (see ALLOCATOR_SLACK)."""
        return self.limit_bytes * (1 - self.config.allocator_slack)

    def predicted_max(self) -> Optional[int]:
        """The largest batch whose peak allocated memory the (conservative) model puts within the target."""
        model = self.fitted()
        if model is None:
            return None
        predicted = model.upper_envelope().max_batch_within(self.target_bytes)
        if predicted is not None and self.config.max_batch is not None:
            predicted = min(predicted, self.config.max_batch)
        return predicted

    # -- the protocol ----------------------------------------------------------------------------------------
    def propose(self) -> Optional[int]:
        if self.state.done:
            return None
        if not self.trials:
            return self._cap(self.config.start_batch)
        if self._first_error is not None and len(self.trials) == 1:
            return self.config.start_batch * 2
        if self.phase == "fit":
            return self._cap(self.trials[-1].batch * 2)
        return self._next_refine()

    def record(self, trial: Trial) -> None:
        self.trials.append(trial)
        state = self.state
        if self._small_batch_error(trial):
            return
        if trial.fits:
            if state.smallest_fail is not None and trial.batch >= state.smallest_fail:
                state.notes.append(f"batch {trial.batch} ran although {state.smallest_fail} had failed: the limit "
                                   "is not sharp here (allocator or kernel choice); the failure is forgotten")
                state.smallest_fail = None
            state.largest_fit = max(state.largest_fit or 0, trial.batch)
        elif state.largest_fit is not None and trial.batch <= state.largest_fit:
            state.notes.append(f"batch {trial.batch} failed although {state.largest_fit} had run: the limit is "
                               "not sharp here; the larger success stands")
        else:
            state.smallest_fail = min(state.smallest_fail or trial.batch, trial.batch)
            if trial.failure == "error":
                state.notes.append(f"batch {trial.batch} failed with an error that is not out-of-memory; treated "
                                   f"as the limit: {trial.message}")
        if self.phase == "fit":
            self._after_fit_trial(trial)
        else:
            self._check_finished()

    def _small_batch_error(self, trial: Trial) -> bool:
        """Batch 1 failing with an error (not OOM) may be the model's own limit -- BatchNorm in training needs
        more than one value per channel -- so batch 2 gets one chance before the input is declared wrong."""
        if self.phase != "fit" or trial.fits or trial.failure != "error" or self.state.largest_fit is not None:
            return False
        if len(self.trials) == 1 and (self.config.max_batch or 2) >= 2:
            self._first_error = trial
            return True
        if len(self.trials) == 2 and self._first_error is not None:
            self._finish("error")
            return True
        return False

    def stop(self, reason: str) -> None:
        """End early (time budget, interruption); the largest batch that ran so far stands."""
        if not self.state.done:
            self.state.done, self.state.reason = True, reason

    # -- internals -------------------------------------------------------------------------------------------
    def _cap(self, batch: int) -> int:
        return min(batch, self.config.max_batch) if self.config.max_batch is not None else batch

    def _finish(self, reason: str) -> None:
        self.state.done, self.state.reason = True, reason

    def _after_fit_trial(self, trial: Trial) -> None:
        config = self.config
        if not trial.fits:
            if self.state.largest_fit is None:
                self._finish("too_large" if trial.failure == "oom" else "error")
                return
            self._enter_refine()
            return
        if self._first_error is not None and len(self.trials) == 2:
            self.state.notes.append(f"batch {self._first_error.batch} fails with an error that is not out-of-memory "
                                    f"({self._first_error.message}); batch {trial.batch} runs")
        if config.max_batch is not None and trial.batch >= config.max_batch:
            self._finish("capped")
            return
        predicted = self.predicted_max()
        if self.state.initial_prediction is None or predicted is not None:
            self.state.initial_prediction = predicted
        if predicted is not None and trial.batch >= predicted * config.fit_reach and self._fit_is_trustworthy():
            self._enter_refine()
        elif len(self.trials) >= config.max_fit_trials:
            self._finish("no_growth")

    def _fit_is_trustworthy(self) -> bool:
        ran = [t for t in self.trials if t.fits]
        if len(ran) < self.config.min_fit_points:
            return False
        growth = max(t.peak_allocated for t in ran) - min(t.peak_allocated for t in ran)
        return growth >= self.config.min_fit_growth * self.limit_bytes

    def _enter_refine(self) -> None:
        self.phase = "refine"
        self._check_finished()

    def _oom_prediction(self) -> Optional[int]:
        """The batch at which the largest allocation of a step fits in the memory free at that moment, from the
        out-of-memory messages of the failed batches: the allocation scales with the batch (X b / b_f), the free
        memory shrinks with it -- along the line through two failures, or by the model's bytes per sample.

        Capacity models miss this when memory is free but not in one piece (a 25 GiB logits tensor on an 80 GiB
        GPU: the demo transformer on an H100 was predicted at 816 and ran up to 622)."""
        failures = sorted(((t.batch, oom_shortfall(t.message)) for t in self.trials
                           if t.failure == "oom" and oom_shortfall(t.message)), key=lambda f: f[0])
        if not failures:
            return None
        batch, (tried, free) = failures[0]
        per_batch = tried / batch
        slope = None
        if len(failures) >= 2 and failures[-1][0] > batch:
            top, (_, free_top) = failures[-1]
            slope = (free - free_top) / (top - batch)  # free memory lost per sample
        if slope is None or slope <= 0:
            model = self.fitted()
            slope = model.per_sample_bytes if model is not None else None
        if slope is None or slope <= 0:
            return None
        # tried_b = per_batch * b must fit in free_b = free + slope * (batch - b)
        answer = math.floor((free + slope * batch) / (per_batch + slope))
        return answer if 0 < answer < batch else None

    def _tolerance(self) -> int:
        """Relative to the smallest batch that failed: the largest that ran is then within the tolerance of the
        true limit (a fit phase that ended at a small batch must not make it one batch near a limit of 1000)."""
        scale = self.state.smallest_fail or self.state.largest_fit or 1
        return max(1, math.floor(scale * self.config.rel_tolerance))

    def _check_finished(self) -> None:
        state, config = self.state, self.config
        if config.max_batch is not None and (state.largest_fit or 0) >= config.max_batch:
            self._finish("capped")
        elif state.smallest_fail is not None and state.largest_fit is not None \
                and state.smallest_fail - state.largest_fit <= self._tolerance():
            self._finish("converged")
        elif sum(1 for t in self.trials if t.phase == "search") >= config.max_search_trials:
            self._finish("trial_limit")

    def _next_refine(self) -> Optional[int]:
        """Near the prediction, then outwards: the prediction first; from each result step the way the limit
        must lie, geometrically (just under the tolerance first, doubling while the results keep pointing the
        same way); once results on both sides of the limit are near each other, bisect. A prediction within a
        few percent is settled in two or three trials, and one that is far off (a workspace step, fragmentation)
        costs a logarithmic number of steps instead of a bisection from the fit phase's small batches."""
        lo, hi = self.state.largest_fit, self.state.smallest_fail
        assert lo is not None  # the fit phase always ends with at least one batch that ran
        first = self._refine_proposals == 0
        self._refine_proposals += 1
        predicted = self.predicted_max() if first else None
        if predicted is not None and predicted > lo and (hi is None or predicted < hi):
            return self._cap(predicted)
        last = self.trials[-1]
        if hi is None:  # everything ran so far: step up from the largest that ran (or to where memory points)
            step = max(1, math.floor(lo * self._up))
            self._up *= 2
            local = self._local_prediction()
            if local is not None and local > lo + step and self._use_local:
                self._use_local = False
                return self._cap(local)
            self._use_local = True
            return self._cap(lo + step)
        middle = (lo + hi) // 2
        from_oom = self._oom_prediction()
        if self._oom_closing and last.fits:
            self._oom_pointed_ran = True
        if from_oom is not None and not last.fits and not self._oom_pointed_ran \
                and lo < from_oom < hi - max(1, math.floor(hi * self._down)):
            # The failure said how far off it was: its largest allocation (which grows with the batch) did not fit
            # in what was free. Where the two lines meet is where it will.
            self._oom_closing = 2
            return from_oom
        local = self._local_prediction()
        if from_oom is not None and local is not None and local > from_oom:
            local = None  # memory is free but not in one piece: a capacity extrapolation points too high
        if local is not None and lo < local < hi and self._use_local:
            # The memory of the largest batches that ran, extrapolated, points inside the bracket: try just on
            # the near side of it (every other step, so the bracket still shrinks geometrically when it is wrong).
            self._use_local = False
            return min(max(local, lo + 1), hi - 1)
        self._use_local = True
        if self._oom_closing and last.fits:
            # That prediction lands a few percent under the limit (H200 transformer: 1126 ran, the limit lay between
            # 1146 and 1156; H100: 621 against 621-625). Two tolerances up, then one: whichever way the first goes,
            # the bracket is within tolerance after the second, where doubling from 0.9% took three trials.
            step = max(1, math.floor(lo * self.config.rel_tolerance)) * self._oom_closing
            self._oom_closing -= 1
            self._went_up = True
            return min(max(min(lo + step, middle), lo + 1), hi - 1)
        self._oom_closing = 0
        if self._turned or (last.fits and self._went_down) or (not last.fits and self._went_up):
            self._turned = True  # the limit lies between two results near each other: bisect
            return min(max(middle, lo + 1), hi - 1)
        if last.fits:
            self._went_up = True
            step = max(1, math.floor(lo * self._up))
            self._up *= 2
            return min(max(min(lo + step, middle), lo + 1), hi - 1)
        self._went_down = True
        step = max(1, math.floor(hi * self._down))
        self._down *= 2
        return min(max(max(hi - step, middle), lo + 1), hi - 1)
    def _local_prediction(self) -> Optional[int]:
        """Where memory, extrapolated from the largest batches that ran, reaches the target: a parabola through
        three of them when it bends upwards (workspaces or kernels that grow faster than the batch), else the
        line through two. Points are kept at least 5% apart, so that allocator noise cannot fake a slope."""
        ran = sorted({t.batch: t for t in self.trials if t.fits}.values(), key=lambda t: t.batch, reverse=True)
        spaced = []
        for trial in ran:
            if not spaced or trial.batch <= spaced[-1].batch * 0.95:
                spaced.append(trial)
            if len(spaced) == 3:
                break
        points = [(float(t.batch), float(t.peak_allocated)) for t in reversed(spaced)]
        if len(points) < 2:
            return None
        target = self.target_bytes
        if len(points) == 3:
            (x0, y0), (x1, y1), (x2, y2) = points
            slope_low, slope_high = (y1 - y0) / (x1 - x0), (y2 - y1) / (x2 - x1)
            curvature = (slope_high - slope_low) / (x2 - x0)
            if curvature > 0 and slope_high > 0 and target > y2:
                # y = y2 + s (x - x2) + c (x - x2)(x - x1), with s the slope through the top two points
                a, b = curvature, slope_high + curvature * (x2 - x1)
                root = (-b + math.sqrt(b * b + 4 * a * (target - y2))) / (2 * a)
                return int(x2 + root)
        (x1, y1), (x2, y2) = points[-2:]
        if y2 <= y1:
            return None
        return int(x2 + (target - y2) * (x2 - x1) / (y2 - y1))
