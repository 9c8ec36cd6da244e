"""Constants and small helpers of the profile child (``bootstrap.py``), loaded by file path like it.

Standard library and torch only, imported lazily: the program's interpreter may have nothing else.
"""

import json
import os
import sys
import time
import warnings

_MARK = "gpu_advisor::"
SAMPLE_INTERVAL_S = 0.002
#: A wall-clock window is cut to about this many trace events: a loop of tiny ops makes ~100k events per
#: 0.5 s (CPU op, launch, kernel), and stopping, exporting and parsing them costs seconds per 0.5 s recorded,
#: while a few thousand kernels already give the same fractions. A short pilot recording measures the rate.
MAX_WINDOW_EVENTS = 30000
#: The TF32 trial's off/on sample pairs (each sample a few unprofiled steps).
TF32_PAIRS = 4
PILOT_S = 0.05
MIN_WALL_WINDOW_S = 0.05


class StopProgram(SystemExit):
    """Raised into the program once the window is recorded (``--stop-after``): ``finally`` blocks still run."""


#: Where the child's own time goes (profiler start/stop, trace export ...): (name, time.monotonic()) pairs, a
#: clock the parent shares, written into status.json so the report can say what the profiling itself cost.
PHASES = []


def _phase(name):
    PHASES.append((name, round(time.monotonic(), 6)))


def _trace_done(config):
    """trace.json is complete: the parent may start reading it while this process finishes (its exit can take
    seconds). An empty file named by the parent (advisor/profile/early_read.py); without it the parent reads
    the trace after the exit, so a failure to write it changes nothing else."""
    path = config.get("trace_done")
    if path:
        try:
            with open(path, "w", encoding="utf-8"):
                pass
        except OSError:
            pass


def _exit_mark(path, name):
    """A mark of the program's exit, after status.json (already written) could hold it: appended to a file the
    parent reads once the process is gone. Registered with atexit twice: the last registered runs first, once
    the interpreter has joined the program's threads; the first registered runs last, after every atexit
    handler (the program's own, torch's, inductor's worker pool). What follows it is the interpreter's teardown
    (its final garbage collections, C++ destructors, the CUDA context)."""
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps([name, round(time.monotonic(), 6)]) + "\n")
    except OSError:
        pass


def _intervals(marks):
    return [round(marks[i + 1] - marks[i], 6) for i in range(len(marks) - 1)]


def _mark(kind, inside=None):
    import torch

    with torch.profiler.record_function(_MARK + kind):
        if inside is not None:
            inside()


def _drained_now():
    """Wait for the GPU to finish what is queued (our own sync: not one of the program's), then the time."""
    import torch

    if torch.cuda.is_available() and torch.cuda.is_initialized():
        mode = torch.cuda.get_sync_debug_mode()
        torch.cuda.set_sync_debug_mode(0)
        torch.cuda.synchronize()
        torch.cuda.set_sync_debug_mode(mode)
    return time.perf_counter()


def _tf32_would_help():
    """float32 matmuls could run on TF32 tensor cores here (Ampere or later) and the program left TF32 off."""
    import torch

    if not torch.cuda.is_available():
        return False
    major, _ = torch.cuda.get_device_capability()
    return major >= 8 and not torch.backends.cuda.matmul.allow_tf32 and torch.get_float32_matmul_precision() == "highest"


def _new_profiler(config, scheduled=True):
    import torch
    from torch.profiler import ProfilerActivity, schedule

    activities = [ProfilerActivity.CPU]
    if torch.cuda.is_available():
        activities.append(ProfilerActivity.CUDA)
        if _uses_cuda_graphs():
            # torch.profiler's own workaround (it sets these when inductor's CUDA graphs are on): CUPTI torn down
            # and re-initialised around CUDA graphs corrupts the heap. The program stops after the window, so
            # CUPTI is never torn down anyway; a torch.compile(mode="reduce-overhead") crashed here on an H100.
            os.environ["TEARDOWN_CUPTI"] = "0"
            os.environ["DISABLE_CUPTI_LAZY_REINIT"] = "1"
    plan = schedule(wait=0, warmup=1, active=config["steps"] + 1, repeat=1) if scheduled else None
    return _profile_class()(activities=activities, schedule=plan, with_stack=config["with_stack"], record_shapes=True)


