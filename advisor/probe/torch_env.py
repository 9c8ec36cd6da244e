"""What torch in this process is and sees: build, CUDA/cuDNN it loads, devices, CPU backends, settings.

``import torch`` happens here, inside ``probe_torch_fields``, and nowhere at module level. Nothing here creates a
CUDA context or allocates GPU memory: device properties come from cudaGetDeviceProperties (no context), and
``mem_get_info`` / tensor creation are deliberately absent.

The probe itself needs only the standard library and torch, and returns TorchFacts' JSON form (a missing value is
``{"unavailable": reason}``): the torch child process (advisor/_torch_child.py) runs it without loading pydantic,
whose import would otherwise sit between ``import torch`` and the report on `gpu-advisor env`'s critical path.
``probe_torch()`` and ``torch_facts()`` turn that into the model, importing it only then.
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:
    from advisor.models.facts import TorchFacts

#: A fact in JSON form: the value, or {"unavailable": reason}.
JsonFact = Any

_PARALLEL_BACKEND = re.compile(r"^ATen parallel backend:\s*(.+)$", re.MULTILINE)


def missing(reason: str) -> dict[str, str]:
    """Unavailable(reason) in its JSON form (models/common.py)."""
    return {"unavailable": reason}


def attempt(function: Callable[[], Any]) -> JsonFact:
    """The value, or Unavailable with the exception's text: one odd torch build must cost one fact."""
    try:
        return function()
    except Exception as error:  # noqa: BLE001
        return missing(f"{type(error).__name__}: {error}")


def decode_cudnn_version(version: int) -> str:
    """cuDNN's integer version: 8902 -> "8.9.2" (major*1000 before 9), 91002 -> "9.10.2" (major*10000 from 9)."""
    if version >= 90000:
        return f"{version // 10000}.{version % 10000 // 100}.{version % 100}"
    return f"{version // 1000}.{version % 1000 // 100}.{version % 100}"


def parse_parallel_backend(info: str) -> JsonFact:
    match = _PARALLEL_BACKEND.search(info)
    return match.group(1).strip() if match else missing("torch.__config__.parallel_info() names no backend")


#: The first failure of ``import torch`` in this process. A second attempt re-runs torch/__init__.py over the
#: submodules the first one left loaded and fails differently ("function '_has_torch_function' already has a
#: docstring"), hiding the real cause (a missing libcudart, an ABI mismatch): only the first one is reported.
_FIRST_IMPORT_FAILURE: Optional[BaseException] = None


def remember_import_failure(error: BaseException) -> None:
    """For code that tried ``import torch`` itself first (the probe child): keep the real error."""
    global _FIRST_IMPORT_FAILURE
    if _FIRST_IMPORT_FAILURE is None:
        _FIRST_IMPORT_FAILURE = error


def _import_torch() -> tuple[Optional[Any], Optional[dict[str, Any]]]:
    """torch, or the fields that say why it cannot be imported (every other fact then takes that reason)."""
    if _FIRST_IMPORT_FAILURE is not None:
        return None, _failure_fields(_FIRST_IMPORT_FAILURE)
    try:
        import torch

        return torch, None
    except BaseException as error:  # noqa: BLE001 - a broken build can raise anything, even SystemExit
        if isinstance(error, KeyboardInterrupt):
            raise
        remember_import_failure(error)
        return None, _failure_fields(error)


def _failure_fields(error: BaseException) -> dict[str, Any]:
    if isinstance(error, ModuleNotFoundError) and error.name == "torch":
        return {"installed": False, "import_error": str(error),
                "unavailable_because": f"torch is not installed ({error})"}
    return {"installed": True, "import_error": f"{type(error).__name__}: {error}",
            "unavailable_because": f"import torch failed: {error}"}


def failed_facts(*, installed: Any, import_error: str, reason: Any) -> "TorchFacts":
    """TorchFacts when torch could not be probed: every fact unavailable for the same reason."""
    from advisor.models.facts import TorchFacts, TorchSettings

    fields = {name: reason for name in TorchFacts.model_fields if name not in ("installed", "import_error", "settings")}
    settings = TorchSettings(**{name: reason for name in TorchSettings.model_fields})
    return TorchFacts(installed=installed, import_error=import_error, settings=settings, **fields)


def torch_facts(fields: dict[str, Any]) -> "TorchFacts":
    """The model from ``probe_torch_fields()``'s output (in this process, or read from the child's JSON)."""
    from advisor.models.common import missing as unavailable
    from advisor.models.facts import TorchFacts

    if "unavailable_because" in fields:
        return failed_facts(installed=fields["installed"], import_error=fields["import_error"],
                            reason=unavailable(fields["unavailable_because"]))
    return TorchFacts.model_validate(fields)


def probe_torch() -> "TorchFacts":
    return torch_facts(probe_torch_fields())


def _arch_list(torch: Any) -> JsonFact:
    archs = torch.cuda.get_arch_list()  # empty whenever CUDA is unavailable, even on a CUDA build
    if archs:
        return list(archs)
    flags = getattr(torch._C, "_cuda_getArchFlags", None)  # works without a GPU, on CUDA builds only
    text = flags() if flags is not None else None
    return text.split() if text else []


