"""Where the model comes from: ``pkg.module:attr`` or ``path/to/file.py:attr`` (a module instance, or a factory /
class called with no arguments, as ``uvicorn module:app`` does), a built-in demo (mlp, cnn, transformer), or a torchvision model by
name (``resnet50`` or ``torchvision:resnet50``) when torchvision is installed.

Every way this can go wrong raises ModelSourceError with one line that says what was tried and what happened.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, TypeVar

T = TypeVar("T")
#: After the budget, code stuck where Python cannot interrupt it (a C loop, a blocking syscall that retries)
#: gets this long before the process ends with one line, rather than hanging past --budget forever.
HARD_STOP_GRACE_S = 10.0


class ModelSourceError(ValueError):
    """A model that cannot be had from what the user named (bad import path, factory failure, not a Module)."""


@dataclass
class LoadedModel:
    model: Any  # torch.nn.Module
    label: str  # what the report calls it: "torchvision resnet50", "demo mlp", "mypkg.nets:build"
    #: The demo's natural input (shape without the batch dimension, dtype) when the source knows one.
    default_input_shape: Optional[tuple[int, ...]] = None
    default_input_dtype: Optional[str] = None
    #: Seconds spent importing the module and building the model: part of --budget.
    load_s: float = 0.0


def describe_error(error: BaseException) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class _OutOfTime(BaseException):
    """Raised in the main thread by the budget's alarm (BaseException: the user's code cannot swallow it with
    ``except Exception``)."""


class _ProcessEndAttempt(BaseException):
    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


@contextlib.contextmanager
def _guarded(what: str, time_limit_s: Optional[float]) -> Iterator[None]:
    """Run the user's import or factory under the time limit, and turn an attempt to end the process
    (os._exit, os.abort) into an error: ending the process with status 0 would look like success.

    The alarm (SIGALRM, main thread only) interrupts Python code at the limit; a watchdog thread ends the
    process with one line if the code is stuck where no signal reaches it for HARD_STOP_GRACE_S more.
    """
    saved_exit, saved_abort = os._exit, os.abort

    def refuse_exit(status: int = 0) -> None:
        raise _ProcessEndAttempt(f"os._exit({status})")

    def refuse_abort() -> None:
        raise _ProcessEndAttempt("os.abort()")

    use_alarm = (time_limit_s is not None and hasattr(signal, "setitimer")
                 and threading.current_thread() is threading.main_thread())
    previous_handler = None
    done = threading.Event()
    if use_alarm:
        def on_alarm(signum: int, frame: Any) -> None:
            raise _OutOfTime()

        previous_handler = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, max(time_limit_s, 0.001))
    if time_limit_s is not None:
        def hard_stop() -> None:
            if not done.wait(time_limit_s + HARD_STOP_GRACE_S):
                sys.stderr.write(f"gpu-advisor: error: {what} did not finish within --budget "
                                 f"({time_limit_s:.0f} s) and could not be interrupted\n")
                sys.stderr.flush()
                saved_exit(2)

        threading.Thread(target=hard_stop, name="model-source-watchdog", daemon=True).start()
    os._exit, os.abort = refuse_exit, refuse_abort  # type: ignore[assignment]
    try:
        yield
    finally:
        os._exit, os.abort = saved_exit, saved_abort  # type: ignore[assignment]
        done.set()
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_handler)


def _run_guarded(spec: str, what: str, call: Callable[[], T], time_limit_s: Optional[float]) -> T:
    try:
        with _guarded(what, time_limit_s):
            return call()
    except _OutOfTime:
        raise ModelSourceError(f"--model {spec!r}: {what} did not finish within --budget ({time_limit_s:.0f} s)") \
            from None
    except _ProcessEndAttempt as attempt:
        raise ModelSourceError(f"--model {spec!r}: {what} tried to end the process ({attempt.how})") from None


def load_model(spec: str, time_limit_s: Optional[float] = None) -> LoadedModel:
    """The model named by ``spec``; importing the user's module and calling its factory get ``time_limit_s``
    seconds together (``--budget``), and the time they took is ``load_s``."""
    started = time.monotonic()
    loaded = _load_model(spec, time_limit_s)
    loaded.load_s = time.monotonic() - started
    return loaded


def _load_model(spec: str, time_limit_s: Optional[float]) -> LoadedModel:
    spec = spec.strip()
    if not spec:
        raise ModelSourceError("--model is empty; give pkg.module:factory, a demo (mlp, cnn, transformer) or a "
                               "torchvision model name")
    if ":" in spec and not spec.startswith(("demo:", "torchvision:")):
        return _from_import_path(spec, time_limit_s)
    kind, _, name = spec.rpartition(":")
    if kind in ("", "demo") and name in _demo_names():
        return _demo(name)
    if kind in ("", "torchvision"):
        return _torchvision(name, explicit=kind == "torchvision")
    raise ModelSourceError(f"--model {spec!r}: unknown source {kind!r}")


def _demo_names() -> tuple[str, ...]:
    return ("mlp", "cnn", "transformer")


def _demo(name: str) -> LoadedModel:
    from advisor.recommend.demo_models import DEMOS

    factory, shape, dtype = DEMOS[name]
    return LoadedModel(factory(), f"demo {name}", shape, dtype)


def _torchvision(name: str, *, explicit: bool) -> LoadedModel:
    try:
        from torchvision import models
    except ImportError:
        hint = "" if explicit else f"; {name!r} is not a demo (mlp, cnn, transformer) nor an import path (pkg.module:attr)"
        raise ModelSourceError(f"--model {name!r}: torchvision is not installed{hint}") from None
    try:
        model = models.get_model(name, weights=None)
    except ValueError:
        raise ModelSourceError(
            f"--model {name!r}: not a demo (mlp, cnn, transformer), not an import path (pkg.module:attr), and not a "
            f"torchvision model (e.g. resnet50, vit_b_16; see torchvision.models.list_models())") from None
    except Exception as error:  # noqa: BLE001 -- a broken torchvision build must still end in one line
        raise ModelSourceError(f"torchvision could not build {name!r}: {describe_error(error)}") from None
    shape = (3, 299, 299) if name.startswith("inception") else (3, 224, 224)
    return LoadedModel(model, f"torchvision {name}", shape, "float32")


def _is_file_spec(spec: str) -> bool:
    """``path/to/model.py:factory`` (also ``C:\\x\\model.py:factory``): a file, not an importable module."""
    head = spec.rpartition(":")[0]
    return head.endswith(".py") or "/" in head or "\\" in head


def _import_file(spec: str, path: str) -> Any:
    """The module in the file ``path``, run as ``__main__`` is not: its `if __name__ == "__main__":` block stays
    out. Its folder is importable while it loads, so it can import its neighbours as `python file.py` would."""
    import importlib.util

    file = os.path.abspath(path)
    if not os.path.isfile(file):
        raise ModelSourceError(f"--model {spec!r}: no such file {path!r}")
    name = "_gpu_advisor_model_" + os.path.splitext(os.path.basename(file))[0].replace("-", "_")
    module_spec = importlib.util.spec_from_file_location(name, file)
    if module_spec is None or module_spec.loader is None:
        raise ModelSourceError(f"--model {spec!r}: {path!r} is not a Python file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    folder = os.path.dirname(file)
    sys.path.insert(0, folder)
    try:
        module_spec.loader.exec_module(module)
    finally:
        if folder in sys.path:
            sys.path.remove(folder)
    return module


def _from_import_path(spec: str, time_limit_s: Optional[float] = None) -> LoadedModel:
    import torch

    deadline = None if time_limit_s is None else time.monotonic() + time_limit_s

    def remaining() -> Optional[float]:
        return None if deadline is None else max(deadline - time.monotonic(), 0.001)

    module_name, _, attr_path = spec.rpartition(":") if _is_file_spec(spec) else spec.partition(":")
    if not module_name or not attr_path:
        raise ModelSourceError(f"--model {spec!r}: expected pkg.module:attribute or path/to/file.py:attribute")
    # Like uvicorn: the current directory is importable, so `--model train:build_model` finds ./train.py.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = _run_guarded(spec, f"importing {module_name!r}",
                              lambda: _import_file(spec, module_name) if _is_file_spec(spec)
                              else importlib.import_module(module_name), remaining())
    except ModelSourceError:
        raise
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if error.name and module_name.startswith(error.name):
            raise ModelSourceError(f"--model {spec!r}: no module named {error.name!r} (install it with pip install "
                                   f"{missing}, run from the directory that contains it, or give the file: "
                                   "path/to/file.py:attribute)") from None
        raise ModelSourceError(f"--model {spec!r}: importing {module_name!r} failed: {describe_error(error)} "
                               f"(install it: pip install {missing})") from None
    except BaseException as error:  # noqa: BLE001 -- the user's module may raise anything, even SystemExit
        if isinstance(error, KeyboardInterrupt):
            raise
        raise ModelSourceError(f"--model {spec!r}: importing {module_name!r} raised {describe_error(error)}") from None
    target: Any = module
    for part in attr_path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ModelSourceError(f"--model {spec!r}: {module_name!r} has no attribute {attr_path!r}") from None
    if isinstance(target, torch.nn.Module):
        return LoadedModel(target, spec)
    if not callable(target):
        raise ModelSourceError(f"--model {spec!r} is a {type(target).__name__}, not a torch.nn.Module or a factory")
    try:
        model = _run_guarded(spec, "calling the factory", target, remaining())
    except ModelSourceError:
        raise
    except BaseException as error:  # noqa: BLE001
        if isinstance(error, KeyboardInterrupt):
            raise
        raise ModelSourceError(f"--model {spec!r}: calling the factory raised {describe_error(error)}") from None
    if not isinstance(model, torch.nn.Module):
        raise ModelSourceError(f"--model {spec!r}: the factory returned a {type(model).__name__}, "
                               "not a torch.nn.Module")
    return LoadedModel(model, spec)