def _uses_cuda_graphs():
    """The program compiled with inductor, whose mode="reduce-overhead" replays CUDA graphs."""
    return "torch._inductor" in sys.modules


_PROFILE_CLASS = []


def _profile_class():
    """torch.profiler.profile whose prepare_trace does not import torch._inductor. torch asks
    ``hasattr(torch, "_inductor")``, which imports it (1-3 s, and a slower exit after it) only to read whether
    inductor's CUDA graphs are on; a program that never imported it compiles nothing, so the answer is no and
    the flag keeps its default. A subclass, as the profiler binds its actions to its methods when made."""
    if _PROFILE_CLASS:
        return _PROFILE_CLASS[0]
    import torch
    from torch.profiler import profile

    class Profile(profile):
        def prepare_trace(self):
            lazy = torch.__dict__.get("__getattr__")
            if "torch._inductor" in sys.modules or lazy is None:
                return super().prepare_trace()

            def no_inductor(name):
                if name == "_inductor":
                    raise AttributeError(name)
                return lazy(name)

            torch.__dict__["__getattr__"] = no_inductor
            try:
                return super().prepare_trace()
            finally:
                torch.__dict__["__getattr__"] = lazy

    _PROFILE_CLASS.append(Profile)
    return Profile


def failure_text(exc):
    """One line for an exception in our recording code: its type and message, and where it was raised (the
    innermost frames, a recursion's repeating frames counted once), so a failure seen once on a GPU machine can
    be traced without a rerun."""
    import traceback

    frames, seen = [], {}
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        key = f"{os.path.basename(frame.filename)}:{frame.lineno} {frame.name}"
        if key in seen:
            seen[key] += 1
            continue
        seen[key] = 1
        frames.append(key)
    where = " <- ".join(f"{key} (x{seen[key]})" if seen[key] > 1 else key for key in frames[:4])
    return f"{type(exc).__name__}: {exc}" + (f" (at {where})" if where else "")


def _write_json(path, data):
    with open(path + ".tmp", "w", encoding="utf-8") as handle:
        json.dump(data, handle)
    os.replace(path + ".tmp", path)


_ORIGINAL_SHOWWARNING = warnings.showwarning


def _pinned_trial(trace_path):
    """The gain of pinning the window's pageable host->device copies, measured here after the window (CUDA is
    up in this process; the parent would pay seconds to import torch and start CUDA for it): their mean size
    from the trace just written (read only when it holds such copies), then pageable and pinned copies of
    that size in turn. None when there were none; an error is noted and the parent measures instead."""
    try:
        with open(trace_path, encoding="utf-8") as handle:
            text = handle.read()
        if "Memcpy HtoD (Pageable" not in text:
            return None
        sizes = [float((event.get("args") or {}).get("bytes") or 0) for event in json.loads(text).get("traceEvents", [])
                 if str(event.get("name", "")).startswith("Memcpy HtoD (Pageable")]
        if not sizes or sum(sizes) <= 0:
            return None
        import importlib.util

        path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "measure", "pinned_gain.py")
        spec = importlib.util.spec_from_file_location("_gpu_advisor_pinned_gain", path)
        module = sys.modules.get(spec.name) or importlib.util.module_from_spec(spec)
        if spec.name not in sys.modules:
            sys.modules[spec.name] = module  # its dataclass looks itself up there
            spec.loader.exec_module(module)
        gain = module.measure_pinned_gain(int(sum(sizes) / len(sizes)))
        return {"copy_bytes": gain.copy_bytes, "pageable_us": gain.pageable_us, "pinned_us": gain.pinned_us,
                "saved_us": gain.saved_us}
    except Exception as exc:  # the parent measures instead
        return {"error": f"{type(exc).__name__}: {exc}"}