def _cudnn_version(torch: Any) -> JsonFact:
    if torch.version.cuda is None and getattr(torch.version, "hip", None):
        return missing("ROCm build: torch.backends.cudnn reports MIOpen, not cuDNN")
    # version() raises on a cuDNN whose major differs from the build's: that text is the fact worth keeping.
    version = torch.backends.cudnn.version()
    return decode_cudnn_version(int(version)) if version is not None else None


def _cuda_availability(torch: Any) -> tuple[JsonFact, JsonFact]:
    """is_available(), and torch's own words when it is False: the warning it emits or torch.cuda.init()'s error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        available = attempt(torch.cuda.is_available)
    if available is True:
        return True, None
    if not isinstance(available, bool):
        return available, available
    # Only torch's own warnings: the probe's worker threads share the process-wide warnings machinery.
    said = [str(w.message) for w in caught if "torch" in (w.filename or "")]
    if said:
        return False, "\n".join(dict.fromkeys(said))
    # No warning (already emitted once in this process, or nothing to warn about: CPU build, CUDA_VISIBLE_DEVICES
    # hiding all GPUs): the error a user's first .cuda() would hit says why. On failure init() creates nothing.
    try:
        torch.cuda.init()
    except Exception as error:  # noqa: BLE001
        return False, str(error) or type(error).__name__
    return False, "torch.cuda.is_available() returned False without a warning or an error"


def _devices(torch: Any, count: JsonFact) -> JsonFact:
    """TorchDevice fields per device."""
    if not isinstance(count, int):
        return count
    devices = []
    for index in range(count):
        props = attempt(lambda index=index: torch.cuda.get_device_properties(index))
        if not hasattr(props, "major"):
            devices.append(dict(index=index, name=props, compute_capability=props, total_memory_bytes=props,
                                sm_count=props, uuid=props))
            continue
        uuid = getattr(props, "uuid", None)  # torch >= 2.0; str() gives 8-4-4-4-12 hex without "GPU-"
        devices.append(dict(
            index=index,
            name=props.name,
            compute_capability=f"{props.major}.{props.minor}",
            total_memory_bytes=props.total_memory,
            sm_count=props.multi_processor_count,
            uuid=str(uuid) if uuid is not None else missing("this torch does not report device UUIDs"),
        ))
    return devices


def _settings(torch: Any) -> dict[str, JsonFact]:
    """TorchSettings fields."""
    return dict(
        matmul_allow_tf32=attempt(lambda: bool(torch.backends.cuda.matmul.allow_tf32)),
        cudnn_allow_tf32=attempt(lambda: bool(torch.backends.cudnn.allow_tf32)),
        float32_matmul_precision=attempt(torch.get_float32_matmul_precision),
        cudnn_enabled=attempt(lambda: bool(torch.backends.cudnn.enabled)),
        cudnn_benchmark=attempt(lambda: bool(torch.backends.cudnn.benchmark)),
        cudnn_deterministic=attempt(lambda: bool(torch.backends.cudnn.deterministic)),
        deterministic_algorithms=attempt(torch.are_deterministic_algorithms_enabled),
        anomaly_detection=attempt(torch.is_anomaly_enabled),
    )


def _xnnpack(torch: Any) -> bool:
    import torch.backends.xnnpack  # not imported by `import torch`

    return bool(torch.backends.xnnpack.enabled)


def probe_torch_fields() -> dict[str, Any]:
    """TorchFacts' fields as JSON-able values (standard library and torch only; see the module's docstring)."""
    torch, failed = _import_torch()
    if failed is not None:
        return failed
    available, unavailable_reason = _cuda_availability(torch)
    # device_count() works without initialising CUDA; devices are described only when CUDA is usable.
    count = attempt(torch.cuda.device_count)
    devices = _devices(torch, count) if available is True else ([] if available is False else available)
    return dict(
        installed=True,
        import_error=None,
        version=attempt(lambda: str(torch.__version__)),
        git_version=attempt(lambda: torch.version.git_version),
        debug_build=attempt(lambda: bool(torch.version.debug)),
        cuda_version=attempt(lambda: torch.version.cuda),
        hip_version=attempt(lambda: getattr(torch.version, "hip", None)),
        cudnn_version=attempt(lambda: _cudnn_version(torch)),
        arch_list=attempt(lambda: _arch_list(torch)),
        cuda_available=available,
        cuda_unavailable_reason=unavailable_reason,
        device_count=count,
        devices=devices,
        xpu_available=attempt(lambda: bool(hasattr(torch, "xpu") and torch.xpu.is_available())),
        mps_available=attempt(lambda: bool(torch.backends.mps.is_available())),
        num_threads=attempt(torch.get_num_threads),
        num_interop_threads=attempt(torch.get_num_interop_threads),
        cpu_capability=attempt(lambda: torch.backends.cpu.get_cpu_capability()),
        mkl_available=attempt(lambda: bool(torch.backends.mkl.is_available())),
        mkldnn_available=attempt(lambda: bool(torch.backends.mkldnn.is_available())),
        openmp_available=attempt(lambda: bool(torch.backends.openmp.is_available())),
        xnnpack_available=attempt(lambda: _xnnpack(torch)),
        parallel_backend=attempt(lambda: parse_parallel_backend(torch.__config__.parallel_info())),
        settings=_settings(torch),
    )
