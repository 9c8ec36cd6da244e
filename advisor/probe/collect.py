"""``collect_facts()``: every fact the probe gathers, in one Facts model.

Importing this module imports neither torch nor pynvml; both are imported inside the functions that use them.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, TypeVar

from advisor.models.common import Fact, missing
from advisor.models.facts import DriverFacts, Facts, GpuFacts, HostFacts, TorchFacts

log = logging.getLogger(__name__)
T = TypeVar("T")


def _result(future: Future, fallback: Callable[[str], T], what: str) -> T:
    """A probe that raises despite its own guards is a bug; it costs its section, never the whole report."""
    try:
        return future.result()
    except Exception as error:  # noqa: BLE001
        log.warning("the %s probe failed: %s: %s", what, type(error).__name__, error, exc_info=True)
        return fallback(f"{what} probe failed: {type(error).__name__}: {error}")


def _no_nvml(reason: str) -> tuple[DriverFacts, Fact[list[GpuFacts]]]:
    return DriverFacts(nvml_available=missing(reason), nvml_error=missing(reason)), missing(reason)


def _torch_facts() -> TorchFacts:
    """From the child process the entry point started (advisor/_torch_child.py), or probed right here."""
    from advisor import _torch_child
    from advisor.probe.torch_env import failed_facts, probe_torch, torch_facts

    child = _torch_child.adopt_early()
    if child is None:
        return probe_torch()
    fields, why = _torch_child.finish(child)
    if fields is None:
        return failed_facts(installed=missing(why), import_error=why, reason=missing(why))
    return torch_facts(fields)


def collect_facts(*, with_torch: bool = True) -> Facts:
    """Everything the probe knows, gathered so that it costs about as much as ``import torch`` alone.

    ``import torch`` runs here in the calling thread (importing it elsewhere would race the caller's own
    import). Meanwhile worker threads read the host, NVML and installed packages: their waits (subprocesses,
    NVML's ioctls through ctypes, file reads) release the GIL, so they finish inside the import's shadow.
    """
    from advisor.probe.environment import probe_env, probe_packages
    from advisor.probe.host import probe_host
    from advisor.probe.merge import attach_torch_view
    from advisor.probe.nvml import probe_nvml

    env = probe_env()  # before the import: torch must not get the chance to change the environment first
    with ThreadPoolExecutor(max_workers=3, thread_name_prefix="gpu-advisor-probe") as pool:
        host_future = pool.submit(probe_host)
        nvml_future = pool.submit(probe_nvml)
        packages_future = pool.submit(probe_packages)
        torch_facts = _torch_facts() if with_torch else TorchFacts()
        host = _result(host_future, lambda reason: HostFacts(**dict.fromkeys(HostFacts.model_fields, missing(reason))),
                       "host")
        driver, gpus = _result(nvml_future, _no_nvml, "NVML")
        packages: Any = _result(packages_future, missing, "package")
    return Facts(
        host=host,
        torch=torch_facts,
        driver=driver,
        gpus=attach_torch_view(gpus, torch_facts),
        env=env,
        packages=packages,
    )
