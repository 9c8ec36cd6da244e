"""Where the model comes from: ``pkg.module:attr`` or ``path/to/file.py:attr`` (a module instance, or a factory /
class called with no arguments, as ``uvicorn module:app`` does), a built-in demo (mlp, cnn, transformer), or a torchvision model by
name (``resnet50`` or ``torchvision:resnet50``) when torchvision is installed.

Every way this can go wrong raises ModelSourceError with one line that says what was tried and what happened.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from typing import Any, Optional


class ModelSourceError(ValueError):
    """A model that cannot be had from what the user named (bad import path, factory failure, not a Module)."""


@dataclass
class LoadedModel:
    model: Any  # torch.nn.Module
    label: str  # what the report calls it: "torchvision resnet50", "demo mlp", "mypkg.nets:build"
    #: The demo's natural input (shape without the batch dimension, dtype) when the source knows one.
    default_input_shape: Optional[tuple[int, ...]] = None
    default_input_dtype: Optional[str] = None


def describe_error(error: BaseException) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def load_model(spec: str) -> LoadedModel:
    spec = spec.strip()
    if not spec:
        raise ModelSourceError("--model is empty; give pkg.module:factory, a demo (mlp, cnn, transformer) or a "
                               "torchvision model name")
    if ":" in spec and not spec.startswith(("demo:", "torchvision:")):
        return _from_import_path(spec)
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


def _from_import_path(spec: str) -> LoadedModel:
    import torch

    module_name, _, attr_path = spec.rpartition(":") if _is_file_spec(spec) else spec.partition(":")
    if not module_name or not attr_path:
        raise ModelSourceError(f"--model {spec!r}: expected pkg.module:attribute or path/to/file.py:attribute")
    # Like uvicorn: the current directory is importable, so `--model train:build_model` finds ./train.py.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = _import_file(spec, module_name) if _is_file_spec(spec) else importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if error.name and module_name.startswith(error.name):
            raise ModelSourceError(f"--model {spec!r}: no module named {error.name!r} (install it with pip install "
                                   f"{missing}, run from the directory that contains it, or give the file: "
                                   "path/to/file.py:attribute)") from None
        raise ModelSourceError(f"--model {spec!r}: importing {module_name!r} failed: {describe_error(error)} "
                               f"(install it: pip install {missing})") from None
    except ModelSourceError:
        raise
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
        model = target()
    except BaseException as error:  # noqa: BLE001
        if isinstance(error, KeyboardInterrupt):
            raise
        raise ModelSourceError(f"--model {spec!r}: calling the factory raised {describe_error(error)}") from None
    if not isinstance(model, torch.nn.Module):
        raise ModelSourceError(f"--model {spec!r}: the factory returned a {type(model).__name__}, "
                               "not a torch.nn.Module")
    return LoadedModel(model, spec)
