"""The profile child's recorder: finds the program's steps, times a baseline, records the window, writes what
the parent needs (``window.json``). Loaded by ``bootstrap.py`` by file path, after ``child_support``.

Standard library and torch only: the program's interpreter may have nothing else.
"""

import os
import signal
import time

from _gpu_advisor_child_cudnn import cudnn_trial  # noqa: E402
from _gpu_advisor_child_sites import SiteRecorder  # noqa: E402

# bootstrap.py registers child_support under this private name before loading this module (both are loaded
# by path, never as part of the advisor package, which the program's interpreter may not have).
from _gpu_advisor_child_support import (  # noqa: E402
    MAX_WINDOW_EVENTS,
    MIN_WALL_WINDOW_S,
    PILOT_S,
    SAMPLE_INTERVAL_S,
    TF32_PAIRS,
    StopProgram,
    _drained_now,
    _intervals,
    _mark,
    _new_profiler,
    _phase,
    _pinned_trial,
    _tf32_would_help,
    _trace_done,
    _write_json,
    failure_text,
)


class Recorder(SiteRecorder):
    def __init__(self, config):
        self.config = config
        self.out_dir = config["out_dir"]
        self.user_roots = [os.path.realpath(r) for r in config["user_roots"]]
        self.user_file_cache = {}
        self.sampling = False
        self.phase = "warmup"  # warmup -> baseline -> profiler-warmup -> recording -> done
        self.steps_seen = 0
        self.baseline_started = None
        self.baseline_count = 0
        self.baseline_step_s = None
        self.recorded_count = 0
        self.mode = None  # "steps" | "wall"
        self.profiler = None
        self.sync_sites = {}
        self.data_sites = {}
        self.host_samples = {}
        self.module_sites = {}
        self.convs = {}  # convolution modules and their input shapes in the window (the cudnn.benchmark trial)
        self.module_depth = 0
        self.window_started_at = None
        self.window_wall_s = None
        self.memory = {}
        self.trace_written = False
        self.window_info = {}
        self.step_source = None
        self.failure = None
        self.trial_count = 0
        self.trial_started = None
        self.pilot_started = None
        self.trial_samples = []
        self.trial_original = (False, True)
        self.trial_per_sample = 1
        self.trial_on = False
        # Host time at each step boundary (the first and last drained): per-step times, so the overhead can be
        # taken from typical steps, and a program ending inside the window is timed to its last whole step.
        self.baseline_marks = []
        self.window_marks = []

    # -- steps -----------------------------------------------------------------------------------------
    def step_from(self, source):
        """A step boundary from one source: the first seen (optimizer.step or profiler.step) counts, so a
        program calling both is not stepped twice. Our failures never reach the program: they are noted and
        recording stops; StopProgram (a SystemExit) is the one thing meant to reach it."""
        if self.step_source is None:
            self.step_source = source
        if source != self.step_source or self.phase == "failed":
            return
        try:
            self.on_step()
        except Exception as exc:  # e.g. the program runs its own torch.profiler: ours cannot start
            self.failure = failure_text(exc)
            self.phase = "failed"
            try:
                if self.profiler is not None:
                    self.profiler.stop()
            except Exception:
                pass
            if self.config["stop_after"]:
                raise StopProgram(0) from None  # nothing can be recorded: do not keep a long job running for it

    def on_step(self):
        self.steps_seen += 1
        self.module_depth = 0  # a forward that raised never returned through its hook
        if self.mode == "wall":
            return
        if self.phase == "tf32-trial":
            self.on_trial_step()
            return
        cfg = self.config
        # Step times are taken between drained points (the GPU caught up), so a program whose host runs ahead
        # of the GPU is timed by its real throughput, profiled and unprofiled alike.
        if self.phase == "warmup":
            if self.steps_seen >= cfg["warmup_steps"]:
                self.mode = "steps"
                self.phase = "baseline" if cfg["baseline_steps"] > 0 else "start"
                self.baseline_started = _drained_now()
                self.baseline_marks = [self.baseline_started]
        elif self.phase == "baseline":
            self.baseline_count += 1
            if self.baseline_count >= cfg["baseline_steps"]:
                self.baseline_marks.append(_drained_now())
                self.baseline_step_s = (self.baseline_marks[-1] - self.baseline_started) / self.baseline_count
                self.phase = "start"
            else:
                self.baseline_marks.append(time.perf_counter())
        elif self.phase == "profiler-warmup":
            _drained_now()
            self.profiler.step()
            self.phase = "recording"
            self.start_window()
            _mark("begin")
            return
        elif self.phase == "recording":
            self.recorded_count += 1
            if self.recorded_count >= cfg["steps"]:
                _mark("drain", lambda: self.window_marks.append(_drained_now()))
                _mark("end")
                self.finish_window()
                return
            self.window_marks.append(time.perf_counter())
            _mark("end")
            self.profiler.step()
            _mark("begin")
            return
        if self.phase == "start":
            import torch

            if torch._C._autograd._profiler_enabled():
                # Starting ours would end the program's own profiling session (kineto has one).
                raise RuntimeError("the program runs a torch.profiler of its own")
            _phase("profiler-start")
            self.profiler = _new_profiler(cfg)
            self.profiler.start()
            _phase("profiler-started")
            self.phase = "profiler-warmup"

    def start_window(self):
        import torch

        _phase("window-start")
        self.window_started_at = time.perf_counter()
        self.window_marks = [self.window_started_at]
        # Where the host spends its time, by the user's line: a sample of the main thread every 2 ms of CPU.
        signal.signal(signal.SIGPROF, self.on_sample)
        signal.setitimer(signal.ITIMER_PROF, SAMPLE_INTERVAL_S, SAMPLE_INTERVAL_S)
        if torch.cuda.is_available():
            torch.cuda.reset_peak_memory_stats()
            torch.cuda.set_sync_debug_mode("warn")

    def finish_window(self, ended_inside=False):
        import torch

        ended = _drained_now()
        if ended_inside and self.mode == "steps" and len(self.window_marks) > 1:
            # The program ended inside the window (its loop ran out, it crashed): its teardown is no step of
            # it, so the recorded steps are timed to the last one it completed, comparable with the baseline.
            ended = self.window_marks[-1]
        self.window_wall_s = ended - self.window_started_at
        _phase("window-end")
        signal.setitimer(signal.ITIMER_PROF, 0)
        if torch.cuda.is_available():
            torch.cuda.set_sync_debug_mode(0)
            torch.cuda.synchronize()
            free, total = torch.cuda.mem_get_info()
            self.memory = {"peak_allocated": torch.cuda.max_memory_allocated(),
                           "peak_reserved": torch.cuda.max_memory_reserved(), "capacity": total, "free": free}
        self.profiler.stop()
        _phase("profiler-stopped")
        self.profiler.export_chrome_trace(os.path.join(self.out_dir, "trace.json"))
        _phase("trace-exported")
        _trace_done(self.config)
        self.trace_written = True
        self.phase = "done"
        self.write_window()
        if self.config["stop_after"] and torch.cuda.is_available():
            pinned = _pinned_trial(os.path.join(self.out_dir, "trace.json"))
            if pinned is not None:
                self.window_info["pinned_trial"] = pinned
                _write_json(os.path.join(self.out_dir, "window.json"), self.window_info)
                _phase("pinned-measured")
            if self.convs and not torch.backends.cudnn.benchmark:
                try:
                    trial = cudnn_trial(self.convs, max(self.recorded_count, 1))
                except Exception as exc:  # the gain stays an estimate, saying why
                    trial = {"error": f"{type(exc).__name__}: {exc}"}
                self.convs = {}
                if trial is not None:
                    self.window_info["cudnn_trial"] = trial
                    _write_json(os.path.join(self.out_dir, "window.json"), self.window_info)
                    _phase("cudnn-measured")
        if self.config["stop_after"]:
            if self.mode == "steps" and self.baseline_step_s and _tf32_would_help():
                self.start_tf32_trial()
                return
            raise StopProgram(0)

    # -- a fix measured: the same steps with TF32 on (only when the program is stopped right after) --------
    def start_tf32_trial(self):
        """TF32 off and on in turn, TF32_PAIRS times, each sample at least ~50 ms of unprofiled steps: the gain
        as an interval over paired samples, and alternating keeps a drift (clocks, caches) out of the ratio."""
        import torch

        self.phase = "tf32-trial"
        self.trial_samples = []
        self.trial_original = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
        per_sample = max(1, int(0.05 / self.baseline_step_s + 0.999)) if self.baseline_step_s else 1
        self.trial_per_sample = min(per_sample, max(self.config["baseline_steps"], 1))
        self._set_tf32(False)
        self.trial_count = 0
        self.trial_started = _drained_now()

    def _set_tf32(self, on):
        import torch

        self.trial_on = on
        torch.backends.cuda.matmul.allow_tf32 = on
        torch.backends.cudnn.allow_tf32 = on or self.trial_original[1]

    def on_trial_step(self):
        import torch

        self.trial_count += 1
        if self.trial_count < self.trial_per_sample:
            return
        now = _drained_now()
        self.trial_samples.append({"tf32": self.trial_on, "step_s": (now - self.trial_started) / self.trial_count})
        if len(self.trial_samples) < 2 * TF32_PAIRS:
            self._set_tf32(not self.trial_on)
            self.trial_count = 0
            self.trial_started = _drained_now()
            return
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = self.trial_original
        on = sorted(x["step_s"] for x in self.trial_samples if x["tf32"])
        self.window_info["tf32_trial"] = {"step_s": on[len(on) // 2], "steps": self.trial_per_sample,
                                          "samples": self.trial_samples}
        _write_json(os.path.join(self.out_dir, "window.json"), self.window_info)
        self.phase = "done"
        raise StopProgram(0)

    def record_cut_trial(self):
        """The program ended during the TF32 trial (after the window, which is complete): the off/on pairs it
        finished are kept, and the report says the trial was cut short."""
        try:
            import torch

            torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = self.trial_original
            pairs = len(self.trial_samples) // 2
            self.window_info["tf32_trial"] = {"steps": self.trial_per_sample, "samples": self.trial_samples[:2 * pairs],
                                              "cut_short": True, "pairs_asked": TF32_PAIRS}
            _write_json(os.path.join(self.out_dir, "window.json"), self.window_info)
        except Exception:
            pass

    # -- wall-clock window (no steps found) --------------------------------------------------------------
    def on_alarm(self, signum, frame):
        if self.mode is None and self.phase == "warmup" and self.steps_seen == 0:
            self.mode = "wall"
            self.phase = "pilot"
            _phase("pilot-start")
            self.profiler = _new_profiler(self.config, scheduled=False)
            self.profiler.start()
            self.pilot_started = time.perf_counter()
            signal.signal(signal.SIGALRM, self.on_pilot_end)
            signal.setitimer(signal.ITIMER_REAL, min(PILOT_S, self.config["seconds"]))

    def on_pilot_end(self, signum, frame):
        """How many events a second this program makes under the profiler: the window is cut to
        MAX_WINDOW_EVENTS (never longer than --seconds). Any failure here leaves the window as asked."""
        if self.phase != "pilot":
            return
        asked = self.config["seconds"]
        window_s = asked
        try:
            elapsed = time.perf_counter() - self.pilot_started  # before stop(): its post-processing is not recording
            _phase("pilot-stop")
            self.profiler.stop()
            _phase("pilot-stopped")
            events = len(self.profiler.profiler.kineto_results.events())
            rate = events / elapsed if elapsed > 0 else 0.0
            if rate > 0:
                window_s = max(min(asked, MAX_WINDOW_EVENTS / rate), min(MIN_WALL_WINDOW_S, asked))
            self.window_info["wall_window"] = {"asked_s": asked, "window_s": round(window_s, 4),
                                               "pilot_events": events, "pilot_s": round(elapsed, 4)}
        except Exception as exc:  # an older torch without kineto_results: record the window as asked
            self.window_info["wall_window"] = {"asked_s": asked, "window_s": asked, "pilot_error": str(exc)}
        self.profiler = _new_profiler(self.config, scheduled=False)
        self.profiler.start()
        _phase("profiler-started")
        self.phase = "recording"
        self.start_window()
        _mark("begin")
        signal.signal(signal.SIGALRM, self.on_wall_end)
        signal.setitimer(signal.ITIMER_REAL, window_s)

    def on_wall_end(self, signum, frame):
        if self.phase == "recording":
            _mark("end")
            self.finish_window()

    def write_window(self):
        import torch

        cuda = torch.cuda.is_available()
        recorded = self.window_wall_s / self.recorded_count if self.recorded_count and self.window_wall_s else None
        info = {"mode": self.mode, "steps_seen": self.steps_seen, "baseline_step_s": self.baseline_step_s,
                "baseline_steps": self.baseline_count, "recorded_step_s": recorded,
                "recorded_steps": self.recorded_count, "window_wall_s": self.window_wall_s,
                "baseline_step_times_s": _intervals(self.baseline_marks),
                "recorded_step_times_s": _intervals(self.window_marks),
                "sync_sites": self.sync_sites, "data_sites": self.data_sites,
                "host_samples": self.host_samples, "module_sites": self.module_sites,
                "torch_cuda_version": torch.version.cuda, "sample_interval_s": SAMPLE_INTERVAL_S, "memory": self.memory,
                "torch_version": torch.__version__, "cuda_available": cuda,
                "tf32_matmul": bool(torch.backends.cuda.matmul.allow_tf32),
                "float32_matmul_precision": torch.get_float32_matmul_precision(),
                "cudnn_benchmark": bool(torch.backends.cudnn.benchmark),
                "cudnn_tf32": bool(torch.backends.cudnn.allow_tf32)}
        if cuda:
            props = torch.cuda.get_device_properties(torch.cuda.current_device())
            info["device"] = {"name": props.name, "capability": f"{props.major}.{props.minor}",
                              "total_memory": props.total_memory}
        self.window_info = {**self.window_info, **info}  # keeps the pilot's note (wall_window)
        _write_json(os.path.join(self.out_dir, "window.json"), self.window_info)


