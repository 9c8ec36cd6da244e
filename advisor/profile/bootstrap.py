"""The child side of `gpu-advisor profile`: run the user's program unmodified, record a window of it.

Run as ``python .../advisor/profile/bootstrap.py CONFIG.json`` by ``advisor.profile.runner``. It imports only the
standard library and torch (the user's interpreter may have nothing else), installs its hooks, then runs the
program with ``runpy`` exactly as ``python script.py`` / ``python -m pkg`` would (same ``sys.argv``,
``__name__ == "__main__"``, the script's folder first on ``sys.path``).

Steps are found without the user's help: a global optimizer-step post hook (every ``optimizer.step()``), or
the program's own ``torch.profiler.profile.step()``. After ``warmup_steps`` steps, ``baseline_steps`` are timed
unprofiled, then the profiler records ``steps`` steps (after one profiler warm-up step). A program that has
not stepped after ``wait_seconds`` gets a wall-clock window of ``seconds`` instead (SIGALRM, so the profiler
starts and stops on the main thread). Everything the parent needs is written to ``out_dir``: the Chrome trace,
``window.json`` (step times, sync sites, data-loader sites, memory, settings) and ``status.json``.
"""

import atexit
import importlib.util
import json
import os
import runpy
import signal
import sys
import time
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
EXIT_MARKS = "exit_marks.jsonl"  # read by runner.py (its name there too)


def _load_sibling(name):
    """A module beside this file, loaded by path under a private name: gpu-advisor need not be importable by
    the program's interpreter, and the program's own modules (a ``runner`` of its own) are never shadowed."""
    spec = importlib.util.spec_from_file_location(f"_gpu_advisor_{name}", os.path.join(HERE, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


_support = _load_sibling("child_support")
_support._phase("bootstrap")
StopProgram, _write_json = _support.StopProgram, _support._write_json
_load_sibling("child_cudnn")
_load_sibling("child_sites")
Recorder = _load_sibling("child_recorder").Recorder


def _install_hooks(recorder):
    import torch
    import torch.optim.optimizer as optimizer_module
    from torch.utils.data import dataloader

    optimizer_module.register_optimizer_step_post_hook(lambda *args, **kwargs: recorder.step_from("optimizer"))
    # Inside a torch.compile'd region the hooks are traced, not run: without this guard dynamo would trace the
    # recorder itself (recompiling when its phase changes, which re-captures CUDA graphs mid-window, or failing
    # with a RecursionError on the state it keeps). is_compiling() is a constant to dynamo, so the traced hook
    # is empty; the compiled module's own call, which runs eagerly, is still seen.
    compiling = getattr(getattr(torch, "compiler", None), "is_compiling", lambda: False)

    def module_called(module, args):
        if not compiling():
            recorder.on_module_call(module, args)

    def module_returned(module, args, output):
        if not compiling():
            recorder.on_module_return(module, args, output)

    torch.nn.modules.module.register_module_forward_pre_hook(module_called)
    torch.nn.modules.module.register_module_forward_hook(module_returned)
    original_profiler_step = torch.profiler.profile.step

    def profiler_step(self, *args, **kwargs):
        result = original_profiler_step(self, *args, **kwargs)
        if self is not recorder.profiler:  # the program's own profiler.step() marks its steps
            recorder.step_from("profiler")
        return result

    torch.profiler.profile.step = profiler_step
    original_next = dataloader._BaseDataLoaderIter.__next__

    def timed_next(self):
        started = time.perf_counter()
        caller = sys._getframe(1)
        try:
            return original_next(self)
        finally:
            recorder.on_next(self, started, caller)

    dataloader._BaseDataLoaderIter.__next__ = timed_next
    warnings.showwarning = recorder.on_warning
    warnings.filterwarnings("always", message=".*synchronizing CUDA operation.*")
    signal.signal(signal.SIGALRM, recorder.on_alarm)
    signal.setitimer(signal.ITIMER_REAL, recorder.config["wait_seconds"])


def main():
    # Run by path, Python put this file's folder first on sys.path: its modules (runner, sites ...) must not
    # shadow the program's own imports.
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or os.curdir) == here:
        sys.path.pop(0)
    with open(sys.argv[1], encoding="utf-8") as handle:
        config = json.load(handle)
    exit_marks = os.path.join(config["out_dir"], EXIT_MARKS)
    atexit.register(_support._exit_mark, exit_marks, "atexit-done")  # runs after every handler registered later
    status = {"outcome": "finished", "exit_code": 0, "error": None}
    recorder = Recorder(config)
    target = config["target"]
    try:
        _install_hooks(recorder)
        _support._phase("hooks-installed")
    except Exception as exc:  # torch missing or too old: the parent reports it in one line
        status.update(outcome="setup-failed", exit_code=3, error=f"{type(exc).__name__}: {exc}")
        _write_json(os.path.join(config["out_dir"], "status.json"), status)
        return 3
    sys.argv = [target["name"], *target["args"]]
    try:
        if target["kind"] == "module":
            sys.path.insert(0, os.getcwd())
            runpy.run_module(target["name"], run_name="__main__", alter_sys=True)
        else:
            sys.path.insert(0, os.path.dirname(os.path.abspath(target["name"])))
            runpy.run_path(os.path.abspath(target["name"]), run_name="__main__")
    except StopProgram:
        status["outcome"] = "stopped"
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        status.update(outcome="finished" if code == 0 else "failed", exit_code=code)
    except KeyboardInterrupt:
        status.update(outcome="interrupted", exit_code=130)
    except BaseException as exc:
        status.update(outcome="failed", exit_code=1, error=f"{type(exc).__name__}: {exc}")
        traceback.print_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.setitimer(signal.ITIMER_PROF, 0)
        _salvage(recorder, status)
        _support._phase("child-exit")
        status["phases"] = _support.PHASES
        _write_json(os.path.join(config["out_dir"], "status.json"), status)
        atexit.register(_support._exit_mark, exit_marks, "threads-joined")  # runs before every other handler
    return status["exit_code"]


def _salvage(recorder, status):
    """The program ended inside the window (crash, Ctrl-C, its loop ran out): keep the steps it completed."""
    status["steps_seen"] = recorder.steps_seen
    status["profiler_error"] = recorder.failure
    if recorder.phase == "failed":
        return
    if recorder.phase == "tf32-trial":
        recorder.record_cut_trial()
        return
    if recorder.phase != "recording" or not recorder.recorded_count and recorder.mode != "wall":
        if recorder.profiler is not None and recorder.phase not in ("done", "tf32-trial"):
            try:
                recorder.profiler.stop()
            except Exception:
                pass
        return
    status["partial"] = True
    try:
        recorder.config["stop_after"] = False
        recorder.finish_window(ended_inside=True)
    except Exception as exc:
        status["salvage_error"] = f"{type(exc).__name__}: {exc}"


if __name__ == "__main__":
    sys.exit(main())
